// The email scenarios' results, targets and Markdown section ("Email" in docs/performance.md),
// kept pure so they can be tested alone. The scenarios themselves are email-ingest.ts (mail in,
// through a real Dovecot) and email-send.ts (mail out, to an SMTP server on loopback); each runs
// as a child process of the benchmark and prints its result as one JSON line (--json).

export const EMAIL_IN_ID = 'email-in';
export const EMAIL_OUT_ID = 'email-out';
export const EMAIL_IDS: readonly string[] = [EMAIL_IN_ID, EMAIL_OUT_ID];

export const EMAIL_START =
  '<!-- email: this section is written by the email scenarios (npm run bench -- --only=email-in,email-out --out=…) -->';
export const EMAIL_END = '<!-- /email -->';

/** Both directions: mails per second. */
export const EMAIL_TARGET_PER_SECOND = 200;

export interface EmailBenchSettings {
  /** Mails appended to Dovecot and taken in (threads of 5). */
  inMails: number;
  /** Replies delivered over SMTP. */
  outMails: number;
  /** JOB_CONCURRENCY of the sending runner. */
  outConcurrency: number;
  /** The inbox's SMTP connections (max_connections). */
  outConnections: number;
}

export const DEFAULT_EMAIL_SETTINGS: EmailBenchSettings = { inMails: 10_000, outMails: 2000, outConcurrency: 16, outConnections: 5 };

/** What email-ingest.ts prints. RSS in bytes, of the bench process (reader, ingest, database client). */
export interface EmailIngestResult {
  database: 'postgres' | 'pglite';
  mails: number;
  threads: number;
  perThread: number;
  appendSeconds: number;
  seconds: number;
  mailsPerSecond: number;
  /** Share of the time spent inside ingestBatch (the rest: the IMAP reader). */
  ingestShare: number;
  rssBefore: number;
  rssPeakFirstHalf: number;
  rssPeakSecondHalf: number;
  rssAfter: number;
  conversations: number;
  messages: number;
  attachments: number;
  /** Conversations holding mails of more than one thread. */
  glued: number;
  /** Threads whose mails are in more than one conversation. */
  split: number;
}

/** What email-send.ts prints. */
export interface EmailSendResult {
  database: 'postgres' | 'pglite';
  mails: number;
  sent: number;
  received: number;
  notSent: number;
  jobConcurrency: number;
  smtpConnections: number;
  sendSeconds: number;
  mailsPerSecond: number;
  /** CPU of the bench process (Parley's sender and the SMTP server) per mail. */
  cpuMsPerMail: number;
  /** Database statements per mail during the send phase, when counted (--statements). */
  statementsPerMail: number | null;
  rssBefore: number;
  rssAfter: number;
}

export type EmailOutcome<T> = { kind: 'measured'; result: T } | { kind: 'skipped'; detail: string } | { kind: 'failed'; detail: string };

export interface EmailBenchReport {
  settings: EmailBenchSettings;
  /** null: not run (not selected). */
  ingest: EmailOutcome<EmailIngestResult> | null;
  send: EmailOutcome<EmailSendResult> | null;
  /** One-minute load average when the scenarios started. */
  loadBefore: number;
}

export interface EmailTargetCheck {
  target: string;
  measured: string;
  met: boolean | null;
}

/**
 * The result a scenario printed: its last line that is a JSON object (what it logged before is
 * progress). A line `{"skipped": "…"}` is a scenario that could not run here.
 */
export function parseScenarioOutput<T>(stdout: string): EmailOutcome<T> {
  const line = stdout
    .split('\n')
    .map((l) => l.trim())
    .reverse()
    .find((l) => l.startsWith('{') && l.endsWith('}'));
  if (!line) return { kind: 'failed', detail: 'it printed no result' };
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { kind: 'failed', detail: 'its result is not JSON' };
  }
  if (typeof value !== 'object' || value === null) return { kind: 'failed', detail: 'its result is not an object' };
  const skipped = (value as { skipped?: unknown }).skipped;
  if (typeof skipped === 'string') return { kind: 'skipped', detail: skipped };
  return { kind: 'measured', result: value as T };
}

const fmt = (n: number, digits = 0) =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : '—';
const mb = (bytes: number) => `${fmt(bytes / 1024 / 1024)} MB`;
const engine = (database: 'postgres' | 'pglite') => (database === 'postgres' ? 'PostgreSQL' : 'embedded (PGlite)');

/** Every thread in one conversation, no conversation with two threads, every mail once. */
export function threadingHolds(r: EmailIngestResult): boolean {
  return r.glued === 0 && r.split === 0 && r.conversations === r.threads && r.messages === r.mails;
}

function notMeasured(outcome: EmailOutcome<unknown> | null): string {
  if (outcome === null) return 'not run';
  return outcome.kind === 'skipped' ? `skipped: ${outcome.detail}` : outcome.kind === 'failed' ? `**failed: ${outcome.detail}**` : '';
}

export function checkEmailTargets(report: EmailBenchReport): EmailTargetCheck[] {
  const checks: EmailTargetCheck[] = [];
  const target = `≥ ${EMAIL_TARGET_PER_SECOND} mails/s`;
  if (report.ingest !== null) {
    const names = [`Email in: ${target} (IMAP to stored)`, 'Email in: every thread in one conversation, none glued'];
    if (report.ingest.kind !== 'measured') {
      const measured = notMeasured(report.ingest);
      for (const name of names) checks.push({ target: name, measured, met: report.ingest.kind === 'failed' ? false : null });
    } else {
      const r = report.ingest.result;
      checks.push({
        target: names[0] as string,
        measured: `${fmt(r.mailsPerSecond)} mails/s (${engine(r.database)})`,
        met: r.mailsPerSecond >= EMAIL_TARGET_PER_SECOND,
      });
      checks.push({
        target: names[1] as string,
        measured: `${fmt(r.conversations)} conversations for ${fmt(r.threads)} threads; ${fmt(r.glued)} glued, ${fmt(r.split)} split; ${fmt(r.messages)} of ${fmt(r.mails)} mails`,
        met: threadingHolds(r),
      });
    }
  }
  if (report.send !== null) {
    const name = `Email out: ${target} (to an SMTP server on loopback)`;
    if (report.send.kind !== 'measured') {
      checks.push({ target: name, measured: notMeasured(report.send), met: report.send.kind === 'failed' ? false : null });
    } else {
      const r = report.send.result;
      const unsent = r.notSent > 0 ? `, **${fmt(r.notSent)} not sent**` : '';
      checks.push({
        target: name,
        measured: `${fmt(r.mailsPerSecond)} mails/s (${engine(r.database)})${unsent}`,
        met: r.notSent === 0 && r.sent === r.mails && r.mailsPerSecond >= EMAIL_TARGET_PER_SECOND,
      });
    }
  }
  return checks;
}

function ingestLines(outcome: EmailOutcome<EmailIngestResult>): string[] {
  if (outcome.kind !== 'measured') return [`**Mail in**: ${notMeasured(outcome)}.`, ''];
  const r = outcome.result;
  return [
    `**Mail in**: ${fmt(r.mails)} mails appended to Dovecot (threads of ${r.perThread}: a first mail, then replies with In-Reply-To and References; every 10th mail with a 20 KB attachment), then taken in from scratch by the IMAP reader (the supervisor as workers.ts starts it) until the cursor reaches the last UID. RSS is the bench process's (reader, ingest, database client).`,
    '',
    '| database | mails | mails/s | taken in | in ingest | RSS before | peak RSS, 1st half / 2nd half | RSS after | conversations | glued | split | attachments |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| ${engine(r.database)} | ${fmt(r.mails)} | **${fmt(r.mailsPerSecond)}** | ${fmt(r.seconds, 1)} s | ${fmt(r.ingestShare * 100)}% | ${mb(r.rssBefore)} | ${mb(r.rssPeakFirstHalf)} / ${mb(r.rssPeakSecondHalf)} | ${mb(r.rssAfter)} | ${fmt(r.conversations)} of ${fmt(r.threads)} threads | ${r.glued ? `**${fmt(r.glued)}**` : '0'} | ${r.split ? `**${fmt(r.split)}**` : '0'} | ${fmt(r.attachments)} |`,
    '',
  ];
}

function sendLines(outcome: EmailOutcome<EmailSendResult>): string[] {
  if (outcome.kind !== 'measured') return [`**Mail out**: ${notMeasured(outcome)}.`, ''];
  const r = outcome.result;
  return [
    `**Mail out**: ${fmt(r.mails)} agent replies on an email inbox written first through the API (each with its \`email.deliver\` job), then sent by the real job runner (JOB_CONCURRENCY ${r.jobConcurrency}) through the inbox's pooled SMTP transport (${r.smtpConnections} connections) to an SMTP server in the bench process; the clock runs from the runner's start until every message is \`sent\`. CPU is the bench process's (sender and SMTP server) over that time.`,
    '',
    '| database | mails | mails/s | sent in | CPU per mail | statements per mail | RSS before | RSS after | not sent |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    `| ${engine(r.database)} | ${fmt(r.mails)} | **${fmt(r.mailsPerSecond)}** | ${fmt(r.sendSeconds, 1)} s | ${fmt(r.cpuMsPerMail, 1)} ms | ${r.statementsPerMail === null ? '—' : fmt(r.statementsPerMail, 2)} | ${mb(r.rssBefore)} | ${mb(r.rssAfter)} | ${r.notSent ? `**${fmt(r.notSent)}**` : '0'} |`,
    '',
  ];
}

export function renderEmail(report: EmailBenchReport, date: Date, note: string): string {
  const lines = [
    EMAIL_START,
    '',
    `## Email (${date
      .toISOString()
      .replace('T', ' ')
      .replace(/\.\d+Z$/, ' UTC')})`,
    '',
  ];
  lines.push(
    `Each direction runs in a child process of the benchmark, on PostgreSQL (a scratch database or schema of its own). One-minute load average at the start: ${fmt(report.loadBefore, 2)}. ${note}`,
  );
  lines.push('');
  if (report.ingest) lines.push(...ingestLines(report.ingest));
  if (report.send) lines.push(...sendLines(report.send));
  lines.push('### Email targets', '', '| Target | Measured | |', '|---|---|---|');
  for (const c of checkEmailTargets(report))
    lines.push(`| ${c.target} | ${c.measured} | ${c.met === null ? '—' : c.met ? 'met' : '**missed**'} |`);
  lines.push('', EMAIL_END);
  return lines.join('\n');
}
