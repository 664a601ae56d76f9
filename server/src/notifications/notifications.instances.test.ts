// Exactly once with several instances: two app instances on one database (PostgreSQL and Redis
// when DATABASE_URL and REDIS_URL are set), each with its own fan-out runner woken by its own
// commits, and every cause fanned out twice over (a duplicated job) so the runners race on each:
// one notification and one `notification` frame per agent and cause, on that agent's socket.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startJobRunner } from '../jobs/jobs.runner.ts';
import { createWidgetInbox, startVisitor, widgetCall } from '../../test/widget.ts';
import { buildTestApp, type Caller, dataOf, type TestApp } from '../../test/helpers.ts';
import { sleep, waitFor } from '../../test/jobs.ts';
import { type Frame, listen, openSocket, type TestSocket } from '../../test/sockets.ts';
import { FAN_OUT_JOB, fanOutNotifications, wakeFanOutOnEventCommits } from './notifications.fanout.ts';

const MESSAGES = 12;

describe('notifications with two instances', () => {
  let t: TestApp;
  let second: Awaited<ReturnType<TestApp['secondInstance']>>;
  let ana: Caller;
  let bob: Caller;
  const stops: Array<() => Promise<void> | void> = [];

  before(async () => {
    t = await buildTestApp();
    second = await t.secondInstance();
    ana = await t.makeAgent({ first_name: 'Ana' });
    bob = await t.makeAgent({ first_name: 'Bob' });
  });
  after(async () => {
    for (const stop of stops.reverse()) await stop();
    await second.close();
    await t.close();
  });

  it('each contact message makes one notification and one frame per follower, whichever runner wins', async () => {
    const chat = await createWidgetInbox(t);
    const visitor = await startVisitor(t, chat.uuid);
    const conversation = await t.deps.db
      .selectFrom('conversations')
      .select('id')
      .where('uuid', '=', visitor.conversationUuid)
      .executeTakeFirstOrThrow();
    await t.deps.db
      .insertInto('conversation_followers')
      .values([ana, bob].map((agent) => ({ conversation_id: conversation.id, agent_id: agent.id, created_at: new Date() })))
      .execute();
    const anaSocket: TestSocket = await openSocket(`${await listen(t.app)}/ws`, ana.headers);
    const bobSocket: TestSocket = await openSocket(`${await listen(second.app)}/ws`, bob.headers);
    stops.push(
      () => anaSocket.close(),
      () => bobSocket.close(),
    );
    // Runners that poll once a minute: the notifications come in time only if commits wake them.
    for (const deps of [t.deps, second.deps]) {
      const runner = startJobRunner(deps, { [FAN_OUT_JOB]: fanOutNotifications }, { pollIntervalMs: 60_000, concurrency: 4 });
      const stopWaking = wakeFanOutOnEventCommits(deps);
      stops.push(() => {
        stopWaking();
        return runner.stop();
      });
    }

    for (let i = 0; i < MESSAGES; i += 1) {
      dataOf(
        await widgetCall(t, {
          method: 'POST',
          url: `chat/conversations/${visitor.conversationUuid}/message`,
          inbox: chat.uuid,
          token: visitor.token,
          payload: { message: `Message ${i}` },
        }),
      );
      // The same cause once more, as a retried or duplicated job would bring it.
      const [job] = await t.deps.db
        .selectFrom('jobs')
        .select(['payload'])
        .where('kind', '=', FAN_OUT_JOB)
        .orderBy('id', 'desc')
        .limit(1)
        .execute();
      if (job)
        await t.deps.db
          .insertInto('jobs')
          .values({ kind: FAN_OUT_JOB, payload: JSON.stringify(job.payload) })
          .execute();
    }

    const isNotification = (frame: Frame) => frame.type === 'notification';
    for (const [agent, socket] of [
      [ana, anaSocket],
      [bob, bobSocket],
    ] as const) {
      await waitFor('the frames', () => socket.frames.filter(isNotification).length >= MESSAGES, 30_000);
      // A duplicate still on its way would arrive in this time.
      await sleep(1000);
      const frames = socket.frames.filter(isNotification).map((frame) => frame.data as { id: number; type: string });
      const rows = await t.deps.db
        .selectFrom('notifications')
        .select(['id', 'cause_event_id'])
        .where('agent_id', '=', agent.id)
        .where('type', '=', 'reply')
        .execute();
      assert.equal(rows.length, MESSAGES, `one notification per message for agent ${agent.id}`);
      assert.equal(new Set(rows.map((row) => row.cause_event_id)).size, MESSAGES);
      assert.deepEqual(
        frames.map((frame) => frame.id).sort((a, b) => a - b),
        rows.map((row) => row.id).sort((a, b) => a - b),
        'one frame per notification',
      );
    }
  });
});
