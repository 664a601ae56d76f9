// "Test connection" against private addresses (docs/email.md, "Testing the settings"): a closed
// port, one that resets the connection and one that never speaks, on loopback, for IMAP and SMTP.
// All three get the same answer, at the same time (the test's deadline): the test cannot tell
// the server's network apart. A mail server that answers is still named (the other test file).
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { agentWith, createInbox } from '../../test/factories.ts';
import { buildTestApp, dataOf, type TestApp } from '../../test/helpers.ts';
import { freePort } from '../../test/process-helpers.ts';
import { isPrivateTarget } from './email.test-connection.ts';

type Check = { ok: boolean; message: string; duration_ms: number };
type Result = { imap?: Check; smtp?: Check };

const SECONDS = 2;

async function serve(onConnection: (socket: Socket) => void): Promise<{ server: Server; port: number; sockets: Set<Socket> }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address && typeof address === 'object');
  return { server, port: address.port, sockets };
}

describe('testing mail settings that point at a private address', { timeout: 120_000 }, () => {
  let t: TestApp;
  const ports: Record<string, number> = {};
  const servers: Array<Awaited<ReturnType<typeof serve>>> = [];
  before(async () => {
    t = await buildTestApp({ env: { EMAIL_TIMEOUT_SECONDS: String(SECONDS) } });
    ports['refused'] = await freePort();
    const reset = await serve((socket) => socket.resetAndDestroy());
    const silent = await serve(() => {});
    servers.push(reset, silent);
    ports['reset'] = reset.port;
    ports['silent'] = silent.port;
  });
  after(async () => {
    for (const { server, sockets } of servers) {
      for (const socket of sockets) socket.destroy();
      server.close();
    }
    await t?.close();
  });

  const settings = (port: number) => ({
    imap: { host: '127.0.0.1', port, username: 'support@example.com', password: 'imap-password', tls: 'none', mailbox: 'INBOX' },
    smtp: { host: '127.0.0.1', port, username: 'support@example.com', password: 'smtp-password', tls: 'none' },
  });

  it('answers a refused, a reset and a silent port alike, at the deadline', async () => {
    const inbox = await createInbox(t, { channel: 'email' });
    const results: Record<string, Result> = {};
    await Promise.all(
      Object.entries(ports).map(async ([name, port]) => {
        const admin = await agentWith(t, ['inboxes:manage']);
        const started = Date.now();
        const result = dataOf<Result>(
          await t.call({ method: 'POST', url: `/api/v1/inboxes/${inbox.id}/email/test`, payload: settings(port), as: admin }),
        );
        const tookMs = Date.now() - started;
        assert.ok(tookMs >= SECONDS * 1000 - 50, `${name}: answered after ${tookMs} ms`);
        results[name] = result;
      }),
    );
    for (const protocol of ['imap', 'smtp'] as const) {
      const answers = Object.entries(results).map(([name, result]) => {
        const check = result[protocol];
        assert.ok(check, `${name} ${protocol}`);
        assert.equal(check.ok, false);
        return { name, message: check.message.replace(`:${ports[name]}`, ':PORT'), duration_ms: check.duration_ms };
      });
      const name = protocol.toUpperCase();
      for (const answer of answers) {
        assert.equal(
          answer.message,
          `Could not reach an ${name} server at 127.0.0.1:PORT (a private address: the reason is in the server's log)`,
          answer.name,
        );
      }
      const durations = answers.map((answer) => answer.duration_ms);
      assert.ok(Math.min(...durations) >= SECONDS * 1000 - 50, JSON.stringify(answers));
      assert.ok(Math.max(...durations) - Math.min(...durations) < 500, `durations apart: ${JSON.stringify(answers)}`);
    }
  });

  it('tells private and local hosts from public ones', async () => {
    for (const host of ['127.0.0.1', '10.1.2.3', '192.168.0.10', '169.254.169.254', '[::1]', 'fd00::1', 'localhost']) {
      assert.equal(await isPrivateTarget(host), true, host);
    }
    for (const host of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']) assert.equal(await isPrivateTarget(host), false, host);
  });
});
