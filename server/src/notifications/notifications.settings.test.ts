// GET/PUT /api/v1/agents/me/notification-settings: defaults, partial changes, only differences
// stored, and every malformed body refused with nothing changed (docs/api.md, "Notification API
// and preferences").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, buildTestApp, type Caller, dataOf, type TestApp } from '../../test/helpers.ts';

type Choice = { in_app: boolean; email: boolean; push: boolean };
type Settings = { types: Record<string, Choice>; email_digest: boolean; sound: boolean; title_count: boolean };

const URL = '/api/v1/agents/me/notification-settings';
const DEFAULTS: Settings = {
  types: {
    assigned: { in_app: true, email: true, push: false },
    team_assigned: { in_app: true, email: false, push: false },
    mentioned: { in_app: true, email: true, push: false },
    reply: { in_app: true, email: false, push: false },
    sla_warning: { in_app: true, email: false, push: false },
    sla_breached: { in_app: true, email: true, push: false },
  },
  email_digest: false,
  sound: true,
  title_count: true,
};

describe('notification settings', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const get = async (who: Caller) => dataOf<Settings>(await t.call({ method: 'GET', url: URL, as: who }));
  const put = (who: Caller, payload: unknown) => t.call({ method: 'PUT', url: URL, payload: payload as object, as: who });
  const stored = (who: Caller) =>
    t.deps.db.selectFrom('notification_settings').where('agent_id', '=', who.id).select(['types']).executeTakeFirst();

  it('answers the defaults to an agent who never chose', async () => {
    const agent = await t.makeAgent();
    assert.deepEqual(await get(agent), DEFAULTS);
  });

  it('a partial PUT changes only what it names, answers the whole record, and another agent is untouched', async () => {
    const agent = await t.makeAgent();
    const other = await t.makeAgent();
    const after = dataOf<Settings>(await put(agent, { types: { reply: { email: true } }, sound: false }));
    const expected = structuredClone(DEFAULTS);
    (expected.types['reply'] as Choice).email = true;
    expected.sound = false;
    assert.deepEqual(after, expected);
    assert.deepEqual(await get(agent), expected);
    const again = dataOf<Settings>(await put(agent, { types: { mentioned: { push: true, in_app: false } }, email_digest: true }));
    (expected.types['mentioned'] as Choice).push = true;
    (expected.types['mentioned'] as Choice).in_app = false;
    expected.email_digest = true;
    assert.deepEqual(again, expected);
    assert.deepEqual(dataOf<Settings>(await put(agent, {})), expected, 'an empty body changes nothing');
    assert.deepEqual(await get(other), DEFAULTS);
  });

  it('stores only what differs from the defaults', async () => {
    const agent = await t.makeAgent();
    dataOf(await put(agent, { types: { reply: { email: true }, assigned: { email: true, push: true } }, title_count: false }));
    assert.deepEqual((await stored(agent))?.types, { reply: { email: true }, assigned: { push: true } });
    dataOf(await put(agent, { types: { reply: { email: false } } }));
    assert.deepEqual((await stored(agent))?.types, { assigned: { push: true } });
  });

  it('accepts the record as GET answered it (read, change, send back)', async () => {
    const agent = await t.makeAgent();
    const record = await get(agent);
    (record.types['sla_warning'] as Choice).push = true;
    record.title_count = false;
    assert.deepEqual(dataOf<Settings>(await put(agent, record)), record);
    assert.deepEqual(await get(agent), record);
  });

  it('refuses unknown types, channels and fields, wrong types, NUL bytes and deep nesting (400), changing nothing', async () => {
    const agent = await t.makeAgent();
    dataOf(await put(agent, { sound: false }));
    const before = await get(agent);
    const deep: Record<string, unknown> = {};
    let cursor = deep;
    for (let i = 0; i < 200; i += 1) {
      const next: Record<string, unknown> = {};
      cursor['x'] = next;
      cursor = next;
    }
    const bodies: unknown[] = [
      { types: { birthday: { email: true } } },
      { types: { reply: { sms: true } } },
      { types: { reply: { email: 'yes' } } },
      { types: { reply: { email: 1 } } },
      { types: { reply: true } },
      { types: { reply: null } },
      { types: [] },
      { types: { 'reply\u0000': { email: true } } },
      { types: { reply: { 'email\u0000': true } } },
      { sound: 'false' },
      { sound: null },
      { email_digest: 0 },
      { volume: 3 },
      { types: { reply: { email: true, nested: deep } } },
      { types: deep },
      [],
      'sound',
      null,
    ];
    for (const body of bodies) {
      const res = await t.call({
        method: 'PUT',
        url: URL,
        as: agent,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      assertError(res, 400, 'InputException', JSON.stringify(body).slice(0, 80));
    }
    assertError(
      await t.call({ method: 'PUT', url: URL, as: agent, headers: { 'content-type': 'application/json' }, payload: '{"sound":' }),
      400,
      'InputException',
    );
    assert.deepEqual(await get(agent), before);
  });

  it('needs credentials; works with an API key; a cookie write needs the CSRF token', async () => {
    assertError(await t.call({ method: 'GET', url: URL, as: null }), 401, 'UnauthorizedException');
    assertError(await t.call({ method: 'PUT', url: URL, as: null, payload: { sound: false } }), 401, 'UnauthorizedException');
    const login = await t.call({
      method: 'POST',
      url: '/api/v1/auth/login',
      as: null,
      payload: { email: t.admin.email, password: 'admin-password-123' },
    });
    const cookie = ([] as string[])
      .concat(login.headers['set-cookie'] as string | string[])
      .map((c) => c.split(';')[0])
      .join('; ');
    assertError(
      await t.call({ method: 'PUT', url: URL, as: null, headers: { cookie }, payload: { sound: false } }),
      403,
      'PermissionException',
    );
    assert.deepEqual(await get(t.admin), DEFAULTS);
    assert.equal(dataOf<Settings>(await t.call({ method: 'GET', url: URL, as: null, headers: { cookie } })).sound, true);
  });

  it('an agent with no role at all still reads and changes their own', async () => {
    const agent = await t.makeAgent({ roles: [] });
    assert.equal(dataOf<Settings>(await put(agent, { sound: false })).sound, false);
  });

  it('/agents/{id}/notification-settings is not a route: only the caller’s own', async () => {
    const agent = await t.makeAgent();
    assertError(await t.call({ method: 'GET', url: `/api/v1/agents/${agent.id}/notification-settings` }), 404, 'NotFoundException');
  });
});
