// A graceful stop with sockets open (docs/operations.md, "Stopping"): the real server process,
// an agent socket, a joined widget socket and one that never joined; SIGTERM must close every
// socket with 1001 (going away) and exit 0 well within the 15 s forced exit, even with a client
// that never answers the close and one that reconnects during the stop. On PostgreSQL and Redis
// too when DATABASE_URL and REDIS_URL are set.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { killHard, type Started, startServer } from './process-helpers.ts';
import { closeOf, nextFrame, openSocket } from './sockets.ts';

/** Well under the 15 s forced exit: the sockets' close is answered at once, nothing waits on a timer. */
const PROMPT_STOP_MS = 5_000;

/** An upgrade on a raw TCP connection that never answers anything: what it received, and its first answer. */
function rawUpgrade(port: number): { answered: Promise<string>; received: () => Buffer } {
  const chunks: Buffer[] = [];
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  const answered = new Promise<string>((resolve) => socket.once('data', (chunk: Buffer) => resolve(chunk.toString('latin1'))));
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.write(
    'GET /widget/ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
      'Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
  );
  return { answered, received: () => Buffer.concat(chunks) };
}

async function json<T>(res: Response): Promise<T> {
  assert.ok(res.ok, `${res.status} ${await res.clone().text()}`);
  return ((await res.json()) as { data: T }).data;
}

describe('stopping the server with sockets open', { timeout: 180_000 }, () => {
  it('closes agent and widget sockets with 1001 and exits promptly', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-stop-'));
    let server: Started | null = null;
    try {
      server = await startServer({
        DATA_DIR: dataDir,
        SECRET_KEY: 'process-test-secret-key-0123456789abcdef',
        BASE_URL: 'http://localhost:9000',
        ADMIN_EMAIL: 'owner@example.com',
        ADMIN_PASSWORD: 'correct horse battery',
        ...(process.env['DATABASE_URL'] ? { DATABASE_URL: process.env['DATABASE_URL'] } : {}),
        ...(process.env['REDIS_URL'] ? { REDIS_URL: process.env['REDIS_URL'] } : {}),
      });
      const base = server.base;
      const login = await fetch(`${base}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'owner@example.com', password: 'correct horse battery' }),
      });
      const admin = await json<{ id: number }>(login.clone());
      const jar = Object.fromEntries(login.headers.getSetCookie().map((line) => line.split(';')[0]!.split('=') as [string, string]));
      const pair = await json<{ api_key: string; api_secret: string }>(
        await fetch(`${base}/api/v1/agents/${admin.id}/api-key`, {
          method: 'POST',
          headers: {
            cookie: `parley_session=${jar['parley_session']}; csrf_token=${jar['csrf_token']}`,
            'x-csrf-token': jar['csrf_token']!,
          },
        }),
      );
      const authorization = `token ${pair.api_key}:${pair.api_secret}`;
      const inbox = await json<{ uuid: string }>(
        await fetch(`${base}/api/v1/inboxes`, {
          method: 'POST',
          headers: { authorization, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Chat', channel: 'livechat', config: {} }),
        }),
      );
      const visitor = await json<{ session_token: string }>(
        await fetch(`${base}/api/v1/widget/chat/conversations/init`, {
          method: 'POST',
          headers: { 'x-service-inbox-id': inbox.uuid, 'content-type': 'application/json' },
          body: JSON.stringify({ message: 'Hello' }),
        }),
      );

      const ws = base.replace('http://', 'ws://');
      const agent = await openSocket(`${ws}/ws`, { authorization });
      agent.send({ type: 'ping' });
      assert.equal((await nextFrame(agent, (f) => f.type === 'pong')).type, 'pong');
      const widget = await openSocket(`${ws}/widget/ws`);
      widget.send({ type: 'join', token: visitor.session_token, data: { inbox_id: inbox.uuid } });
      assert.equal((await nextFrame(widget, (f) => f.type === 'joined' || f.type === 'error')).type, 'joined');
      const unjoined = await openSocket(`${ws}/widget/ws`);

      // A client that took the upgrade but never answers a close (a frozen tab), so the stop waits on it a while.
      const port = Number(new URL(base).port);
      const silent = rawUpgrade(port);
      await silent.answered;
      const startedAt = Date.now();
      const exited = new Promise<number | null>((resolve) => server!.child.once('exit', (code) => resolve(code)));
      server.child.kill('SIGTERM');
      const closes = await Promise.all([agent, widget, unjoined].map((socket) => closeOf(socket, PROMPT_STOP_MS)));
      for (const close of closes) assert.deepEqual(close, { code: 1001, reason: 'server shutting down' });
      // A client reconnecting at once (as the web app and the widget do) while the stop waits on the silent one.
      const reconnect = rawUpgrade(port);
      assert.match(await reconnect.answered, /^HTTP\/1\.1 503 /);
      const code = await exited;
      const tookMs = Date.now() - startedAt;
      assert.equal(code, 0, server.output());
      assert.ok(tookMs < PROMPT_STOP_MS, `stopped in ${tookMs} ms:\n${server.output()}`);
      // The silent client was sent the close too (a close frame, 0x88, with code 1001) before being cut off.
      assert.ok(silent.received().includes(Buffer.from([0x03, 0xe9])), 'the silent client got no 1001 close frame');
      assert.ok(!server.output().includes('"level":50'), server.output());
      server = null;
    } finally {
      if (server) await killHard(server);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
