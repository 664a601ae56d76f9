// The realtime benchmark's pure parts: percentiles, loss accounting, the plan of sockets and messages.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { agentAddress, buildPlan, expectedRecipients, planMessages, type RealtimeFixtures, visitorAddress } from './realtime-plan.ts';
import {
  accountDeliveries,
  agentKey,
  percentile,
  type Sent,
  schedule,
  seededRandom,
  summarise,
  widgetKey,
  worstBySecond,
} from './realtime-stats.ts';
import { messageUuidOf } from './realtime-sockets.ts';

test('percentiles are nearest-rank over the sorted values', () => {
  const values = Array.from({ length: 100 }, (_, i) => i + 1);
  assert.equal(percentile(values, 50), 50);
  assert.equal(percentile(values, 99), 99);
  assert.equal(percentile(values, 100), 100);
  assert.equal(percentile([7], 99), 7);
  assert.ok(Number.isNaN(percentile([], 50)));
  assert.deepEqual(summarise([3, 1, 2]), { count: 3, p50: 2, p90: 3, p99: 3, max: 3 });
});

const same = () => 0;

function sent(overrides: Partial<Sent>): Sent {
  return { kind: 'reply', startedAt: 1000, uuid: 'm1', instance: 0, expectedWidgets: [], expectedAgents: [], ...overrides };
}

test('every expected frame is matched to its message; latency runs from the request start', () => {
  const arrivals = new Map([
    [
      'm1',
      new Map([
        [widgetKey(3), 1012],
        [agentKey(0), 1005],
        [agentKey(9), 1007],
      ]),
    ],
  ]);
  const account = accountDeliveries([sent({ expectedWidgets: [3], expectedAgents: [0] })], arrivals, {
    lossAfterMs: 5000,
    instanceOfWidget: same,
    instanceOfAgent: same,
  });
  assert.deepEqual(account.toWidget, [12]);
  assert.deepEqual(account.toAgents, [5]);
  assert.equal(account.expected, 2);
  assert.equal(account.lostToWidget + account.lostToAgents, 0);
  assert.equal(account.unexpected, 1, 'agent socket 9 was not expected to get it');
});

test('a frame that never came, or came after the limit, is lost; a failed request expects nothing', () => {
  const arrivals = new Map([['m1', new Map([[agentKey(1), 7000]])]]);
  const account = accountDeliveries(
    [sent({ expectedWidgets: [0], expectedAgents: [1] }), sent({ uuid: null, expectedWidgets: [5], expectedAgents: [5] })],
    arrivals,
    { lossAfterMs: 5000, instanceOfWidget: same, instanceOfAgent: same },
  );
  assert.equal(account.lostToWidget, 1);
  assert.equal(account.lostToAgents, 1);
  assert.equal(account.late, 1);
  assert.equal(account.failedRequests, 1);
  assert.equal(account.expected, 2);
  assert.deepEqual(account.toAgents, []);
  assert.equal(account.lostSamples.length, 2);
  assert.match(account.lostSamples.join('\n'), /never arrived/);
  assert.match(account.lostSamples.join('\n'), /arrived after 6000 ms/);
});

test('cross-instance latencies are those of sockets on another instance than the request', () => {
  const arrivals = new Map([
    [
      'm1',
      new Map([
        [widgetKey(0), 1010],
        [widgetKey(1), 1020],
        [agentKey(0), 1030],
        [agentKey(1), 1040],
      ]),
    ],
  ]);
  const odd = (s: number) => s % 2;
  const account = accountDeliveries([sent({ instance: 1, expectedWidgets: [0, 1], expectedAgents: [0, 1] })], arrivals, {
    lossAfterMs: 5000,
    instanceOfWidget: odd,
    instanceOfAgent: odd,
  });
  assert.deepEqual(account.crossInstance, [10, 30]);
});

const fixtures: RealtimeFixtures = {
  inboxUuid: 'inbox',
  agents: Array.from({ length: 4 }, (_, i) => ({ authorization: `token a${i}:s`, team: i % 2 })),
  conversations: Array.from({ length: 40 }, (_, i) => ({ uuid: `c${i}`, agent: i % 4, token: `t${i}` })),
};

test('the plan: agent sockets go round the agents, watch their own and their team’s conversations, and alternate instances', () => {
  const plan = buildPlan(fixtures, ['http://a', 'http://b'], { agentSockets: 12, subscriptionsPerSocket: 5, seed: 1 });
  assert.equal(plan.agentSockets.length, 12);
  assert.equal(plan.widgetSockets.length, 40);
  assert.deepEqual(
    plan.agentSockets.map((s) => s.agent),
    [0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3],
  );
  assert.deepEqual(
    plan.agentSockets.slice(0, 4).map((s) => s.instance),
    [0, 1, 0, 1],
  );
  for (const [index, socket] of plan.agentSockets.entries()) {
    assert.ok(socket.subscribe.length >= 1 && socket.subscribe.length <= 5);
    for (const c of socket.subscribe) {
      const conversation = plan.conversations[c];
      assert.ok(conversation);
      assert.equal(fixtures.agents[conversation.agent]?.team, fixtures.agents[socket.agent]?.team, 'only conversations of its team');
      assert.ok(conversation.watchers.includes(index), 'watchers are the inverse of subscriptions');
    }
  }
  for (const conversation of plan.conversations) {
    const team = fixtures.agents[conversation.agent]?.team;
    const expected = plan.agentSockets.flatMap((s, i) => (fixtures.agents[s.agent]?.team === team ? [i] : []));
    assert.deepEqual(conversation.recipients, expected, 'every socket of the team is told');
  }
  assert.deepEqual(
    buildPlan(fixtures, ['http://a', 'http://b'], { agentSockets: 12, subscriptionsPerSocket: 5, seed: 1 }),
    plan,
    'deterministic',
  );
});

test('the stream: half replies, half visitor messages, to watched conversations, alternating instances', () => {
  const plan = buildPlan(fixtures, ['http://a', 'http://b'], { agentSockets: 12, subscriptionsPerSocket: 5, seed: 1 });
  const messages = planMessages(plan, 100, 2);
  assert.equal(messages.filter((m) => m.kind === 'reply').length, 50);
  assert.equal(messages.filter((m) => m.instance === 1).length, 50);
  assert.equal(messages.filter((m) => m.kind === 'reply' && m.instance === 1).length, 25);
  for (const m of messages) {
    const expected = expectedRecipients(plan, m);
    assert.ok(expected.agents.length > 0);
    assert.deepEqual(expected.widgets, m.kind === 'reply' ? [m.conversation] : []);
  }
});

test('visitors share a client address twenty at a time; each agent has its own', () => {
  assert.equal(visitorAddress(0), '127.1.0.1');
  assert.equal(visitorAddress(19), '127.1.0.1');
  assert.equal(visitorAddress(20), '127.1.0.2');
  assert.equal(visitorAddress(20 * 250), '127.1.1.1');
  assert.equal(agentAddress(0), '127.2.0.1');
  assert.equal(agentAddress(251), '127.2.1.2');
});

test('the schedule is evenly spaced; the random source is deterministic', () => {
  assert.deepEqual(schedule(4, 1), [0, 250, 500, 750]);
  const a = seededRandom(5);
  const b = seededRandom(5);
  assert.deepEqual([a(), a(), a()], [b(), b(), b()]);
});

test('a new_message frame names its message by data.uuid or data.message.uuid', () => {
  assert.equal(messageUuidOf({ uuid: 'u1', conversation_uuid: 'c' }), 'u1');
  assert.equal(messageUuidOf({ message: { uuid: 'u2' } }), 'u2');
  assert.equal(messageUuidOf({ message: 'x' }), null);
  assert.equal(messageUuidOf(null), null);
});

test('the slowest delivery of each second of the window', () => {
  const arrivals = new Map([
    [
      'm1',
      new Map([
        [widgetKey(0), 1010],
        [agentKey(0), 1300],
      ]),
    ],
    ['m2', new Map([[agentKey(0), 2520]])],
  ]);
  const worst = worstBySecond(
    [
      sent({ uuid: 'm1', startedAt: 1000, expectedWidgets: [0], expectedAgents: [0] }),
      sent({ uuid: 'm2', startedAt: 2500, expectedAgents: [0] }),
      sent({ uuid: null, startedAt: 2600 }),
    ],
    arrivals,
    1000,
    3,
  );
  assert.deepEqual(worst.slice(0, 2), [300, 20]);
  assert.ok(Number.isNaN(worst[2]));
});
