// Outbound mail throughput (`npm run bench` scenario email-out): agent replies on an email inbox
// delivered by the real job runner through the inbox's SMTP pool to an smtp-server on loopback,
// in this process. The replies are written first (through the API, each with its `email.deliver`
// job) with no runner started; the clock runs from the runner's start until every message is
// `sent`. Target: 200 mails/s.
//
//   npx node server/bench/email-send.ts [--mails=2000] [--concurrency=16] [--connections=5]
//       [--statements] [--profile=DIR] [--json]
//
// PGlite by default; DATABASE_URL (and REDIS_URL) run it on PostgreSQL, in a schema of its own
// (analyzed before the send: autovacuum may be off, and a table never analyzed is planned blind).
// --statements counts the statements sent during the send phase, --profile writes a CPU profile
// of it, --json prints the result as one JSON line (what email.ts reads) instead of a summary.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import pg from 'pg';
import { closeEmailTransports } from '../src/email/email.transport.ts';
import { startJobRunner } from '../src/jobs/jobs.runner.ts';
import { jobHandlers } from '../src/workers.ts';
import { createConversation, createInbox, testEmailConfig } from '../test/factories.ts';
import { buildTestApp, dataOf } from '../test/helpers.ts';
import { smtpSettingsFor, startSmtpServer } from '../test/smtp.ts';
import { EMAIL_TARGET_PER_SECOND, type EmailSendResult } from './email-report.ts';

const { values } = parseArgs({
  options: {
    mails: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '16' },
    connections: { type: 'string', default: '5' },
    profile: { type: 'string' },
    statements: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const mails = Number(values.mails);
const concurrency = Number(values.concurrency);
const connections = Number(values.connections);
const progress = (message: string) => process.stderr.write(`${message}\n`);

// Statements sent to the database during the send phase, by their first words (--statements).
const statements = new Map<string, number>();
let counting = false;
if (values.statements) {
  const count = (text: unknown) => {
    if (!counting) return;
    const raw = typeof text === 'string' ? text : ((text as { text?: string } | null)?.text ?? '?');
    const key = raw.replace(/\s+/g, ' ').trim().slice(0, 90);
    statements.set(key, (statements.get(key) ?? 0) + 1);
  };
  const pgQuery = pg.Client.prototype.query as (...args: unknown[]) => unknown;
  pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    count(args[0]);
    return pgQuery.apply(this, args);
  } as typeof pg.Client.prototype.query;
  const liteQuery = PGlite.prototype.query as (...args: unknown[]) => unknown;
  PGlite.prototype.query = function (this: unknown, ...args: unknown[]) {
    count(args[0]);
    return liteQuery.apply(this, args);
  } as typeof PGlite.prototype.query;
}

const t = await buildTestApp({ env: { JOB_CONCURRENCY: String(concurrency) } });
const smtp = await startSmtpServer();
try {
  const inbox = await createInbox(t, {
    channel: 'email',
    from: 'Bench Support <support@bench.test>',
    config: {
      imap: testEmailConfig().imap,
      smtp: smtpSettingsFor(smtp, 'none', { max_connections: connections }),
      signature: '<p>Bench</p>',
    },
  });
  // One conversation per 10 replies: threading headers grow as they do in real conversations.
  const conversations = await Promise.all(
    Array.from({ length: Math.ceil(mails / 10) }, () => createConversation(t, { inbox_id: inbox.id })),
  );
  const started = performance.now();
  for (let i = 0; i < mails; i += 50) {
    const answers = await Promise.all(
      Array.from({ length: Math.min(50, mails - i) }, (_, j) => {
        const conversation = conversations[(i + j) % conversations.length];
        return t.call({
          method: 'POST',
          url: `/api/v1/conversations/${conversation?.uuid}/messages`,
          payload: { message: `<p>Reply number ${i + j}: <b>thanks</b> for writing.</p>` },
        });
      }),
    );
    for (const answer of answers) dataOf(answer);
  }
  const writeSeconds = (performance.now() - started) / 1000;
  if (t.deps.dbKind === 'postgres') {
    // The schema's search_path names these tables; the rest of the server's databases are left alone.
    await sql`vacuum analyze jobs, messages, conversations, mail_ids, media, inboxes, users, domain_events`.execute(t.deps.db);
  }
  if (!values.json) progress(`wrote ${mails} replies in ${writeSeconds.toFixed(1)} s; sending`);

  const handler = jobHandlers['email.deliver'];
  if (!handler) throw new Error('no email.deliver handler');
  const session = values.profile ? new Session() : null;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  const rssBefore = process.memoryUsage().rss;
  counting = true;
  const sendStart = performance.now();
  const cpuStart = process.cpuUsage();
  const runner = startJobRunner(t.deps, { 'email.deliver': handler }, { pollIntervalMs: 20 });
  let sent = 0;
  for (;;) {
    // The SMTP server counts for free; the database is asked only once every mail has arrived.
    if (smtp.mails.length >= mails) {
      const row = await t.deps.db
        .selectFrom('messages')
        .where('status', '=', 'sent')
        .where('type', '=', 'outgoing')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      sent = Number(row.n);
    }
    if (sent >= mails || performance.now() - sendStart > 600_000) break;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  const seconds = (performance.now() - sendStart) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  counting = false;
  const rssAfter = process.memoryUsage().rss;
  if (session && values.profile) {
    const { profile } = await session.post('Profiler.stop');
    mkdirSync(values.profile, { recursive: true });
    writeFileSync(join(values.profile, `email-send-${Date.now()}.cpuprofile`), JSON.stringify(profile));
    session.disconnect();
  }
  await runner.stop();
  closeEmailTransports(t.deps);
  const notSent = await t.deps.db
    .selectFrom('messages')
    .where('status', 'in', ['failed', 'pending'])
    .where('type', '=', 'outgoing')
    .select('id')
    .execute();
  const counted = [...statements.values()].reduce((a, b) => a + b, 0);
  const result: EmailSendResult = {
    database: t.deps.dbKind,
    mails,
    sent,
    received: smtp.mails.length,
    notSent: notSent.length,
    jobConcurrency: concurrency,
    smtpConnections: connections,
    sendSeconds: Number(seconds.toFixed(2)),
    mailsPerSecond: Math.round(sent / seconds),
    // CPU of this process (Parley's sender and the SMTP server on loopback) per mail.
    cpuMsPerMail: Number(((cpu.user + cpu.system) / 1000 / Math.max(1, sent)).toFixed(2)),
    statementsPerMail: values.statements ? Number((counted / Math.max(1, mails)).toFixed(2)) : null,
    rssBefore,
    rssAfter,
  };
  if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else {
    if (values.statements) {
      progress('statements per mail, by their first words:');
      for (const [text, n] of [...statements].sort((a, b) => b[1] - a[1]).slice(0, 20))
        progress(`${(n / Math.max(1, mails)).toFixed(2).padStart(7)}  ${text}`);
    }
    const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
    process.stdout.write(
      `${result.database}: ${result.sent} of ${mails} sent in ${result.sendSeconds} s, ${result.mailsPerSecond} mails/s ` +
        `(target ${EMAIL_TARGET_PER_SECOND}: ${result.mailsPerSecond >= EMAIL_TARGET_PER_SECOND ? 'met' : 'missed'}); ` +
        `${result.cpuMsPerMail} ms CPU per mail; RSS ${mib(rssBefore)} → ${mib(rssAfter)} MB; ` +
        `JOB_CONCURRENCY ${concurrency}, ${connections} SMTP connections; load ${os.loadavg()[0]?.toFixed(1)}` +
        `${result.notSent > 0 ? `; ${result.notSent} NOT SENT` : ''}\n`,
    );
  }
  process.exitCode = result.notSent === 0 && result.sent === mails ? 0 : 1;
} finally {
  await smtp.close();
  await t.close();
}
