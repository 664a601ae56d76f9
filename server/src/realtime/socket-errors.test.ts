// A client's protocol errors on a socket (docs/api.md, "Realtime"): a burst of frames over
// 64 KiB and of text that is not UTF-8, on agent and widget sockets. Every client sees the close
// code that says why (1009, 1007), never 1006; nothing is logged at error level (debug only);
// /metrics counts them.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../app.ts';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';
import { closeOf, listen, openSocket, type TestSocket } from '../../test/sockets.ts';
import { clientErrorReason } from './socket-errors.ts';

const TOKEN = 'metrics-token-0123456789';
/** Sockets per kind of error, opened and broken together. */
const BURST = 25;

function sample(body: string, name: string, labels: Record<string, string>): number {
  for (const line of body.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    if (Object.entries(labels).every(([key, value]) => line.includes(`${key}="${value}"`))) {
      return Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return 0;
}

describe('socket client errors', () => {
  let t: TestApp;
  let app: FastifyInstance;
  let base: string;
  const lines: Array<{ level: number; msg: string; reason?: string }> = [];
  const open: TestSocket[] = [];
  before(async () => {
    t = await buildTestApp({ env: { METRICS_TOKEN: TOKEN } });
    const log = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
    app = await buildApp({ ...t.deps, log });
    base = await listen(app);
  });
  after(async () => {
    for (const socket of open) await socket.close();
    await app.close();
    await t.close();
  });
  const scrape = async () => {
    const res = await app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(res.statusCode, 200);
    return res.body;
  };

  it('closes each socket with 1009 or 1007, logs at debug level only and counts them', async () => {
    const before = await scrape();
    const agents = await Promise.all(Array.from({ length: BURST }, () => openSocket(`${base}/ws`, t.admin.headers)));
    const widgets = await Promise.all(Array.from({ length: BURST }, () => openSocket(`${base}/widget/ws`)));
    open.push(...agents, ...widgets);
    const tooBig = JSON.stringify({ type: 'ping', data: { pad: 'x'.repeat(70 * 1024) } });
    const notUtf8 = Buffer.from([0x7b, 0x22, 0xff, 0xfe, 0x22, 0x7d]);
    // As a fuzzer does: the bad frame, then more frames right behind it.
    const breakWith = (socket: TestSocket, bad: 'big' | 'utf8') => {
      for (let i = 0; i < 5; i++) {
        if (bad === 'big') socket.send(tooBig);
        else socket.ws.send(notUtf8, { binary: false });
      }
    };
    for (const [i, socket] of agents.entries()) breakWith(socket, i % 2 === 0 ? 'big' : 'utf8');
    for (const [i, socket] of widgets.entries()) breakWith(socket, i % 2 === 0 ? 'utf8' : 'big');
    const closes = await Promise.all([...agents, ...widgets].map((socket) => closeOf(socket)));
    const expected = [...agents.map((_, i) => (i % 2 === 0 ? 1009 : 1007)), ...widgets.map((_, i) => (i % 2 === 0 ? 1007 : 1009))];
    assert.deepEqual(
      closes.map((close) => close.code),
      expected,
    );

    const loud = lines.filter((line) => line.level >= 40);
    assert.deepEqual(loud, [], 'nothing at warn or error level');
    assert.equal(lines.filter((line) => line.level === 20 && line.msg === 'socket closed on a client error').length, BURST * 2);

    const after = await scrape();
    const grew = (kind: string, reason: string) =>
      sample(after, 'parley_websocket_client_errors_total', { kind, reason }) -
      sample(before, 'parley_websocket_client_errors_total', { kind, reason });
    assert.equal(grew('agent', 'too_large'), Math.ceil(BURST / 2));
    assert.equal(grew('agent', 'invalid_utf8'), Math.floor(BURST / 2));
    assert.equal(grew('widget', 'invalid_utf8'), Math.ceil(BURST / 2));
    assert.equal(grew('widget', 'too_large'), Math.floor(BURST / 2));
  });

  it('tells client errors from its own', () => {
    const coded = (code: string) => Object.assign(new Error(code), { code });
    assert.equal(clientErrorReason(coded('WS_ERR_UNSUPPORTED_MESSAGE_LENGTH')), 'too_large');
    assert.equal(clientErrorReason(coded('WS_ERR_INVALID_UTF8')), 'invalid_utf8');
    assert.equal(clientErrorReason(coded('WS_ERR_INVALID_OPCODE')), 'protocol');
    assert.equal(clientErrorReason(coded('ECONNRESET')), 'connection');
    assert.equal(clientErrorReason(new Error('a bug of ours')), null);
    assert.equal(clientErrorReason(coded('ERR_SOMETHING_ELSE')), null);
  });
});
