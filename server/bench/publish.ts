// What a run tells: its Markdown sections printed on stdout and written into the report file
// (--out; report-file.ts) or the scale curve's (--curve), then on stderr the scenarios whose
// requests failed and the targets missed.
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { resolve } from 'node:path';
import { checkEmailTargets, type EmailBenchReport, renderEmail } from './email-report.ts';
import { checkTargets, renderMarkdown } from './http-report.ts';
import { bareRate, type RunReport } from './http-results.ts';
import { type BenchOptions, SCENARIO_IDS } from './options.ts';
import type { RealtimeReport } from './realtime.ts';
import { checkRealtimeTargets, initRate, renderRealtime } from './realtime-report.ts';
import { writeReport } from './report-file.ts';
import { progress, ROOT } from './run-env.ts';
import { curveRow, previousCurveRows, renderCurve } from './scale-curve.ts';
import { checkWebhookTargets, renderWebhooks, type WebhookBenchReport } from './webhooks-report.ts';

/** The run's sections besides the HTTP one; null when a scenario did not run. */
export interface OtherSections {
  realtime: RealtimeReport | null;
  webhooks: WebhookBenchReport | null;
  email: EmailBenchReport | null;
}

/** Every section of a whole run (the HTTP one when an HTTP scenario ran), and its missed targets. */
export function publishRun(options: BenchOptions, report: RunReport, { realtime, webhooks, email }: OtherSections): void {
  const only = options.only;
  const reports = report.scenarios;
  const markdown = renderMarkdown(report);
  const realtimeMarkdown = realtime ? renderRealtime(realtime, initRate(reports, bareRate(report)), report.date) : null;
  const httpMeasured = only === null || only.some((id) => SCENARIO_IDS.includes(id));
  const webhooksMarkdown = webhooks
    ? renderWebhooks(
        webhooks,
        report.date,
        `Dataset of scale ${options.scale} (its size matters little here: each event is one new contact).`,
      )
    : null;
  process.stdout.write(
    `${httpMeasured ? `\n${markdown}\n` : ''}${realtimeMarkdown ? `\n${realtimeMarkdown}\n` : ''}${webhooksMarkdown ? `\n${webhooksMarkdown}\n` : ''}`,
  );
  const emailMarkdown = email ? reportEmail(email, report.date) : null;
  let curveMarkdown: string | null = null;
  if (options.curve) {
    const path = resolve(ROOT, options.curve);
    const row = curveRow(report);
    const rows = previousCurveRows(existsSync(path) ? readFileSync(path, 'utf8') : '').filter((r) => r.scale !== row.scale);
    curveMarkdown = renderCurve([...rows, row]);
    process.stdout.write(`\n${curveMarkdown}\n`);
  }
  if (options.out) {
    writeReport(
      resolve(ROOT, options.out),
      httpMeasured ? markdown : null,
      realtimeMarkdown,
      webhooksMarkdown,
      emailMarkdown,
      curveMarkdown,
    );
    progress(`Wrote ${options.out}.`);
  } else if (options.curve) {
    writeReport(resolve(ROOT, options.curve), null, null, null, null, curveMarkdown);
    progress(`Wrote the scale curve into ${options.curve}.`);
  } else progress(`Not written to a file (scale ${options.scale}; pass --out=FILE to write it).`);

  const failing = reports.filter(
    (r) => r.outcome.kind === 'failed' || (r.outcome.kind === 'measured' && (r.outcome.result.non2xx > 0 || r.outcome.result.errors > 0)),
  );
  if (failing.length > 0) progress(`\n!!!! FAILED REQUESTS in: ${failing.map((r) => r.id).join(', ')} — see the table.`);
  const missed = [
    ...checkTargets(report),
    ...(realtime ? checkRealtimeTargets(realtime) : []),
    ...(webhooks ? checkWebhookTargets(webhooks) : []),
    ...(email ? checkEmailTargets(email) : []),
  ].filter((c) => c.met === false);
  progress(missed.length === 0 ? 'Every measured target is met.' : `Targets missed: ${missed.map((c) => c.target).join('; ')}.`);
}

/** A run of the email scenarios alone: their section, and its missed targets. */
export function publishEmailOnly(options: BenchOptions, email: EmailBenchReport): void {
  const markdown = reportEmail(email, new Date());
  if (options.out) {
    writeReport(resolve(ROOT, options.out), null, null, null, markdown);
    progress(`Wrote ${options.out}.`);
  } else progress('Not written to a file (pass --out=FILE to write it).');
  const missed = checkEmailTargets(email).filter((c) => c.met === false);
  progress(missed.length === 0 ? 'Every measured target is met.' : `Targets missed: ${missed.map((c) => c.target).join('; ')}.`);
}

/** The Email section, printed on stdout; returned for the report file. */
function reportEmail(email: EmailBenchReport, date: Date): string {
  const markdown = renderEmail(
    email,
    date,
    `${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}, ${os.availableParallelism()} cores; Node.js ${process.version}.`,
  );
  process.stdout.write(`\n${markdown}\n`);
  return markdown;
}
