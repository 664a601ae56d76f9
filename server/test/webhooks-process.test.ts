// Webhook deliveries survive SIGKILL: the real server process delivers to a receiver on
// loopback, is killed with deliveries pending and in flight, and is started again on the same
// data. Every delivery arrives; none that had been recorded succeeded is sent again. Runs on
// the embedded database always, and on PostgreSQL when DATABASE_URL is set.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import pino from 'pino';
import { loadConfig } from '../src/config.ts';
import { openRuntime } from '../src/setup.ts';
import { cliScript, killHard, runScript, type Started, startServer, stopGracefully, withScratchDatabase } from './process-helpers.ts';
import { newWebhookSecret, startReceiver, waitUntil } from './receiver.ts';

const SECRET_KEY = 'webhooks-process-test-secret-key-0123456789';

/** The deliveries' statuses, read from the database while no server runs. */
async function statusesAt(env: Record<string, string>): Promise<Map<string, string>> {
  const config = loadConfig({ ...env, LOG_LEVEL: 'silent' });
  const runtime = await openRuntime(config, pino({ level: 'silent' }), { owner: 'cli test' });
  try {
    const rows = await runtime.deps.db.selectFrom('webhook_deliveries').select(['uuid', 'status']).execute();
    return new Map(rows.map((row) => [`msg_${row.uuid}`, row.status]));
  } finally {
    await runtime.close();
  }
}

async function scenario(base: Record<string, string>): Promise<void> {
  const receiver = await startReceiver();
  // Slow enough that a kill finds requests in flight.
  receiver.answer({ delayMs: 150 });
  const env = { ...base, SECRET_KEY, WEBHOOK_ALLOW_HOSTS: '127.0.0.1', WEBHOOK_TIMEOUT_SECONDS: '2' };
  const email = 'owner@example.com';
  let current: Started | null = null;
  try {
    const migrated = await runScript(cliScript, ['migrate', '--create'], env);
    assert.equal(migrated.code, 0, migrated.stderr);
    const created = await runScript(cliScript, ['create-admin', '--email', email, '--password', 'correct horse battery'], env);
    assert.equal(created.code, 0, created.stderr);
    const minted = await runScript(cliScript, ['api-key', '--email', email], env);
    assert.equal(minted.code, 0, minted.stderr);
    const key = /api_key=(\w+)/.exec(minted.stdout)?.[1];
    const secret = /api_secret=(\w+)/.exec(minted.stdout)?.[1];
    const headers = { authorization: `token ${key}:${secret}`, 'content-type': 'application/json' };

    const first = await startServer(env);
    current = first;
    const webhook = await fetch(`${first.base}/api/v1/webhooks`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ name: 'Durable', url: receiver.url, events: ['contact.created'], secret: newWebhookSecret() }),
    });
    assert.equal(webhook.status, 200, await webhook.clone().text());

    const count = 40;
    const answers = await Promise.all(
      Array.from({ length: count }, (_, i) =>
        fetch(`${first.base}/api/v1/contacts`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ first_name: `Durable ${i}`, email: `durable-${i}@example.com` }),
        }),
      ),
    );
    assert.deepEqual(
      answers.map((a) => a.status),
      Array(count).fill(200),
    );
    // Some were delivered, some are in flight, the rest are waiting: kill it now.
    await receiver.waitFor(6, 30_000);
    await killHard(first);
    current = null;
    const atKill = await statusesAt(env);
    assert.equal(atKill.size, count, 'every acknowledged event has its delivery');
    const succeeded = [...atKill].filter(([, status]) => status === 'succeeded').map(([id]) => id);
    assert.ok(succeeded.length < count, `some deliveries were still to do (${succeeded.length} of ${count} done)`);

    receiver.answer({});
    const receivedBefore = receiver.requests.length;
    const second = await startServer(env);
    current = second;
    // Every delivery not recorded succeeded is sent again by the new process (those the killed
    // one held once their leases expire: the request timeout plus a margin, 7 s here).
    const unfinished = [...atKill.keys()].filter((id) => atKill.get(id) !== 'succeeded');
    await waitUntil(
      'every unfinished delivery sent again',
      () => {
        const sent = new Set(receiver.requests.slice(receivedBefore).map((r) => String(r.headers['webhook-id'])));
        return unfinished.every((id) => sent.has(id));
      },
      60_000,
    );
    // Its answer recorded too (the graceful stop below waits for outcomes being written).
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal(await stopGracefully(second), 0, second.output());
    current = null;

    const times = new Map<string, number>();
    for (const request of receiver.requests) {
      const id = String(request.headers['webhook-id']);
      times.set(id, (times.get(id) ?? 0) + 1);
    }
    assert.deepEqual([...times.keys()].sort(), [...atKill.keys()].sort());
    for (const id of succeeded) assert.equal(times.get(id), 1, `${id} had succeeded: never sent again`);
    const after = await statusesAt(env);
    assert.ok([...after.values()].every((status) => status === 'succeeded'));
  } finally {
    if (current) await killHard(current);
    await receiver.close();
  }
}

describe('webhook deliveries across SIGKILL', { timeout: 180_000 }, () => {
  it('on the embedded database', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-hooks-'));
    try {
      await scenario({ DATA_DIR: dataDir });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  const databaseUrl = process.env['DATABASE_URL'];
  it('on PostgreSQL', { skip: databaseUrl ? false : 'DATABASE_URL not set' }, async () => {
    await withScratchDatabase(databaseUrl ?? '', (dataDir, url) => scenario({ DATA_DIR: dataDir, DATABASE_URL: url }));
  });
});
