// Web Push through the public surface: the VAPID key, the subscriptions API and its unhappy
// paths, and delivery to a loopback push service that checks VAPID and decrypts each push as a
// browser would (server/test/push-service.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createConversation } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, fakeClock, runDueJobs, type TestApp } from '../../test/helpers.ts';
import { type PushService, startPushService, type Subscriber } from '../../test/push-service.ts';
import { isEncrypted } from '../security/encryption.ts';
import { enqueueJob } from '../jobs/jobs.service.ts';
import { PUSH_NOTIFICATION_JOB } from '../notifications/notifications.schema.ts';
import { PUSH_RETRY_JOB } from './push.delivery.ts';
import { PUSH_SUBSCRIPTIONS_MAX } from './push.schema.ts';
import { asSession, signIn } from '../../test/sessions.ts';

const SUBSCRIPTIONS = '/api/v1/agents/me/push-subscriptions';
type Listed = { id: number; endpoint_host: string; endpoint_sha256: string; last_success_at: string | null; device: unknown };

function body(subscriber: Subscriber) {
  return { endpoint: subscriber.endpoint, keys: subscriber.keys, expirationTime: null };
}

describe('Web Push', () => {
  // Ahead of the database's clock: the job queue takes the later of both (jobs.queries.ts).
  const clock = fakeClock(new Date(Date.now() + 24 * 3600 * 1000));
  let t: TestApp;
  let service: PushService;
  let agent: Caller;
  let other: Caller;

  before(async () => {
    service = await startPushService();
    t = await buildTestApp({ clock, env: { PUSH_ALLOW_HOSTS: '127.0.0.1', MAIL_FROM: 'Parley <parley@example.com>' } });
    agent = await t.makeAgent();
    other = await t.makeAgent();
  });
  after(async () => {
    await t.close();
    await service.close();
  });

  async function subscribe(as: Caller, subscriber: Subscriber): Promise<Listed> {
    return dataOf<Listed>(await t.call({ method: 'POST', url: SUBSCRIPTIONS, payload: body(subscriber), as }));
  }

  /** A notification of `as`, push wanted for its type, and its push.notify job. */
  async function notify(as: Caller, title: string, excerpt = 'The printer is on fire') {
    const conversation = await createConversation(t);
    const { id: conversationId } = await t.deps.db
      .selectFrom('conversations')
      .select('id')
      .where('uuid', '=', conversation.uuid)
      .executeTakeFirstOrThrow();
    await t.deps.db
      .insertInto('notification_settings')
      .values({ agent_id: as.id, types: JSON.stringify({ assigned: { push: true } }), updated_at: clock.now() })
      .onConflict((oc) => oc.column('agent_id').doNothing())
      .execute();
    const { id } = await t.deps.db
      .insertInto('notifications')
      .values({
        agent_id: as.id,
        type: 'assigned',
        cause_event_id: Math.floor(Math.random() * 1e9),
        conversation_id: conversationId,
        title,
        excerpt,
        created_at: clock.now(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await enqueueJob(t.deps, t.deps.db, { kind: PUSH_NOTIFICATION_JOB, payload: { notification_id: Number(id) } });
    return { id: Number(id), uuid: conversation.uuid };
  }

  test('the VAPID key pair is made once, the same for every instance, its private key stored encrypted', async () => {
    const second = await t.secondInstance();
    try {
      const answers = await Promise.all([
        t.app.inject({ method: 'GET', url: '/api/v1/push/vapid-public-key', headers: agent.headers }),
        second.app.inject({ method: 'GET', url: '/api/v1/push/vapid-public-key', headers: other.headers }),
        t.app.inject({ method: 'GET', url: '/api/v1/push/vapid-public-key', headers: other.headers }),
      ]);
      const keys = answers.map((res) => (JSON.parse(res.body) as { data: { public_key: string } }).data.public_key);
      assert.equal(new Set(keys).size, 1, 'one key for all');
      const raw = Buffer.from(keys[0] ?? '', 'base64url');
      assert.equal(raw.length, 65);
      assert.equal(raw[0], 4, 'an uncompressed P-256 point');
      const rows = await t.deps.db.selectFrom('push_vapid_keys').selectAll().execute();
      assert.equal(rows.length, 1);
      assert.equal(rows[0]?.public_key, keys[0]);
      assert.ok(isEncrypted(rows[0]?.private_key), 'the private key is stored encrypted');
      const again = dataOf<{ public_key: string }>(await t.call({ method: 'GET', url: '/api/v1/push/vapid-public-key', as: agent }));
      assert.equal(again.public_key, keys[0], 'stable');
    } finally {
      await second.close();
    }
  });

  test('the VAPID key and subscriptions need credentials', async () => {
    assertError(await t.call({ method: 'GET', url: '/api/v1/push/vapid-public-key', as: null }), 401, 'UnauthorizedException');
    assertError(await t.call({ method: 'GET', url: SUBSCRIPTIONS, as: null }), 401, 'UnauthorizedException');
    assertError(
      await t.call({ method: 'POST', url: SUBSCRIPTIONS, as: null, payload: body(service.subscriber()) }),
      401,
      'UnauthorizedException',
    );
    assertError(await t.call({ method: 'DELETE', url: `${SUBSCRIPTIONS}/1`, as: null }), 401, 'UnauthorizedException');
    assertError(
      await t.call({ method: 'GET', url: SUBSCRIPTIONS, as: null, headers: { authorization: 'Basic d3Jvbmc6d3Jvbmc=' } }),
      401,
      'UnauthorizedException',
    );
  });

  test('a subscription is recorded, listed without its endpoint or keys, updated when sent again, removed', async () => {
    const subscriber = service.subscriber();
    const created = await subscribe(agent, subscriber);
    assert.equal(created.endpoint_host, new URL(service.origin).host);
    assert.equal(created.endpoint_sha256.length, 64);
    const listed = dataOf<Listed[]>(await t.call({ method: 'GET', url: SUBSCRIPTIONS, as: agent }));
    assert.deepEqual(
      listed.map((s) => s.id),
      [created.id],
    );
    const text = JSON.stringify(listed);
    assert.ok(!text.includes(subscriber.endpoint) && !text.includes(subscriber.keys.auth) && !text.includes(subscriber.keys.p256dh));

    // The same endpoint with new keys: the same subscription, new keys.
    const renewed = service.subscriber();
    const again = await subscribe(agent, { ...renewed, endpoint: subscriber.endpoint });
    assert.equal(again.id, created.id);
    const row = await t.deps.db.selectFrom('push_subscriptions').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
    assert.equal(row.p256dh, renewed.keys.p256dh);
    assert.equal(row.auth, renewed.keys.auth);

    // Another agent's subscription is not found.
    assertError(await t.call({ method: 'DELETE', url: `${SUBSCRIPTIONS}/${created.id}`, as: other }), 404, 'NotFoundException');
    assert.deepEqual(dataOf<Listed[]>(await t.call({ method: 'GET', url: SUBSCRIPTIONS, as: other })), []);
    assertError(await t.call({ method: 'DELETE', url: `${SUBSCRIPTIONS}/999999`, as: agent }), 404, 'NotFoundException');
    assertError(await t.call({ method: 'DELETE', url: `${SUBSCRIPTIONS}/abc`, as: agent }), 404, 'NotFoundException');

    assert.equal(dataOf(await t.call({ method: 'DELETE', url: `${SUBSCRIPTIONS}/${created.id}`, as: agent })), true);
    assert.deepEqual(dataOf<Listed[]>(await t.call({ method: 'GET', url: SUBSCRIPTIONS, as: agent })), []);
  });

  test('a subscription made from a sign-in ends with it (sign-out, or any end of the session); one made with API credentials stays', async () => {
    const password = 'a long enough password 1';
    const person = await t.makeAgent({ roles: ['Agent'], email: 'push-session@example.com', password });
    const laptop = await signIn(t.app, person.email, password);
    const made = await asSession(t.app, laptop, { method: 'POST', url: SUBSCRIPTIONS, payload: body(service.subscriber()) });
    assert.equal(made.statusCode, 200, made.body);
    const byKey = await subscribe(person, service.subscriber());
    assert.equal(dataOf<Listed[]>(await t.call({ method: 'GET', url: SUBSCRIPTIONS, as: person })).length, 2);
    const out = await asSession(t.app, laptop, { method: 'POST', url: '/api/v1/auth/logout' });
    assert.equal(out.statusCode, 200, out.body);
    assert.deepEqual(
      dataOf<Listed[]>(await t.call({ method: 'GET', url: SUBSCRIPTIONS, as: person })).map((s) => s.id),
      [byKey.id],
      'the signed-out browser no longer receives pushes',
    );
    assert.equal(dataOf(await t.call({ method: 'DELETE', url: `${SUBSCRIPTIONS}/${byKey.id}`, as: person })), true);
  });

  test('bad subscriptions are refused with a 400 naming the field, and nothing is stored', async () => {
    const good = service.subscriber();
    const offCurve = Buffer.alloc(65, 7);
    offCurve[0] = 4;
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['http to a host not in PUSH_ALLOW_HOSTS', { ...body(good), endpoint: 'http://push.example.com/x' }, 'endpoint'],
      ['a private address', { ...body(good), endpoint: 'https://10.1.2.3/push/x' }, 'endpoint'],
      ['the metadata address', { ...body(good), endpoint: 'https://169.254.169.254/latest' }, 'endpoint'],
      ['IPv6 loopback', { ...body(good), endpoint: 'https://[::1]/push' }, 'endpoint'],
      ['not a URL', { ...body(good), endpoint: 'push me' }, 'endpoint'],
      ['another scheme', { ...body(good), endpoint: 'ftp://push.example.com/x' }, 'endpoint'],
      ['credentials in the URL', { ...body(good), endpoint: 'https://user:pw@push.example.com/x' }, 'endpoint'],
      ['a huge endpoint', { ...body(good), endpoint: `https://push.example.com/${'a'.repeat(3000)}` }, 'endpoint'],
      ['p256dh of 64 bytes', { ...body(good), keys: { ...good.keys, p256dh: Buffer.alloc(64, 1).toString('base64url') } }, 'p256dh'],
      ['p256dh off the curve', { ...body(good), keys: { ...good.keys, p256dh: offCurve.toString('base64url') } }, 'p256dh'],
      ['p256dh not base64url', { ...body(good), keys: { ...good.keys, p256dh: 'a+b/c' } }, 'p256dh'],
      ['auth of 8 bytes', { ...body(good), keys: { ...good.keys, auth: Buffer.alloc(8, 1).toString('base64url') } }, 'auth'],
      ['auth missing', { ...body(good), keys: { p256dh: good.keys.p256dh } }, 'auth'],
      ['keys missing', { endpoint: good.endpoint }, 'keys'],
      ['endpoint missing', { keys: good.keys }, 'endpoint'],
      ['endpoint a number', { ...body(good), endpoint: 42 }, 'endpoint'],
      ['an unknown field', { ...body(good), extra: 1 }, 'extra'],
      ['a NUL byte', { ...body(good), endpoint: `${good.endpoint}\u0000x` }, 'endpoint'],
    ];
    for (const [label, payload, field] of cases) {
      const error = assertError(await t.call({ method: 'POST', url: SUBSCRIPTIONS, payload, as: agent }), 400, 'InputException', label);
      assert.match(JSON.stringify(error), new RegExp(field), `${label}: names ${field}`);
    }
    assertError(
      await t.call({ method: 'POST', url: SUBSCRIPTIONS, payload: 'x', headers: { 'content-type': 'text/plain' }, as: agent }),
      415,
      'InputException',
    );
    const count = await t.deps.db
      .selectFrom('push_subscriptions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    assert.equal(Number(count?.n), 0);
  });

  test(`an agent holds at most ${PUSH_SUBSCRIPTIONS_MAX} subscriptions`, async () => {
    const capped = await t.makeAgent();
    for (let i = 0; i < PUSH_SUBSCRIPTIONS_MAX; i += 1) await subscribe(capped, service.subscriber());
    assertError(
      await t.call({ method: 'POST', url: SUBSCRIPTIONS, payload: body(service.subscriber()), as: capped }),
      422,
      'DataException',
    );
    await t.deps.db.deleteFrom('push_subscriptions').where('agent_id', '=', capped.id).execute();
  });

  test('a notification reaches each subscription encrypted, with VAPID; the service decrypts the expected payload', async () => {
    const phone = service.subscriber();
    const laptop = service.subscriber();
    const phoneRecord = await subscribe(agent, phone);
    await subscribe(agent, laptop);
    const elsewhere = service.subscriber();
    await subscribe(other, elsewhere);
    const publicKey = dataOf<{ public_key: string }>(
      await t.call({ method: 'GET', url: '/api/v1/push/vapid-public-key', as: agent }),
    ).public_key;

    const { uuid } = await notify(agent, 'Assigned to you: Printer on fire');
    assert.equal(await runDueJobs(t.deps, [PUSH_NOTIFICATION_JOB]), 1);
    assert.deepEqual(service.rejected, []);
    const expected = {
      title: 'Assigned to you: Printer on fire',
      body: 'The printer is on fire',
      url: `/conversations/${uuid}`,
      tag: `parley-conversation-${uuid}`,
    };
    const got = service.received.filter((push) => push.subscriberId === phone.id || push.subscriberId === laptop.id);
    assert.equal(got.length, 2);
    for (const push of got) {
      assert.deepEqual(push.payload, expected);
      assert.equal(push.vapid.publicKey, publicKey, 'signed with the installation key');
      assert.equal(push.vapid.subject, 'mailto:parley@example.com');
      assert.equal(push.vapid.audience, service.origin);
      assert.equal(push.headers.ttl, String(24 * 3600));
    }
    assert.equal(service.received.filter((push) => push.subscriberId === elsewhere.id).length, 0, "not another agent's device");
    const listed = dataOf<Listed[]>(await t.call({ method: 'GET', url: SUBSCRIPTIONS, as: agent }));
    assert.ok(listed.find((s) => s.id === phoneRecord.id)?.last_success_at, 'success recorded');
    await t.deps.db.deleteFrom('push_subscriptions').execute();
  });

  test('nothing is pushed once the agent turned push off or read the notification', async () => {
    const phone = service.subscriber();
    await subscribe(agent, phone);
    const read = await notify(agent, 'Already read');
    await t.deps.db.updateTable('notifications').set({ read_at: clock.now() }).where('id', '=', read.id).execute();
    await t.deps.db
      .updateTable('notification_settings')
      .set({ types: JSON.stringify({}) })
      .where('agent_id', '=', agent.id)
      .execute();
    await notify(agent, 'Push is off');
    await runDueJobs(t.deps, [PUSH_NOTIFICATION_JOB]);
    assert.equal(service.received.filter((push) => push.subscriberId === phone.id).length, 0);
    await t.deps.db.deleteFrom('notification_settings').where('agent_id', '=', agent.id).execute();
    await t.deps.db.deleteFrom('push_subscriptions').execute();
  });

  test('a 404 or 410 from the push service removes the subscription; the others stay', async () => {
    const gone = service.subscriber();
    const expired = service.subscriber();
    const fine = service.subscriber();
    service.answer(gone.id, [410]);
    service.answer(expired.id, [404]);
    const goneRecord = await subscribe(agent, gone);
    const expiredRecord = await subscribe(agent, expired);
    const fineRecord = await subscribe(agent, fine);
    await notify(agent, 'Gone test');
    await runDueJobs(t.deps, [PUSH_NOTIFICATION_JOB]);
    const listed = dataOf<Listed[]>(await t.call({ method: 'GET', url: SUBSCRIPTIONS, as: agent }));
    assert.deepEqual(
      listed.map((s) => s.id),
      [fineRecord.id],
    );
    assert.ok(!listed.some((s) => s.id === goneRecord.id || s.id === expiredRecord.id));
    assert.equal(await runDueJobs(t.deps, [PUSH_RETRY_JOB]), 0, 'no retry for them');
    await t.deps.db.deleteFrom('push_subscriptions').execute();
  });

  test('a 500 is retried later for that subscription only, and then succeeds; failing again leaves the retry to the backoff', async () => {
    const flaky = service.subscriber();
    const fine = service.subscriber();
    service.answer(flaky.id, [500, 503]);
    const flakyRecord = await subscribe(agent, flaky);
    await subscribe(agent, fine);
    await notify(agent, 'Retry me');
    await runDueJobs(t.deps, [PUSH_NOTIFICATION_JOB]);
    const of = (s: Subscriber) => service.received.filter((push) => push.subscriberId === s.id);
    assert.deepEqual(
      of(flaky).map((p) => p.status),
      [500],
    );
    assert.equal(of(fine).length, 1);
    assert.equal(await runDueJobs(t.deps, [PUSH_RETRY_JOB]), 0, 'not before its time');
    clock.advance(11_000);
    // The second attempt gets a 503: the handler fails and the runner will back off.
    await assert.rejects(runDueJobs(t.deps, [PUSH_RETRY_JOB]), /failed again/);
    // As the runner would record the failure: the claim released, the job due again later.
    await t.deps.db
      .updateTable('jobs')
      .set({ locked_by: null, locked_until: null, run_at: clock.now() })
      .where('kind', '=', PUSH_RETRY_JOB)
      .execute();
    assert.equal(await runDueJobs(t.deps, [PUSH_RETRY_JOB]), 1);
    assert.deepEqual(
      of(flaky).map((p) => p.status),
      [500, 503, 201],
    );
    assert.equal(of(fine).length, 1, 'the subscription that succeeded is not sent again');
    assert.equal((of(flaky)[2]?.payload as { title: string }).title, 'Retry me');
    const row = await t.deps.db.selectFrom('push_subscriptions').selectAll().where('id', '=', flakyRecord.id).executeTakeFirstOrThrow();
    assert.ok(row.last_success_at);
    await t.deps.db.deleteFrom('push_subscriptions').execute();
  });
});

describe('Web Push without PUSH_ALLOW_HOSTS', () => {
  let t: TestApp;
  let service: PushService;
  let agent: Caller;
  before(async () => {
    service = await startPushService();
    t = await buildTestApp();
    agent = await t.makeAgent();
  });
  after(async () => {
    await t.close();
    await service.close();
  });

  test('loopback endpoints are refused, by address and by a name that resolves to it', async () => {
    const subscriber = service.subscriber();
    const port = new URL(service.origin).port;
    for (const endpoint of [subscriber.endpoint, `https://127.0.0.1:${port}/push/x`, `https://localhost:${port}/push/x`]) {
      assertError(
        await t.call({ method: 'POST', url: SUBSCRIPTIONS, payload: { endpoint, keys: subscriber.keys }, as: agent }),
        400,
        'InputException',
        endpoint,
      );
    }
  });

  test('a subscription whose address became private is refused at send time (DNS can change), and kept', async () => {
    const byAddress = service.subscriber();
    const byName = service.subscriber();
    const port = new URL(service.origin).port;
    const now = t.deps.clock.now();
    // Recorded while their hosts were public (written directly: the API would refuse them now).
    for (const [subscriber, endpoint] of [
      [byAddress, byAddress.endpoint],
      [byName, `http://localhost:${port}/push/${byName.id}`],
    ] as const) {
      await t.deps.db
        .insertInto('push_subscriptions')
        .values({ agent_id: agent.id, endpoint, ...subscriber.keys, created_at: now, updated_at: now })
        .execute();
    }
    const conversation = await createConversation(t);
    const { id: conversationId } = await t.deps.db
      .selectFrom('conversations')
      .select('id')
      .where('uuid', '=', conversation.uuid)
      .executeTakeFirstOrThrow();
    await t.deps.db
      .insertInto('notification_settings')
      .values({ agent_id: agent.id, types: JSON.stringify({ mentioned: { push: true } }), updated_at: now })
      .execute();
    const { id } = await t.deps.db
      .insertInto('notifications')
      .values({
        agent_id: agent.id,
        type: 'mentioned',
        cause_event_id: 1,
        conversation_id: conversationId,
        title: 'Mentioned',
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await enqueueJob(t.deps, t.deps.db, { kind: PUSH_NOTIFICATION_JOB, payload: { notification_id: Number(id) } });
    assert.equal(await runDueJobs(t.deps, [PUSH_NOTIFICATION_JOB]), 1);
    assert.deepEqual(service.received, [], 'the push service was never reached');
    assert.deepEqual(service.rejected, []);
    assert.equal(await runDueJobs(t.deps, [PUSH_RETRY_JOB]), 0, 'a refusal is not retried');
    const left = await t.deps.db.selectFrom('push_subscriptions').select('id').where('agent_id', '=', agent.id).execute();
    assert.equal(left.length, 2);
  });
});
