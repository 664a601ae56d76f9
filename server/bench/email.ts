// The email scenarios of `npm run bench` (email-in, email-out): each bench script runs to its
// end in a child process, on the benchmark's PostgreSQL server (a scratch database or schema of
// its own, dropped afterwards), and prints its result as one JSON line. The ingest needs Debian's
// Dovecot; without it the scenario is reported as skipped.
import { existsSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { DOVECOT } from '../test/dovecot.ts';
import {
  EMAIL_IN_ID,
  EMAIL_OUT_ID,
  type EmailBenchReport,
  type EmailBenchSettings,
  type EmailIngestResult,
  type EmailOutcome,
  type EmailSendResult,
  parseScenarioOutput,
} from './email-report.ts';
import { runScriptToEnd } from './processes.ts';

type Progress = (message: string) => void;

export interface EmailContext {
  root: string;
  /** The benchmark's database; the scenarios make their own beside it on the same server. */
  databaseUrl: string;
  redisUrl: string;
}

/** The same server, in the database `postgres`: the scenarios create (and drop) their own schema or database there. */
function serverUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  return url.toString();
}

async function runScenario<T>(
  context: EmailContext,
  script: string,
  args: string[],
  env: Record<string, string>,
): Promise<EmailOutcome<T>> {
  const ran = await runScriptToEnd(join(context.root, 'server/bench', script), [...args, '--json'], {
    cwd: context.root,
    env,
    timeoutMs: 45 * 60_000,
  });
  if (ran.timedOut) return { kind: 'failed', detail: `${script} did not finish within 45 minutes` };
  const outcome = parseScenarioOutput<T>(ran.stdout);
  if (outcome.kind === 'failed') return { kind: 'failed', detail: `${script} (exit code ${ran.code}): ${outcome.detail}` };
  return outcome;
}

export async function runEmail(
  context: EmailContext,
  settings: EmailBenchSettings,
  wants: (id: string) => boolean,
  progress: Progress,
): Promise<EmailBenchReport> {
  const report: EmailBenchReport = { settings, ingest: null, send: null, loadBefore: os.loadavg()[0] ?? 0 };
  const server = serverUrl(context.databaseUrl);
  if (wants(EMAIL_IN_ID)) {
    if (!existsSync(DOVECOT)) {
      const detail = `Dovecot is not installed (${DOVECOT}; Debian: apt-get install dovecot-imapd)`;
      progress(`- Email in: skipped, ${detail}`);
      report.ingest = { kind: 'skipped', detail };
    } else {
      progress(`- Email in: ${settings.inMails} mails through Dovecot and the IMAP reader`);
      report.ingest = await runScenario<EmailIngestResult>(
        context,
        'email-ingest.ts',
        [`--mails=${settings.inMails}`, `--postgres=${server}`],
        {},
      );
      progress(
        `    ${describe(report.ingest, (r) => `${r.mailsPerSecond} mails/s; ${r.conversations} conversations of ${r.threads} threads, ${r.glued} glued, ${r.split} split`)}`,
      );
    }
  }
  if (wants(EMAIL_OUT_ID)) {
    progress(`- Email out: ${settings.outMails} replies through the job runner and SMTP`);
    report.send = await runScenario<EmailSendResult>(
      context,
      'email-send.ts',
      [
        `--mails=${settings.outMails}`,
        `--concurrency=${settings.outConcurrency}`,
        `--connections=${settings.outConnections}`,
        '--statements',
      ],
      { DATABASE_URL: server, REDIS_URL: context.redisUrl },
    );
    progress(
      `    ${describe(report.send, (r) => `${r.mailsPerSecond} mails/s, ${r.cpuMsPerMail} ms CPU per mail${r.notSent ? `, ${r.notSent} NOT SENT` : ''}`)}`,
    );
  }
  return report;
}

function describe<T>(outcome: EmailOutcome<T>, measured: (result: T) => string): string {
  return outcome.kind === 'measured' ? measured(outcome.result) : `${outcome.kind}: ${outcome.detail}`;
}
