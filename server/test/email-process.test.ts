// The IMAP reader across real server processes and a real Dovecot: a server killed with SIGKILL
// in the middle of taking in a mailbox, and another one (restarted, or already running beside
// it) that takes the inbox over when the dead one's lease runs out, within 30 s. Every mail
// becomes exactly one message: none lost, none twice. With two servers on one database, one
// reads. Runs on the embedded database (a restart) always, and on PostgreSQL (two servers)
// when DATABASE_URL is set.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { openRuntime } from '../src/setup.ts';
import { type Dovecot, dovecotEmailConfig, startDovecot, testMail } from './dovecot.ts';
import { cliScript, killHard, runScript, type Started, startServer, stopGracefully, withScratchDatabase } from './process-helpers.ts';
import { waitUntil } from './receiver.ts';

const SECRET_KEY = 'email-process-test-secret-key-0123456789';
const MAILS = 600;
const LEASE_MS = 30_000;

interface Api {
  base: string;
  headers: Record<string, string>;
}

async function setUp(env: Record<string, string>): Promise<Record<string, string>> {
  const email = 'owner@example.com';
  for (const args of [
    ['migrate', '--create'],
    ['create-admin', '--email', email, '--password', 'correct horse battery'],
  ]) {
    const ran = await runScript(cliScript, args, env);
    assert.equal(ran.code, 0, ran.stderr);
  }
  const minted = await runScript(cliScript, ['api-key', '--email', email], env);
  assert.equal(minted.code, 0, minted.stderr);
  const key = /api_key=(\w+)/.exec(minted.stdout)?.[1];
  const secret = /api_secret=(\w+)/.exec(minted.stdout)?.[1];
  return { authorization: `token ${key}:${secret}`, 'content-type': 'application/json' };
}

async function status(api: Api, inboxId: number): Promise<Record<string, unknown>> {
  const res = await fetch(`${api.base}/api/v1/inboxes/${inboxId}/email/status`, { headers: api.headers });
  assert.equal(res.status, 200, await res.clone().text());
  return ((await res.json()) as { data: Record<string, unknown> }).data;
}

/** The pid in a holder's name (host:pid:email:random). */
function pidOf(holder: unknown): number {
  return Number(String(holder).split(':').at(-3));
}

/** The bodies of the inbox's incoming messages, read from the database while no server runs. */
async function bodiesAt(env: Record<string, string>, inboxId: number): Promise<string[]> {
  const runtime = await openRuntime(loadConfig({ ...env, LOG_LEVEL: 'silent' }), pino({ level: 'silent' }), { owner: 'email test' });
  try {
    const rows = await runtime.deps.db
      .selectFrom('messages')
      .innerJoin('conversations', 'conversations.id', 'messages.conversation_id')
      .where('conversations.inbox_id', '=', inboxId)
      .where('messages.type', '=', 'incoming')
      .select('messages.text_content')
      .execute();
    return rows.map((row) => row.text_content.trim());
  } finally {
    await runtime.close();
  }
}

async function appendMails(dovecot: Dovecot): Promise<string[]> {
  const bodies: string[] = [];
  for (let i = 0; i < MAILS; i += 1) {
    const body = `Order question number ${i} of the durable mailbox.`;
    bodies.push(body);
    await dovecot.append(testMail({ subject: `Order ${i}`, body, from: `Customer ${i % 40} <c${i % 40}@customer.example>` }));
  }
  return bodies;
}

/**
 * Starts reading a full mailbox on `servers[0]`, kills whichever server holds the lease once it
 * is part-way through, and answers when the kill happened, with the servers left.
 */
async function killMidIngest(servers: Started[], api: Api, inboxId: number) {
  const progress = (await waitUntil(
    'the reader part-way through the mailbox',
    async () => {
      const s = await status(api, inboxId);
      const cursor = s['cursor'] as { last_uid: number } | null;
      return cursor && cursor.last_uid >= 30 ? s : null;
    },
    60_000,
  )) as Record<string, unknown>;
  const reached = (progress['cursor'] as { last_uid: number }).last_uid;
  assert.ok(reached < MAILS, `the mailbox was still being read (${reached} of ${MAILS})`);
  const holder = servers.find((server) => server.child.pid === pidOf(progress['holder']));
  assert.ok(holder, `the holder ${String(progress['holder'])} is one of the servers`);
  await killHard(holder);
  const killedAt = Date.now();
  return { killedAt, killed: holder, left: servers.filter((server) => server !== holder) };
}

async function expectAllOnce(env: Record<string, string>, inboxId: number, bodies: string[]): Promise<void> {
  const stored = await bodiesAt(env, inboxId);
  const counts = new Map<string, number>();
  for (const body of stored) counts.set(body, (counts.get(body) ?? 0) + 1);
  const missing = bodies.filter((body) => !counts.has(body));
  const twice = [...counts].filter(([, n]) => n > 1).map(([body]) => body);
  assert.deepEqual(missing, [], 'no mail lost');
  assert.deepEqual(twice, [], 'no mail taken in twice');
  assert.equal(stored.length, bodies.length);
}

async function createInbox(api: Api, dovecot: Dovecot): Promise<number> {
  const res = await fetch(`${api.base}/api/v1/inboxes`, {
    method: 'POST',
    headers: api.headers,
    body: JSON.stringify({
      name: 'Durable mail',
      channel: 'email',
      from: 'Support <support@example.com>',
      config: dovecotEmailConfig(dovecot),
    }),
  });
  assert.equal(res.status, 200, await res.clone().text());
  return ((await res.json()) as { data: { id: number } }).data.id;
}

/** Waits until a server other than the dead one reads the inbox again; answers how long after the kill. */
async function takenOver(api: Api, inboxId: number, killed: Started, killedAt: number): Promise<number> {
  await waitUntil(
    'another server reading the inbox',
    async () => {
      const s = await status(api, inboxId);
      return s['holder'] !== null && pidOf(s['holder']) !== killed.child.pid && ['reading', 'idle'].includes(String(s['state']));
    },
    LEASE_MS + 20_000,
  );
  return Date.now() - killedAt;
}

describe('the IMAP reader across SIGKILL', { timeout: 600_000 }, () => {
  // Each test starts Dovecot and two Parley processes and ingests a mailbox: on a loaded machine
  // that outlasts the suite's default 120 s per test, so they carry their own bound.
  it('on the embedded database: a restarted server resumes within 30 s, no mail lost or taken twice', { timeout: 300_000 }, async () => {
    const dovecot = await startDovecot();
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-email-'));
    const env = { DATA_DIR: dataDir, SECRET_KEY };
    let current: Started | null = null;
    try {
      const headers = await setUp(env);
      const bodies = await appendMails(dovecot);
      const first = await startServer(env);
      current = first;
      const inboxId = await createInbox({ base: first.base, headers }, dovecot);
      const { killedAt, killed } = await killMidIngest([first], { base: first.base, headers }, inboxId);
      current = null;

      const second = await startServer(env);
      current = second;
      const api = { base: second.base, headers };
      const after = await takenOver(api, inboxId, killed, killedAt);
      assert.ok(after <= LEASE_MS + 2000, `resumed ${after} ms after the kill`);
      await waitUntil(
        'every mail taken in',
        async () => ((await status(api, inboxId))['cursor'] as { last_uid: number }).last_uid === MAILS,
        60_000,
      );
      assert.equal(await stopGracefully(second), 0, second.output());
      current = null;
      await expectAllOnce(env, inboxId, bodies);
    } finally {
      if (current) await killHard(current);
      await dovecot.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  const databaseUrl = process.env['DATABASE_URL'];
  it(
    'on PostgreSQL: two servers, one reader; the survivor takes over within 30 s, no mail lost or taken twice',
    { skip: databaseUrl ? false : 'DATABASE_URL not set', timeout: 300_000 },
    async () => {
      const dovecot = await startDovecot();
      try {
        await withScratchDatabase(databaseUrl ?? '', async (dataDir, url) => {
          const env = { DATA_DIR: dataDir, DATABASE_URL: url, SECRET_KEY };
          const servers: Started[] = [];
          try {
            const headers = await setUp(env);
            const bodies = await appendMails(dovecot);
            servers.push(await startServer(env), await startServer(env));
            const api = { base: (servers[0] as Started).base, headers };
            const loginsBefore = (dovecot.log().match(/imap-login: Info: Login:/g) ?? []).length;
            const inboxId = await createInbox(api, dovecot);
            const { killedAt, killed, left } = await killMidIngest(servers, api, inboxId);
            // Until the kill, only the holder had logged in to read.
            assert.equal((dovecot.log().match(/imap-login: Info: Login:/g) ?? []).length - loginsBefore, 1, 'one reader');
            const survivor = left[0] as Started;
            const after = await takenOver({ base: survivor.base, headers }, inboxId, killed, killedAt);
            assert.ok(after <= LEASE_MS + 2000, `taken over ${after} ms after the kill`);
            await waitUntil(
              'every mail taken in',
              async () => ((await status({ base: survivor.base, headers }, inboxId))['cursor'] as { last_uid: number }).last_uid === MAILS,
              60_000,
            );
            assert.equal(await stopGracefully(survivor), 0, survivor.output());
            servers.length = 0;
            await expectAllOnce(env, inboxId, bodies);
          } finally {
            for (const server of servers) await killHard(server);
          }
        });
      } finally {
        await dovecot.stop();
      }
    },
  );
});
