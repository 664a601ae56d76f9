// The realtime benchmark's harness at a tiny size against the real app (the test database, its
// event relay and sockets): 5 agent sockets, 10 widget sockets, 2 s of messages. It proves the
// seeding, the joins and subscriptions, the message stream and the frame accounting work; the
// figures themselves come from `npm run bench`.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { buildTestApp, registeredRoutes, type TestApp } from '../test/helpers.ts';
import { runRealtimeLoad } from './realtime-client.ts';
import { RAISED_LIMITS } from './realtime.ts';
import { buildPlan } from './realtime-plan.ts';
import { seedRealtime } from './realtime-seed.ts';

let t: TestApp;
let baseUrl = '';
let missing: string | null = null;

before(async () => {
  t = await buildTestApp({ env: RAISED_LIMITS });
  const routes = registeredRoutes(t.app);
  const needed = [
    ['GET', '/ws'],
    ['GET', '/widget/ws'],
    ['POST', '/api/v1/widget/chat/conversations/:uuid/message'],
  ];
  const absent = needed.filter(([method, path]) => !routes.some((r) => r.method === method && r.path === path));
  if (absent.length > 0) {
    missing = absent.map(([method, path]) => `${method} ${path}`).join(', ');
    return;
  }
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});

after(async () => {
  await t?.close();
});

test('the realtime harness: every socket opens and joins, every message is answered, no expected frame is lost', async (context) => {
  if (missing) {
    context.skip(`the realtime routes are not registered yet (${missing}): nothing to measure`);
    return;
  }
  const fixtures = await seedRealtime(t.deps, { agents: 1, visitors: 10, agentsPerTeam: 1 }, () => {});
  const plan = buildPlan(fixtures, [baseUrl], { agentSockets: 5, subscriptionsPerSocket: 3, seed: 1 });
  const result = await runRealtimeLoad(
    { plan, rate: 10, warmupSeconds: 1, durationSeconds: 2, lossAfterMs: 5000, connectConcurrency: 5, seed: 2 },
    () => {},
  );
  assert.equal(result.sockets.failed, 0, `sockets failed: ${result.sockets.failureSamples.join('; ')}`);
  assert.equal(result.warm.answered, 15, 'every socket answered a ping before the window');
  assert.equal(result.sent, 20);
  assert.deepEqual(result.statuses, { '200': 20 }, result.httpSample ?? '');
  // 10 replies reach their visitor's widget; all 20 messages reach the 5 sockets of the one team.
  assert.equal(result.expected, 10 + 20 * 5);
  assert.equal(result.lostToWidget + result.lostToAgents, 0, result.lostSamples.join('; '));
  assert.equal(result.toWidget.count, 10);
  assert.equal(result.toAgents.count, 100);
  assert.ok(result.toWidget.p50 > 0 && result.toAgents.p50 > 0, 'latencies are measured');
  assert.ok(result.framesPerSecond > 0);
  assert.equal(result.closedDuringRun, 0, result.closeSamples.join('; '));
});
