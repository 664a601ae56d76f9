import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { recordEvent } from '../events/events.service.ts';
import { createConversation } from '../../test/factories.ts';
import { buildTestApp, dataOf, type TestApp } from '../../test/helpers.ts';
import { type Frame, listen, nextFrame, openSocket } from '../../test/sockets.ts';

const onPostgres = Boolean(process.env['DATABASE_URL']);
const priorityIs = (uuid: string, priority: string) => (f: Frame) =>
  f.type === 'conversation_update' &&
  (f.data as { uuid: string; priority?: string }).uuid === uuid &&
  (f.data as { priority?: string }).priority === priority;

describe('the relay', () => {
  let t: TestApp;
  let base: string;
  before(async () => {
    t = await buildTestApp();
    base = await listen(t.app);
  });
  after(() => t.close());

  it('a publish that fails is retried: the event is not lost', async () => {
    const socket = await openSocket(`${base}/ws`, t.admin.headers);
    const conversation = await createConversation(t);
    const bus = t.deps.bus as { publish: (channel: string, message: Record<string, unknown>) => Promise<void> };
    const real = bus.publish.bind(bus);
    let failures = 0;
    bus.publish = async (channel, message) => {
      if (channel === 'realtime.events' && failures === 0) {
        failures += 1;
        throw new Error('the bus is down for a moment');
      }
      return real(channel, message);
    };
    try {
      dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${conversation.uuid}/priority`, payload: { priority: 'High' } }));
      await nextFrame(socket, priorityIs(conversation.uuid, 'High'), 15_000);
      assert.equal(failures, 1, 'the first publish failed');
    } finally {
      bus.publish = real;
      await socket.close();
    }
  });

  it(
    'publishes a lower id that commits after a higher one (an id gap)',
    { skip: !onPostgres && 'needs two connections (PostgreSQL)' },
    async () => {
      const socket = await openSocket(`${base}/ws`, t.admin.headers);
      const slow = await createConversation(t);
      const fast = await createConversation(t);
      let release!: () => void;
      const held = new Promise<void>((r) => {
        release = r;
      });
      let recorded!: () => void;
      const slowRecorded = new Promise<void>((r) => {
        recorded = r;
      });
      const slowTransaction = t.deps.db.transaction().execute(async (trx) => {
        await recordEvent(
          trx,
          'conversation.priority_changed',
          { conversation_id: slow.id, conversation_uuid: slow.uuid, actor_id: null, previous_priority: null, priority: 'Slow' },
          t.deps.clock.now(),
        );
        recorded();
        await held;
      });
      await slowRecorded;
      await t.deps.db.transaction().execute(async (trx) => {
        await recordEvent(
          trx,
          'conversation.priority_changed',
          { conversation_id: fast.id, conversation_uuid: fast.uuid, actor_id: null, previous_priority: null, priority: 'Fast' },
          t.deps.clock.now(),
        );
      });
      const first = await nextFrame(socket, priorityIs(fast.uuid, 'Fast'));
      release();
      await slowTransaction;
      const late = await nextFrame(socket, priorityIs(slow.uuid, 'Slow'), 4000);
      assert.ok(late.event && first.event && late.event.id < first.event.id, 'the late event has the lower id');
      await socket.close();
    },
  );

  it(
    'another instance takes over when the relay instance stops',
    { skip: !process.env['REDIS_URL'] && 'needs Redis (on one bus every app shares one relay)' },
    async () => {
      const second = await t.secondInstance();
      const baseB = await listen(second.app);
      const socket = await openSocket(`${baseB}/ws`, t.admin.headers);
      const conversation = await createConversation(t);
      dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${conversation.uuid}/priority`, payload: { priority: 'Low' } }));
      await nextFrame(socket, priorityIs(conversation.uuid, 'Low'));
      // The first app leads (it started first); once it is gone, B's relay takes over and resumes at the cursor.
      await t.app.close();
      const res = await second.app.inject({
        method: 'PUT',
        url: `/api/v1/conversations/${conversation.uuid}/priority`,
        headers: t.admin.headers,
        payload: { priority: 'High' },
      });
      assert.equal(res.statusCode, 200);
      await nextFrame(socket, priorityIs(conversation.uuid, 'High'), 10_000);
      await socket.close();
      await second.close();
    },
  );
});
