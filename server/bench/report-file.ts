// The report file (docs/performance.md by default): the HTTP results first, then the scale
// curve, Realtime, Webhooks and Email sections, the method, and the notes kept below their
// marker. A run rewrites what it measured and keeps the rest.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { EMAIL_END, EMAIL_START } from './email-report.ts';
import { METHOD } from './method.ts';
import { REALTIME_END, REALTIME_START } from './realtime-report.ts';
import { CURVE_END, CURVE_START } from './scale-curve.ts';
import { WEBHOOKS_END, WEBHOOKS_START } from './webhooks-report.ts';

const NOTES_MARKER = '<!-- Notes: everything below this line is kept when the benchmark rewrites this file. -->';

/**
 * Writes the results, keeping what this run did not measure: the HTTP results when only other
 * scenarios ran, each of the Realtime, Webhooks and Email sections when it did not run, and the
 * notes below the marker.
 */
export function writeReport(
  path: string,
  markdown: string | null,
  realtime: string | null,
  webhooks: string | null = null,
  email: string | null = null,
  curve: string | null = null,
): void {
  const previous = existsSync(path) ? readFileSync(path, 'utf8') : '';
  const at = previous.indexOf(NOTES_MARKER);
  const notes = at >= 0 ? previous.slice(at + NOTES_MARKER.length).replace(/^\n+/, '') : '';
  const head = at >= 0 ? previous.slice(0, at) : previous;
  const sectionOf = (start: string, end: string) => {
    const from = head.indexOf(start);
    const to = head.indexOf(end);
    return { from, text: from >= 0 && to > from ? head.slice(from, to + end.length) : '' };
  };
  const previousRealtime = sectionOf(REALTIME_START, REALTIME_END);
  const previousWebhooks = sectionOf(WEBHOOKS_START, WEBHOOKS_END);
  const previousEmail = sectionOf(EMAIL_START, EMAIL_END);
  const previousCurve = sectionOf(CURVE_START, CURVE_END);
  const methodAt = head.indexOf('## What is measured');
  const previousMain = head
    .slice(
      0,
      [previousRealtime.from, previousWebhooks.from, previousEmail.from, previousCurve.from, methodAt]
        .filter((i) => i >= 0)
        .reduce((a, b) => Math.min(a, b), head.length),
    )
    .trimEnd();
  const main = markdown ?? (previousMain || '# Performance\n');
  const sections = [
    curve ?? previousCurve.text,
    realtime ?? previousRealtime.text,
    webhooks ?? previousWebhooks.text,
    email ?? previousEmail.text,
  ].filter(Boolean);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(
    path,
    `${main.trimEnd()}\n\n${sections.map((section) => `${section}\n\n`).join('')}${METHOD}\n${NOTES_MARKER}\n\n${notes}`.trimEnd() + '\n',
  );
}
