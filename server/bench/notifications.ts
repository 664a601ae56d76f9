// The notifications scenario of `npm run bench` (--only=notifications runs it alone): one Parley
// app with its workers (the fan-out runner woken by commits), in this process, on a scratch schema
// of the benchmark's PostgreSQL server (with Redis) or on the embedded database. 100 agents, each
// following 5 of 50 live-chat conversations (10 followers a conversation); contacts write through
// the widget API. Two measures, each bounded in time:
// - throughput: contact messages a second with 20 writers as fast as they go, counted until the
//   notifications are made too, first with no followers, then with them (each message then makes
//   10 notifications);
// - latency: 100 contact messages a second for `seconds`, the time from a message's request to
//   its `new_message` frame and to its `notification` frame on the followers' agent sockets.
// Usage alone: npx node server/bench/notifications.ts [--seconds=10] [--json]
import { availableParallelism } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { cpuWindow } from './cpu.ts';
import { buildTestApp, type Caller, type TestApp } from '../test/helpers.ts';
import { type Frame, listen, openSocket, type TestSocket } from '../test/sockets.ts';
import { createWidgetInbox, startVisitor } from '../test/widget.ts';
import { startWorkers } from '../src/workers.ts';

const AGENTS = 100;
const CONVERSATIONS = 50;
const FOLLOWS_PER_AGENT = 5;
const WRITERS = 20;
const RATE = 100;

type Progress = (message: string) => void;

export interface NotificationsBenchReport {
  database: 'postgresql+redis' | 'embedded';
  seconds: number;
  withoutFollowers: number;
  withFollowers: number;
  /** CPU per contact message (µs), its notifications made: this process (Parley and the writers) and PostgreSQL; null off Linux. */
  cpuWithout: MessageCpu | null;
  cpuWith: MessageCpu | null;
  /** withFollowers / withoutFollowers. */
  ratio: number;
  offered: number;
  sent: number;
  newMessageP50: number;
  newMessageP99: number;
  notificationP50: number;
  notificationP99: number;
  notificationsMade: number;
  framesMissing: number;
}

export interface MessageCpu {
  app: number;
  postgres: number | null;
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

interface Chat {
  inbox: string;
  uuid: string;
  token: string;
}

async function sendMessage(t: TestApp, chat: Chat, text: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/v1/widget/chat/conversations/${chat.uuid}/message`,
    headers: { 'x-service-inbox-id': chat.inbox, authorization: `Bearer ${chat.token}` },
    payload: { message: text },
  });
  if (res.statusCode !== 200) throw new Error(`widget message: ${res.statusCode} ${res.body.slice(0, 200)}`);
  return (JSON.parse(res.body) as { data: { uuid: string } }).data.uuid;
}

/**
 * Contact messages a second with WRITERS writers for `seconds`, counted until their
 * notifications are made too (the fan-out jobs drained): work left behind is not throughput.
 * With what each message cost in CPU over the same window.
 */
async function throughput(t: TestApp, chats: Chat[], seconds: number): Promise<{ rate: number; cpu: MessageCpu | null }> {
  const window = cpuWindow(process.pid, availableParallelism());
  window?.open();
  const begun = performance.now();
  const end = begun + seconds * 1000;
  let sent = 0;
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      let i = 0;
      while (performance.now() < end) {
        await sendMessage(t, chats[(w + i * WRITERS) % chats.length] as Chat, `Throughput ${w}-${i}`);
        i += 1;
        sent += 1;
      }
    }),
  );
  await drainFanOut(t, 120_000);
  const rate = (sent * 1000) / (performance.now() - begun);
  const used = window?.close();
  const per = (coreSeconds: number) => Math.round((coreSeconds * 1e6) / Math.max(1, sent));
  return { rate, cpu: used ? { app: per(used.server), postgres: used.postgres === null ? null : per(used.postgres) } : null };
}

async function drainFanOut(t: TestApp, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const row = await t.deps.db
      .selectFrom('jobs')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('kind', '=', 'notifications.fan_out')
      .where('completed_at', 'is', null)
      .where('failed_at', 'is', null)
      .executeTakeFirstOrThrow();
    if (Number(row.n) === 0) return;
    await sleep(100);
  }
}

export async function runNotificationsBench(
  settings: { seconds: number; databaseUrl: string | null; redisUrl: string | null },
  progress: Progress,
): Promise<NotificationsBenchReport> {
  if (settings.databaseUrl) process.env['DATABASE_URL'] = settings.databaseUrl;
  if (settings.redisUrl) process.env['REDIS_URL'] = settings.redisUrl;
  progress('- Notifications: 100 agents following conversations, contact messages through the widget');
  const t = await buildTestApp({ env: { WIDGET_RATE_LIMIT_PER_MINUTE: '0', WIDGET_MESSAGE_RATE_LIMIT_PER_MINUTE: '0' } });
  const sockets: TestSocket[] = [];
  const workers = startWorkers(t.deps);
  try {
    const agents: Caller[] = [];
    for (let i = 0; i < AGENTS; i += 1) agents.push(await t.makeAgent({ roles: ['Admin'], first_name: `Bench${i}` }));
    const inbox = await createWidgetInbox(t);
    const chats: Chat[] = [];
    for (let i = 0; i < CONVERSATIONS; i += 1) {
      const visitor = await startVisitor(t, inbox.uuid, `Hello ${i}`);
      chats.push({ inbox: inbox.uuid, uuid: visitor.conversationUuid, token: visitor.token });
    }
    const conversations = await t.deps.db.selectFrom('conversations').select(['id', 'uuid']).execute();
    const idOf = new Map(conversations.map((c) => [c.uuid, c.id]));
    progress(`    throughput without followers (${settings.seconds} s, ${WRITERS} writers)`);
    const without = await throughput(t, chats, settings.seconds);
    // Every agent follows 5 conversations: 10 followers each.
    const followsOf = new Map<string, number[]>();
    const rows = agents.flatMap((agent, a) =>
      Array.from({ length: FOLLOWS_PER_AGENT }, (_, k) => {
        const chat = chats[(a * FOLLOWS_PER_AGENT + k) % CONVERSATIONS] as Chat;
        followsOf.set(chat.uuid, [...(followsOf.get(chat.uuid) ?? []), a]);
        return { conversation_id: idOf.get(chat.uuid) as number, agent_id: agent.id, created_at: new Date(Date.now() - 1000) };
      }),
    );
    await t.deps.db
      .insertInto('conversation_followers')
      .values(rows)
      .onConflict((oc) => oc.doNothing())
      .execute();
    progress(`    throughput with 10 followers a conversation (${settings.seconds} s)`);
    const following = await throughput(t, chats, settings.seconds);
    // The agents' sockets, for the latency (each agent one socket; each message reaches all 100).
    const base = await listen(t.app);
    for (const agent of agents) sockets.push(await openSocket(`${base}/ws`, agent.headers));
    await sleep(500);

    progress(`    latency at ${RATE} messages a second (${settings.seconds} s)`);
    const sentAt = new Map<string, { at: number; chat: Chat }>();
    const offered = RATE * settings.seconds;
    const begun = performance.now();
    const requests: Promise<void>[] = [];
    // Frames are timed as they arrive: the first of each (socket, type, message).
    const arrivals = new Map<string, number>();
    const note = (socket: number, type: string, uuid: string, at: number) => {
      const key = `${socket} ${type} ${uuid}`;
      if (!arrivals.has(key)) arrivals.set(key, at);
    };
    sockets.forEach((socket, index) => {
      socket.ws.on('message', (raw: Buffer) => {
        const at = performance.now();
        const frame = JSON.parse(raw.toString('utf8')) as Frame;
        const data = frame.data as { uuid?: string; message_uuid?: string } | undefined;
        if (frame.type === 'new_message' && data?.uuid) note(index, 'new_message', data.uuid, at);
        if (frame.type === 'notification' && data?.message_uuid) note(index, 'notification', data.message_uuid, at);
      });
    });
    for (let i = 0; i < offered; i += 1) {
      const due = begun + (i * 1000) / RATE;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const chat = chats[i % CONVERSATIONS] as Chat;
      const at = performance.now();
      requests.push(
        sendMessage(t, chat, `Latency ${i}`).then((uuid) => {
          sentAt.set(uuid, { at, chat });
        }),
      );
    }
    await Promise.all(requests);
    await drainFanOut(t, 120_000);
    await sleep(2000);
    const newMessage: number[] = [];
    const notification: number[] = [];
    let framesMissing = 0;
    for (const [uuid, sent] of sentAt) {
      for (const a of followsOf.get(sent.chat.uuid) ?? []) {
        const message = arrivals.get(`${a} new_message ${uuid}`);
        const notified = arrivals.get(`${a} notification ${uuid}`);
        if (message !== undefined) newMessage.push(message - sent.at);
        if (notified !== undefined) notification.push(notified - sent.at);
        if (message === undefined || notified === undefined) framesMissing += 1;
      }
    }
    const made = await t.deps.db
      .selectFrom('notifications')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return {
      database: settings.databaseUrl ? 'postgresql+redis' : 'embedded',
      seconds: settings.seconds,
      withoutFollowers: without.rate,
      withFollowers: following.rate,
      cpuWithout: without.cpu,
      cpuWith: following.cpu,
      ratio: following.rate / without.rate,
      offered,
      sent: sentAt.size,
      newMessageP50: percentile(newMessage, 50),
      newMessageP99: percentile(newMessage, 99),
      notificationP50: percentile(notification, 50),
      notificationP99: percentile(notification, 99),
      notificationsMade: Number(made.n),
      framesMissing,
    };
  } finally {
    for (const socket of sockets) await socket.close().catch(() => undefined);
    await workers.stop();
    await t.close();
  }
}

export function notificationsMarkdown(r: NotificationsBenchReport): string {
  const ms = (v: number) => `${v.toFixed(1)} ms`;
  const cpu = (c: MessageCpu | null) => (c ? `${c.app} / ${c.postgres ?? 'n/a'} µs` : 'n/a');
  return [
    `| Database | Contact messages/s, no followers | With 10 followers each | Ratio | new_message p50 / p99 | notification p50 / p99 | p99 ratio |`,
    '|---|---|---|---|---|---|---|',
    `| ${r.database} | ${r.withoutFollowers.toFixed(0)} | ${r.withFollowers.toFixed(0)} | ${(r.ratio * 100).toFixed(0)} % | ${ms(r.newMessageP50)} / ${ms(r.newMessageP99)} | ${ms(r.notificationP50)} / ${ms(r.notificationP99)} | ${(r.notificationP99 / r.newMessageP99).toFixed(2)}× |`,
    '',
    `CPU per contact message, its notifications made (this process: Parley and the writers / PostgreSQL): no followers ${cpu(r.cpuWithout)}, with 10 followers ${cpu(r.cpuWith)}.`,
    '',
    `${r.sent} of ${r.offered} latency messages sent; ${r.notificationsMade} notifications made; ${r.framesMissing} (follower, message) pairs missing a frame.`,
  ].join('\n');
}

if (import.meta.main) {
  const args = process.argv.slice(2);
  const seconds = Number(/--seconds=(\d+)/.exec(args.join(' '))?.[1] ?? '10');
  const report = await runNotificationsBench(
    { seconds, databaseUrl: process.env['DATABASE_URL'] ?? null, redisUrl: process.env['REDIS_URL'] ?? null },
    (m) => process.stderr.write(`${m}\n`),
  );
  process.stdout.write(
    args.includes('--json') ? `${JSON.stringify(report)}\n` : `${notificationsMarkdown(report)}\n${JSON.stringify(report)}\n`,
  );
  process.exit(0);
}
