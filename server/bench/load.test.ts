// The benchmark's load measures warm connections only: opening a connection and its first
// requests happen before the measured window, on the connections the window then uses.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Socket } from 'node:net';
import { after, test } from 'node:test';
import { runLoad, type Scenario } from './load.ts';

const FIRST_ANSWER_MS = 400;
const ANSWER_MS = 5;

interface SlowStartServer {
  baseUrl: string;
  /** Connections the server has accepted. */
  connections: () => number;
  /** From then on, the next answer closes its connection (once). */
  closeOneConnectionAt: (at: number) => void;
}

/**
 * Answers every request after ANSWER_MS with 200, except the first on each connection: after
 * FIRST_ANSWER_MS, like a cold connection on a busy machine, and with 203, so that a measured
 * first answer shows in the status codes whatever the machine's speed.
 */
async function slowStartServer(): Promise<SlowStartServer> {
  const answered = new WeakSet<Socket>();
  let accepted = 0;
  let closeAt = Number.POSITIVE_INFINITY;
  const server = createServer((request, response) => {
    const socket = request.socket;
    const first = !answered.has(socket);
    answered.add(socket);
    const close = performance.now() >= closeAt;
    if (close) closeAt = Number.POSITIVE_INFINITY;
    setTimeout(
      () => {
        response.writeHead(first ? 203 : 200, { 'content-type': 'application/json', ...(close ? { connection: 'close' } : {}) });
        response.end('{"status":"success","data":{}}');
      },
      first ? FIRST_ANSWER_MS : ANSWER_MS,
    );
  });
  server.on('connection', () => accepted++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the test server has no TCP address');
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    baseUrl: `http://127.0.0.1:${address.port}`,
    connections: () => accepted,
    closeOneConnectionAt: (at) => {
      closeAt = at;
    },
  };
}

const scenario: Scenario = { id: 'test', title: 'test', as: '—', method: 'GET', paths: ['/a', '/b'], headers: {} };

test('the measured window uses the connections opened and warmed before it, and none of their first answers', async () => {
  const target = await slowStartServer();
  const result = await runLoad(target.baseUrl, scenario, { connections: 8, warmup: 1, duration: 2 });

  assert.equal(target.connections(), 8, 'no connection is opened for the measured window');
  assert.ok(result.warmUp.firstAnswerMax >= FIRST_ANSWER_MS, `the first answers came in the warm-up (${result.warmUp.firstAnswerMax} ms)`);
  assert.ok(result.warmUp.seconds >= 1, `the warm-up lasted at least --warmup (${result.warmUp.seconds} s)`);
  assert.ok(result.p50 >= ANSWER_MS, `the answers are timed (p50 ${result.p50} ms)`);
  assert.ok(result.total > 100, `the window counts answers (${result.total})`);
  const expected = result.total / 2;
  assert.ok(Math.abs(result.requestsPerSecond - expected) < expected * 0.25, `req/s is over the 2 s window (${result.requestsPerSecond})`);
  assert.deepEqual(
    { non2xx: result.non2xx, errors: result.errors, reopened: result.reopened, codes: Object.keys(result.statusCodes) },
    { non2xx: 0, errors: 0, reopened: 0, codes: ['200'] },
  );
});

test('a connection re-opened during the window is reported, and its cold first answer is not measured', async () => {
  const target = await slowStartServer();
  // The window opens at about 1 s (the warm-up's length) and lasts 3 s; the server closes one connection in it.
  target.closeOneConnectionAt(performance.now() + 2000);
  const result = await runLoad(target.baseUrl, scenario, { connections: 4, warmup: 1, duration: 3 });

  assert.ok(target.connections() > 4, 'the closed connection was opened again');
  assert.ok(result.reopened >= 1, `reported (${result.reopened})`);
  assert.deepEqual(Object.keys(result.statusCodes), ['200'], 'no first answer (203) is measured');
  assert.ok(result.total > 100, `the window counts answers (${result.total})`);
});
