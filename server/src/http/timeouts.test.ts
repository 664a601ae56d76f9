// The HTTP server's timeouts (docs/operations.md, "Reverse proxy"): the configured values are the
// listening server's, and a client trickling its headers (slowloris) is cut off on time.
import assert from 'node:assert/strict';
import { type AddressInfo, connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';

describe('HTTP server timeouts', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({
      env: {
        HTTP_REQUEST_TIMEOUT_SECONDS: '40',
        HTTP_HEADERS_TIMEOUT_SECONDS: '2',
        HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '7',
        HTTP_IDLE_TIMEOUT_SECONDS: '90',
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(() => t.close());

  it('applies the configured values to the server', () => {
    const server = t.app.server;
    assert.equal(server.requestTimeout, 40_000);
    assert.equal(server.headersTimeout, 2_000);
    assert.equal(server.keepAliveTimeout, 7_000);
    assert.equal(server.timeout, 90_000);
  });

  it('the defaults bound every timeout', async () => {
    const plain = await buildTestApp();
    try {
      const server = plain.app.server;
      assert.deepEqual(
        [server.requestTimeout, server.headersTimeout, server.keepAliveTimeout, server.timeout],
        [300_000, 30_000, 72_000, 120_000],
      );
    } finally {
      await plain.close();
    }
  });

  it('closes a connection whose headers never finish, soon after the headers timeout', async () => {
    const { port } = t.app.server.address() as AddressInfo;
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    const startedAt = Date.now();
    let answer = '';
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('latin1');
    });
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - startedAt)));
    socket.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    // A header now and then, never the blank line that ends them.
    const drip = setInterval(() => socket.write('X-Drip: 1\r\n'), 300);
    try {
      const tookMs = await Promise.race([closed, new Promise<number>((resolve) => setTimeout(() => resolve(-1), 10_000))]);
      assert.ok(tookMs >= 2_000 && tookMs < 6_000, `closed after ${tookMs} ms`);
      assert.match(answer, /^HTTP\/1\.1 408 /);
    } finally {
      clearInterval(drip);
      socket.destroy();
    }
  });
});
