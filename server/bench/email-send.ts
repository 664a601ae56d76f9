// Outbound mail throughput: agent replies on an email inbox delivered by the real job runner
// through the inbox's SMTP pool to an smtp-server on loopback, in this process. The replies are
// written first (through the API, each with its `email.deliver` job) with no runner started;
// the clock runs from the runner's start until every message is `sent`. Target: 200 mails/s.
//
//   npx node server/bench/email-send.ts [--mails 2000] [--concurrency 16] [--connections 5]
//
// PGlite by default; DATABASE_URL (and REDIS_URL) run it on PostgreSQL, in a schema of its own.
import os from 'node:os';
import { parseArgs } from 'node:util';
import { createConversation, createInbox, testEmailConfig } from '../test/factories.ts';
import { buildTestApp, dataOf } from '../test/helpers.ts';
import { smtpSettingsFor, startSmtpServer } from '../test/smtp.ts';
import { closeEmailTransports } from '../src/email/email.transport.ts';
import { startJobRunner } from '../src/jobs/jobs.runner.ts';
import { jobHandlers } from '../src/workers.ts';

const TARGET_PER_SECOND = 200;

const { values } = parseArgs({
  options: {
    mails: { type: 'string', default: '2000' },
    concurrency: { type: 'string', default: '16' },
    connections: { type: 'string', default: '5' },
  },
});
const mails = Number(values.mails);
const concurrency = Number(values.concurrency);
const connections = Number(values.connections);

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
    await Promise.all(
      Array.from({ length: Math.min(50, mails - i) }, (_, j) => {
        const conversation = conversations[(i + j) % conversations.length];
        return t.call({
          method: 'POST',
          url: `/api/v1/conversations/${conversation?.uuid}/messages`,
          payload: { message: `<p>Reply number ${i + j}: <b>thanks</b> for writing.</p>` },
        });
      }),
    ).then((answers) => {
      for (const answer of answers) dataOf(answer);
    });
  }
  const writeSeconds = (performance.now() - started) / 1000;

  const handler = jobHandlers['email.deliver'];
  if (!handler) throw new Error('no email.deliver handler');
  const sendStart = performance.now();
  const cpuStart = process.cpuUsage();
  const runner = startJobRunner(t.deps, { 'email.deliver': handler }, { pollIntervalMs: 20 });
  let sent = 0;
  for (;;) {
    const row = await t.deps.db
      .selectFrom('messages')
      .where('status', '=', 'sent')
      .where('type', '=', 'outgoing')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    sent = Number(row.n);
    if (sent >= mails || performance.now() - sendStart > 300_000) break;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  const seconds = (performance.now() - sendStart) / 1000;
  const cpu = process.cpuUsage(cpuStart);
  await runner.stop();
  closeEmailTransports(t.deps);
  const rate = sent / seconds;
  const failed = await t.deps.db
    .selectFrom('messages')
    .where('status', 'in', ['failed', 'pending'])
    .where('type', '=', 'outgoing')
    .select('id')
    .execute();
  console.log(
    JSON.stringify(
      {
        database: t.deps.dbKind,
        mails,
        sent,
        received: smtp.mails.length,
        notSent: failed.length,
        jobConcurrency: concurrency,
        smtpConnections: connections,
        writeSeconds: Number(writeSeconds.toFixed(2)),
        sendSeconds: Number(seconds.toFixed(2)),
        mailsPerSecond: Math.round(rate),
        // CPU of this process (Parley, and the SMTP server on loopback) per mail: independent of other load on the machine.
        cpuMsPerMail: Number(((cpu.user + cpu.system) / 1000 / Math.max(1, sent)).toFixed(2)),
        loadAverage: os.loadavg()[0]?.toFixed(1),
        target: TARGET_PER_SECOND,
        met: rate >= TARGET_PER_SECOND,
      },
      null,
      2,
    ),
  );
  process.exitCode = rate >= TARGET_PER_SECOND && failed.length === 0 ? 0 : 1;
} finally {
  await smtp.close();
  await t.close();
}
