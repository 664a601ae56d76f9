// The guarded webhook request: which addresses are refused (by IP and after DNS), what an
// answer gives back (status, bounded snippet), and how a timeout or a dead port fail.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import {
  AddressRefusedError,
  createWebhookAgents,
  isBlockedAddress,
  SendError,
  sendWebhookRequest,
  SNIPPET_BYTES,
  webhookAddressPolicy,
} from './webhooks.send.ts';

describe('the address guard', () => {
  const blocked = [
    '127.0.0.1',
    '127.255.255.254',
    '0.0.0.0',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.100.100.200',
    '192.0.0.1',
    '198.18.0.1',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fe80::1',
    'fc00::1',
    'fd00:ec2::254',
    'ff02::1',
    '2001:db8::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::10.0.0.1',
    '64:ff9b::a00:1',
    '0:0:0:0:0:ffff:7f00:1',
    '::FFFF:127.0.0.1',
    '::7f00:1',
    '::127.0.0.1',
    '::a9fe:a9fe',
    '::ffff:0:7f00:1',
    '::ffff:0:808:808',
    '64:ff9b:1::808:808',
    '64:ff9b:0:0:0:0:a00:1',
    'fe80::1%eth0',
    'not-an-address',
    '',
  ];
  const open = [
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '0:0:0:0:0:ffff:808:808',
  ];
  for (const address of blocked) {
    test(`refuses ${address || '(empty)'} by default`, () => assert.equal(isBlockedAddress(address), true));
  }
  for (const address of open) {
    test(`lets ${address} through`, () => assert.equal(isBlockedAddress(address), false));
  }

  test('WEBHOOK_ALLOW_HOSTS opens host names, addresses and CIDR blocks, nothing else', () => {
    const policy = webhookAddressPolicy(['hooks.internal', '10.0.0.5', '192.168.0.0/16', '[fd00::1]', 'fd12::/16', '::1']);
    assert.equal(policy.isAllowed('10.9.9.9', 'hooks.internal'), true, 'a listed name: any address');
    assert.equal(policy.isAllowed('10.9.9.9', 'HOOKS.internal.'), true, 'names compare without case and trailing dot');
    assert.equal(policy.isAllowed('10.9.9.9', 'other.internal'), false);
    assert.equal(policy.isAllowed('10.0.0.5'), true);
    assert.equal(policy.isAllowed('::ffff:10.0.0.5'), true, 'the mapped form of an allowed IPv4');
    assert.equal(policy.isAllowed('10.0.0.6'), false);
    assert.equal(policy.isAllowed('192.168.44.1'), true);
    assert.equal(policy.isAllowed('fd00::1'), true);
    assert.equal(policy.isAllowed('fd12:1::1'), true);
    assert.equal(policy.isAllowed('fd13::1'), false);
    assert.equal(policy.isAllowed('::1'), true);
    assert.equal(policy.isAllowed('127.0.0.1'), false, '::1 does not open 127.0.0.1');
    assert.equal(policy.isAllowed('8.8.8.8'), true, 'public addresses need no entry');
    assert.equal(webhookAddressPolicy([]).isAllowed('127.0.0.1', 'localhost'), false);
  });
});

describe('sending a request', () => {
  let server: Server;
  let port = 0;
  const received: Array<{ url: string; headers: IncomingMessage['headers']; body: string }> = [];
  const open = new Set<ServerResponse>();

  before(async () => {
    server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ url: request.url ?? '', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        const path = request.url ?? '/';
        if (path === '/ok') response.writeHead(204).end();
        else if (path === '/long') response.writeHead(500, { 'content-type': 'text/plain' }).end(`é${'x'.repeat(SNIPPET_BYTES * 4)}`);
        else if (path === '/huge') {
          response.writeHead(200);
          const chunk = Buffer.alloc(64 * 1024, 'a');
          for (let i = 0; i < 64; i += 1) response.write(chunk);
          response.end();
        } else if (path === '/nul') response.writeHead(400).end('bad\u0000request');
        else if (path === '/redirect') response.writeHead(302, { location: '/ok' }).end();
        else if (path === '/hang') open.add(response);
        else response.writeHead(404).end('not here');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(async () => {
    for (const response of open) response.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const loopback = webhookAddressPolicy(['127.0.0.1', 'localhost']);
  const send = (path: string, options: { policy?: ReturnType<typeof webhookAddressPolicy>; timeoutMs?: number; host?: string } = {}) => {
    const policy = options.policy ?? loopback;
    const agents = createWebhookAgents(policy);
    return sendWebhookRequest({
      url: `http://${options.host ?? '127.0.0.1'}:${port}${path}`,
      headers: { 'content-type': 'application/json', 'x-extra': 'yes' },
      body: '{"type":"webhook.test"}',
      timeoutMs: options.timeoutMs ?? 5000,
      agents,
      policy,
    }).finally(() => agents.close());
  };

  test('an allowed address gets the body and headers; the answer comes back', async () => {
    const before = received.length;
    const result = await send('/ok');
    assert.equal(result.statusCode, 204);
    assert.equal(result.snippet, '');
    assert.ok(result.latencyMs >= 0 && result.latencyMs < 5000);
    const request = received[before];
    assert.equal(request?.body, '{"type":"webhook.test"}');
    assert.equal(request?.headers['x-extra'], 'yes');
    assert.equal(request?.headers['content-length'], '23');
  });

  test('a loopback IP is refused before connecting, unless allowed', async () => {
    const before = received.length;
    await assert.rejects(send('/ok', { policy: webhookAddressPolicy([]) }), AddressRefusedError);
    assert.equal(received.length, before, 'the receiver got nothing');
  });

  test('a name that resolves to loopback is refused after DNS, unless allowed', async () => {
    const before = received.length;
    await assert.rejects(send('/ok', { policy: webhookAddressPolicy([]), host: 'localhost' }), (error: unknown) => {
      assert.ok(error instanceof AddressRefusedError, String(error));
      assert.match(error.message, /localhost resolves to .*(127\.0\.0\.1|::1)/);
      return true;
    });
    assert.equal(received.length, before, 'the receiver got nothing');
    assert.equal((await send('/ok', { host: 'localhost', policy: webhookAddressPolicy(['localhost']) })).statusCode, 204);
  });

  test('the snippet is at most 2 KB of text, cut safely, NUL removed', async () => {
    const long = await send('/long');
    assert.equal(long.statusCode, 500);
    assert.ok(Buffer.byteLength(long.snippet) <= SNIPPET_BYTES + 3, `${Buffer.byteLength(long.snippet)} bytes`);
    assert.ok(long.snippet.startsWith('éxxx'));
    const nul = await send('/nul');
    assert.equal(nul.statusCode, 400);
    assert.equal(nul.snippet, 'badrequest');
  });

  test('a large answer is not read to its end', async () => {
    const result = await send('/huge');
    assert.equal(result.statusCode, 200);
    assert.equal(result.snippet, 'a'.repeat(SNIPPET_BYTES));
  });

  test('redirects are not followed', async () => {
    const before = received.length;
    const result = await send('/redirect');
    assert.equal(result.statusCode, 302);
    assert.equal(received.length, before + 1, 'only the first request was made');
  });

  test('no answer within the timeout is a timeout', async () => {
    const started = Date.now();
    await assert.rejects(send('/hang', { timeoutMs: 300 }), (error: unknown) => {
      assert.ok(error instanceof SendError);
      assert.equal(error.kind, 'timeout');
      assert.ok(error.latencyMs >= 250, String(error.latencyMs));
      return true;
    });
    assert.ok(Date.now() - started < 3000);
  });

  test('a closed port is a network failure naming the cause', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const agents = createWebhookAgents(loopback);
    try {
      await assert.rejects(
        sendWebhookRequest({ url: `http://127.0.0.1:${closedPort}/`, headers: {}, body: '{}', timeoutMs: 2000, agents, policy: loopback }),
        (error: unknown) => {
          assert.ok(error instanceof SendError);
          assert.equal(error.kind, 'network');
          assert.match(error.message, /ECONNREFUSED/);
          return true;
        },
      );
    } finally {
      agents.close();
    }
  });

  test('a scheme other than http(s) is refused', async () => {
    const agents = createWebhookAgents(loopback);
    try {
      await assert.rejects(
        sendWebhookRequest({ url: 'ftp://127.0.0.1/', headers: {}, body: '{}', timeoutMs: 1000, agents, policy: loopback }),
        SendError,
      );
    } finally {
      agents.close();
    }
  });
});
