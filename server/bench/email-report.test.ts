// The email scenarios' pure parts: reading a scenario's output, the targets, the Markdown section,
// writeReport keeping it, and the options that select and size the scenarios.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import {
  checkEmailTargets,
  DEFAULT_EMAIL_SETTINGS,
  EMAIL_END,
  EMAIL_START,
  type EmailBenchReport,
  type EmailIngestResult,
  type EmailSendResult,
  parseScenarioOutput,
  renderEmail,
} from './email-report.ts';
import { OptionsError, parseOptions } from './options.ts';
import { writeReport } from './report-file.ts';
import { WEBHOOKS_END, WEBHOOKS_START } from './webhooks-report.ts';

const dir = mkdtempSync(join(tmpdir(), 'parley-email-report-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const MB = 1024 * 1024;

function ingest(overrides: Partial<EmailIngestResult> = {}): EmailIngestResult {
  return {
    database: 'postgres',
    mails: 10_000,
    threads: 2000,
    perThread: 5,
    appendSeconds: 30,
    seconds: 40,
    mailsPerSecond: 250,
    ingestShare: 0.99,
    rssBefore: 380 * MB,
    rssPeakFirstHalf: 430 * MB,
    rssPeakSecondHalf: 431 * MB,
    rssAfter: 420 * MB,
    conversations: 2000,
    messages: 10_000,
    attachments: 1000,
    glued: 0,
    split: 0,
    ...overrides,
  };
}

function send(overrides: Partial<EmailSendResult> = {}): EmailSendResult {
  return {
    database: 'postgres',
    mails: 2000,
    sent: 2000,
    received: 2000,
    notSent: 0,
    jobConcurrency: 16,
    smtpConnections: 5,
    sendSeconds: 8,
    mailsPerSecond: 250,
    cpuMsPerMail: 2.5,
    statementsPerMail: 1.9,
    rssBefore: 300 * MB,
    rssAfter: 320 * MB,
    ...overrides,
  };
}

function report(i: EmailIngestResult | null, s: EmailSendResult | null): EmailBenchReport {
  return {
    settings: DEFAULT_EMAIL_SETTINGS,
    ingest: i ? { kind: 'measured', result: i } : null,
    send: s ? { kind: 'measured', result: s } : null,
    loadBefore: 1.5,
  };
}

test('parseScenarioOutput: the last JSON line is the result; {"skipped"} is a skip; no JSON is a failure', () => {
  const result = send();
  assert.deepEqual(parseScenarioOutput(`progress\n{"partial": true}\n${JSON.stringify(result)}\n\n`), { kind: 'measured', result });
  assert.deepEqual(parseScenarioOutput('{"skipped":"Dovecot is not installed"}\n'), {
    kind: 'skipped',
    detail: 'Dovecot is not installed',
  });
  assert.equal(parseScenarioOutput('Error: connection refused\n').kind, 'failed');
  assert.equal(parseScenarioOutput('{not json}\n').kind, 'failed');
});

test('targets: 200 mails/s each way; threads neither glued nor split; a mail not sent misses the target', () => {
  assert.deepEqual(
    checkEmailTargets(report(ingest(), send())).map((c) => c.met),
    [true, true, true],
  );
  assert.deepEqual(
    checkEmailTargets(report(ingest({ mailsPerSecond: 199, glued: 1, conversations: 1999 }), send({ mailsPerSecond: 199 }))).map(
      (c) => c.met,
    ),
    [false, false, false],
  );
  assert.deepEqual(
    checkEmailTargets(report(ingest({ split: 2, conversations: 2002 }), send({ notSent: 1, sent: 1999 }))).map((c) => c.met),
    [true, false, false],
  );
  // Only what ran is checked; a skipped scenario is neither met nor missed, a failed one is missed.
  assert.equal(checkEmailTargets(report(null, send())).length, 1);
  const skipped: EmailBenchReport = {
    ...report(null, null),
    ingest: { kind: 'skipped', detail: 'no Dovecot' },
    send: { kind: 'failed', detail: 'crashed' },
  };
  assert.deepEqual(
    checkEmailTargets(skipped).map((c) => [c.met, c.measured]),
    [
      [null, 'skipped: no Dovecot'],
      [null, 'skipped: no Dovecot'],
      [false, '**failed: crashed**'],
    ],
  );
});

test('the Email section: between its markers, both tables with as many cells per row as their header, RSS before and after', () => {
  const text = renderEmail(report(ingest(), send()), new Date('2026-11-26T10:00:00Z'), 'Test machine.');
  assert.ok(text.startsWith(EMAIL_START) && text.endsWith(EMAIL_END));
  assert.match(text, /## Email \(2026-11-26 10:00:00 UTC\)/);
  const lines = text.split('\n');
  for (const header of ['| database | mails | mails/s | taken in', '| database | mails | mails/s | sent in']) {
    const at = lines.findIndex((line) => line.startsWith(header));
    assert.ok(at >= 0, header);
    const cells = (line: string) => line.split('|').length;
    assert.equal(cells(lines[at + 2] as string), cells(lines[at] as string));
  }
  assert.match(text, /\| 380 MB \| 430 MB \/ 431 MB \| 420 MB \|/);
  assert.match(text, /\| 300 MB \| 320 MB \|/);
  assert.match(text, /\| Email out: ≥ 200 mails\/s \(to an SMTP server on loopback\) \| 250 mails\/s \(PostgreSQL\) \| met \|/);
  const missing = renderEmail({ ...report(null, null), ingest: { kind: 'skipped', detail: 'Dovecot is not installed' } }, new Date(), '');
  assert.match(missing, /\*\*Mail in\*\*: skipped: Dovecot is not installed\./);
  assert.doesNotMatch(missing, /Mail out/);
});

test('writeReport replaces the Email section alone and keeps it when a run did not measure it', () => {
  const file = join(dir, 'performance.md');
  writeFileSync(file, '# Performance\n\n## Results 0\n');
  const email = (n: number) => `${EMAIL_START}\n\n## Email ${n}\n\n${EMAIL_END}`;
  const webhooks = `${WEBHOOKS_START}\n\n## Webhooks 1\n\n${WEBHOOKS_END}`;
  writeReport(file, '# Performance\n\n## Results 1', null, webhooks, email(1));
  writeReport(file, null, null, null, email(2));
  let text = readFileSync(file, 'utf8');
  assert.match(text, /## Results 1[\s\S]*## Webhooks 1[\s\S]*## Email 2[\s\S]*## What is measured/);
  assert.doesNotMatch(text, /## Email 1/);
  writeReport(file, '# Performance\n\n## Results 3', null);
  text = readFileSync(file, 'utf8');
  assert.match(text, /## Results 3[\s\S]*## Webhooks 1[\s\S]*## Email 2/);
  assert.equal(text.split(EMAIL_START).length, 2, 'one Email section');
});

test('options: --only=email-in,email-out and the email sizes', () => {
  const options = parseOptions(
    ['--only=email-in,email-out', '--ei-mails=500', '--eo-mails=300', '--eo-concurrency=8', '--eo-connections=10'],
    {},
  );
  assert.deepEqual(options.only, ['email-in', 'email-out']);
  assert.equal(options.out, null, '--only without --out writes nothing');
  assert.deepEqual(options.email, { inMails: 500, outMails: 300, outConcurrency: 8, outConnections: 10 });
  assert.deepEqual(parseOptions([], {}).email, DEFAULT_EMAIL_SETTINGS);
  assert.equal(parseOptions([], {}).only, null, 'a full run includes them');
  assert.throws(() => parseOptions(['--eo-mails=0'], {}), OptionsError);
  assert.throws(() => parseOptions(['--only=email'], {}), /email-in, email-out/);
});
