// The email ingest bench (`npm run bench` scenario email-in): 10,000 mails (threads of replies
// with In-Reply-To/References, some with attachments) appended to a real Dovecot, then taken in
// from scratch by the IMAP reader (the supervisor as workers.ts starts it, with the real ingest:
// ingestBatch). Reports mails/s, the RSS of this process (reader and database client; the
// embedded database too when used) before, at its peak over each half of the mails (flat: the
// second no higher) and after, and checks the threading: every thread in one conversation, no
// conversation holding two threads, every mail once. Target ≥ 200 mails/s.
//
//   npx node server/bench/email-ingest.ts [--mails=10000] [--thread=5] [--postgres=postgres://…] [--json]
//
// With --postgres, a scratch database is created on that server and dropped afterwards;
// otherwise the embedded database (PGlite) in a temporary folder. Without Debian's Dovecot
// (/usr/sbin/dovecot) it says so and exits 0 (with --json: {"skipped": "…"}). --json prints the
// result as one JSON line (what email.ts reads) instead of a table.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { readCursor } from '../src/email/email.cursor.ts';
import { ingestBatch, skipMail } from '../src/email/email.ingest.ts';
import { startEmailReaders } from '../src/email/email.readers.ts';
import { SYSTEM_ACTOR } from '../src/audit/audit.service.ts';
import { createInbox } from '../src/inboxes/inboxes.service.ts';
import { openRuntime, prepareDatabase } from '../src/setup.ts';
import { DOVECOT, dovecotEmailConfig, startDovecot } from '../test/dovecot.ts';
import { buildMail } from '../test/mail.ts';
import { withScratchDatabase } from '../test/process-helpers.ts';
import { EMAIL_TARGET_PER_SECOND, type EmailIngestResult, threadingHolds } from './email-report.ts';

const { values } = parseArgs({
  options: {
    mails: { type: 'string', default: '10000' },
    thread: { type: 'string', default: '5' },
    postgres: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
});
const MAILS = Number(values.mails);
const PER_THREAD = Number(values.thread);
const progress = (message: string) => process.stderr.write(`${message}\n`);

/** A thread's mails: the first, then replies quoting the thread; every 10th mail has a 20 KB attachment. */
async function appendMailbox(append: (raw: Buffer) => Promise<number>): Promise<number> {
  const attachment = Buffer.alloc(20 * 1024, 'parley email bench attachment ');
  let threads = 0;
  for (let n = 0; n < MAILS; n += PER_THREAD) {
    threads += 1;
    const ids: string[] = [];
    for (let i = 0; i < PER_THREAD && n + i < MAILS; i += 1) {
      const index = n + i;
      const id = `bench-${threads}-${i}-${process.pid}@customer.example`;
      const last = ids.at(-1);
      const raw = await buildMail({
        from: `Customer ${threads} <customer-${threads}@customer.example>`,
        to: 'support@example.com',
        subject: i === 0 ? `Order ${threads} did not arrive` : `Re: Order ${threads} did not arrive`,
        text: `Mail ${index}: hello, a question about order ${threads}.\n\n${'Some quoted text of the thread. '.repeat(20)}`,
        messageId: id,
        ...(last ? { inReplyTo: last, references: [...ids] } : {}),
        ...(index % 10 === 9 ? { attachments: [{ filename: `invoice-${index}.pdf`, content: attachment }] } : {}),
        date: new Date(),
      });
      await append(raw);
      ids.push(id);
    }
    if (threads % 200 === 0) progress(`appended ${Math.min(n + PER_THREAD, MAILS)} mails`);
  }
  return threads;
}

async function run(databaseUrl: string | null, dataDir: string): Promise<void> {
  const dovecot = await startDovecot();
  const config = loadConfig({
    DATA_DIR: dataDir,
    SECRET_KEY: 'email-bench-secret-key-0123456789abcdefgh',
    LOG_LEVEL: 'warn',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  });
  const runtime = await openRuntime(config, pino({ level: 'warn' }));
  try {
    await prepareDatabase(runtime.deps.db);
    const deps = runtime.deps;
    const appendStarted = performance.now();
    const threads = await appendMailbox((raw) => dovecot.append(raw));
    const appendMs = performance.now() - appendStarted;
    progress(`appended ${MAILS} mails in ${(appendMs / 1000).toFixed(1)} s`);

    const inbox = await createInbox(deps, SYSTEM_ACTOR, {
      name: 'Bench mail',
      channel: 'email',
      from: 'Support <support@example.com>',
      config: dovecotEmailConfig(dovecot),
    });
    // RSS when the reader starts, and its peak while the first half of the mails is taken in and
    // while the second half is: flat when the second peak is no higher than the first.
    const rssAtStart = process.memoryUsage().rss;
    const peaks = [rssAtStart, rssAtStart];
    let done = 0;
    const sampler = setInterval(() => {
      const half = done < MAILS / 2 ? 0 : 1;
      peaks[half] = Math.max(peaks[half] as number, process.memoryUsage().rss);
    }, 100);
    const started = performance.now();
    // Time spent inside ingestBatch, to tell the reader's share from the ingest's.
    let ingestMs = 0;
    const timedIngest: typeof ingestBatch = async (...args) => {
      const before = performance.now();
      try {
        return await ingestBatch(...args);
      } finally {
        ingestMs += performance.now() - before;
      }
    };
    const readers = startEmailReaders(deps, { tickMs: 200, intake: { ingestBatch: timedIngest, skipMail } });
    while (done < MAILS) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      done = Number((await readCursor(deps.db, inbox.id))?.last_uid ?? 0);
      if (performance.now() - started > 30 * 60_000) throw new Error(`only ${done} mails taken in after 30 minutes`);
    }
    const elapsedMs = performance.now() - started;
    clearInterval(sampler);
    await readers.stop();

    const rssAfter = process.memoryUsage().rss;

    // Threading: the thread a message belongs to is the order number its text names.
    const { rows: counts } = await sql<{ conversations: number; messages: number; glued: number; split: number }>`
      with m as (
        select m.conversation_id, substring(m.text_content from 'question about order ([0-9]+)') as thread
        from messages m join conversations c on c.id = m.conversation_id
        where c.inbox_id = ${inbox.id} and m.type = 'incoming'
      )
      select
        (select count(distinct conversation_id) from m)::int as conversations,
        (select count(*) from m)::int as messages,
        (select count(*) from (select conversation_id from m group by conversation_id having count(distinct thread) > 1) g)::int as glued,
        (select count(*) from (select thread from m group by thread having count(distinct conversation_id) > 1) s)::int as split`.execute(
      deps.db,
    );
    const attachments = await deps.db
      .selectFrom('media')
      .innerJoin('messages', 'messages.id', 'media.message_id')
      .innerJoin('conversations', 'conversations.id', 'messages.conversation_id')
      .where('conversations.inbox_id', '=', inbox.id)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();

    const count = counts[0] ?? { conversations: 0, messages: 0, glued: 0, split: 0 };
    const result: EmailIngestResult = {
      database: databaseUrl ? 'postgres' : 'pglite',
      mails: MAILS,
      threads,
      perThread: PER_THREAD,
      appendSeconds: Number((appendMs / 1000).toFixed(1)),
      seconds: Number((elapsedMs / 1000).toFixed(1)),
      mailsPerSecond: Math.round(MAILS / (elapsedMs / 1000)),
      ingestShare: Number((ingestMs / elapsedMs).toFixed(3)),
      rssBefore: rssAtStart,
      rssPeakFirstHalf: peaks[0] as number,
      rssPeakSecondHalf: peaks[1] as number,
      rssAfter,
      conversations: Number(count.conversations),
      messages: Number(count.messages),
      attachments: Number(attachments.n),
      glued: Number(count.glued),
      split: Number(count.split),
    };
    const ok = threadingHolds(result);
    if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`);
    else {
      const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
      const lines = [
        '| database | mails | threads | appended in | taken in | mails/s | in ingest | RSS before | peak RSS, 1st half | peak RSS, 2nd half | RSS after | conversations | messages | glued | split | attachments |',
        '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
        `| ${databaseUrl ? 'PostgreSQL' : 'embedded (PGlite)'} | ${MAILS} | ${threads} | ${result.appendSeconds} s | ${result.seconds} s | ${result.mailsPerSecond} | ${(100 * result.ingestShare).toFixed(0)} % | ${mb(rssAtStart)} | ${mb(result.rssPeakFirstHalf)} | ${mb(result.rssPeakSecondHalf)} | ${mb(rssAfter)} | ${result.conversations} | ${result.messages} | ${result.glued} | ${result.split} | ${result.attachments} |`,
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
      progress(
        `threading ${ok ? 'ok' : 'WRONG'}; target ${EMAIL_TARGET_PER_SECOND} mails/s ${result.mailsPerSecond >= EMAIL_TARGET_PER_SECOND ? 'met' : 'missed'}`,
      );
    }
    if (!ok) process.exitCode = 1;
  } finally {
    await runtime.close();
    await dovecot.stop();
  }
}

if (!existsSync(DOVECOT)) {
  const reason = `Dovecot is not installed (${DOVECOT}; Debian: apt-get install dovecot-imapd)`;
  if (values.json) process.stdout.write(`${JSON.stringify({ skipped: reason })}\n`);
  else progress(`email ingest bench skipped: ${reason}`);
} else if (values.postgres) {
  await withScratchDatabase(values.postgres, (dataDir, url) => run(url, dataDir));
} else {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-email-bench-'));
  try {
    await run(null, dataDir);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
