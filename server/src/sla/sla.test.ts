// SLA policies through the API: the record, partial updates, refusals of bad bodies, deletion
// while a team uses the policy, teams referencing policies, and who may do what. The deadlines
// of applied policies are in sla.deadlines.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { agentWith, createTeam, uniqueNumber } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, type TestApp } from '../../test/helpers.ts';

type Policy = {
  id: number;
  name: string;
  description: string;
  first_response_minutes: number | null;
  next_response_minutes: number | null;
  resolution_minutes: number | null;
  warning_minutes: number | null;
  business_hours_only: boolean;
  created_at: string;
  updated_at: string;
};

const RECORD_KEYS = [
  'business_hours_only',
  'created_at',
  'description',
  'first_response_minutes',
  'id',
  'name',
  'next_response_minutes',
  'resolution_minutes',
  'updated_at',
  'warning_minutes',
];

describe('SLA policies', () => {
  let t: TestApp;
  let agent: Caller;
  let manager: Caller;
  before(async () => {
    t = await buildTestApp();
    agent = await t.makeAgent();
    manager = await agentWith(t, ['sla:manage']);
  });
  after(() => t.close());

  const url = (id?: number | string) => (id === undefined ? '/api/v1/sla' : `/api/v1/sla/${id}`);
  const create = (payload: unknown, as?: Caller | null) =>
    t.call({ method: 'POST', url: url(), payload: payload as object, ...(as !== undefined ? { as } : {}) });
  const put = (id: number | string, payload: unknown, as?: Caller | null) =>
    t.call({ method: 'PUT', url: url(id), payload: payload as object, ...(as !== undefined ? { as } : {}) });
  const remove = (id: number | string, as?: Caller | null) =>
    t.call({ method: 'DELETE', url: url(id), ...(as !== undefined ? { as } : {}) });
  const name = () => `Gold ${uniqueNumber()}`;

  it('creates a policy: the record, names trimmed, targets nullable, 0 warning minutes stored as none', async () => {
    const created = dataOf<Policy>(
      await create({
        name: '  Gold support ',
        description: ' Our best ',
        first_response_minutes: 60,
        resolution_minutes: 480,
        warning_minutes: 0,
        business_hours_only: true,
      }),
    );
    assert.deepEqual(Object.keys(created).sort(), RECORD_KEYS);
    assert.equal(created.name, 'Gold support');
    assert.equal(created.description, 'Our best');
    assert.equal(created.first_response_minutes, 60);
    assert.equal(created.next_response_minutes, null);
    assert.equal(created.warning_minutes, null);
    assert.equal(created.business_hours_only, true);
    const plain = dataOf<Policy>(await create({ name: name() }));
    assert.equal(plain.business_hours_only, false);
    assert.equal(plain.description, '');
    assert.deepEqual(dataOf<Policy>(await t.call({ url: url(created.id), as: agent })), created);
    const list = dataOf<Policy[]>(await t.call({ url: url(), as: agent }));
    assert.ok(list.some((p) => p.id === created.id) && list.some((p) => p.id === plain.id));
  });

  it('refuses bad bodies with a 400 naming the field', async () => {
    const bad: Array<[string, unknown]> = [
      ['name', {}],
      ['name', { name: '' }],
      ['name', { name: '   ' }],
      ['name', { name: 42 }],
      ['name', { name: 'x'.repeat(141) }],
      ['name', { name: 'bad\u0000name' }],
      ['first_response_minutes', { name: name(), first_response_minutes: 0 }],
      ['first_response_minutes', { name: name(), first_response_minutes: -5 }],
      ['first_response_minutes', { name: name(), first_response_minutes: 1.5 }],
      ['first_response_minutes', { name: name(), first_response_minutes: '60' }],
      ['resolution_minutes', { name: name(), resolution_minutes: 10 ** 12 }],
      ['warning_minutes', { name: name(), warning_minutes: -1 }],
      ['business_hours_only', { name: name(), business_hours_only: 'yes' }],
      ['description', { name: name(), description: 'd'.repeat(1001) }],
      ['extra', { name: name(), extra: 1 }],
    ];
    for (const [field, body] of bad) {
      const res = await create(body);
      const error = assertError(res, 400, 'InputException', JSON.stringify(body).slice(0, 80));
      assert.ok(res.body.includes(field), `${field}: ${res.body}`);
      assert.ok(error.message.length > 0);
    }
    assertError(
      await t.call({ method: 'POST', url: url(), payload: 'not json', headers: { 'content-type': 'application/json' } }),
      400,
      'InputException',
    );
  });

  it('409 on a taken name (case-insensitive); PUT is partial; unknown and malformed ids 404', async () => {
    const first = dataOf<Policy>(await create({ name: 'Silver', first_response_minutes: 30 }));
    assertError(await create({ name: ' silver ' }), 409, 'ConflictException');
    const other = dataOf<Policy>(await create({ name: name() }));
    assertError(await put(other.id, { name: 'SILVER' }), 409, 'ConflictException');
    const updated = dataOf<Policy>(await put(first.id, { resolution_minutes: 120, warning_minutes: 5 }));
    assert.equal(updated.name, 'Silver');
    assert.equal(updated.first_response_minutes, 30, 'kept');
    assert.equal(updated.resolution_minutes, 120);
    const cleared = dataOf<Policy>(await put(first.id, { first_response_minutes: null, name: 'Silver' }));
    assert.equal(cleared.first_response_minutes, null);
    assertError(await put(first.id, { first_response_minutes: 0 }), 400, 'InputException');
    assertError(await put(first.id, { nope: true }), 400, 'InputException');
    assertError(await t.call({ url: url(999999) }), 404, 'NotFoundException');
    assertError(await put(999999, { name: name() }), 404, 'NotFoundException');
    assertError(await remove(999999), 404, 'NotFoundException');
    // Malformed ids are unknown ids (contract §1).
    assertError(await t.call({ url: url('abc') }), 404, 'NotFoundException');
    assertError(await t.call({ url: url(0) }), 404, 'NotFoundException');
    assertError(await t.call({ url: url(2 ** 40) }), 404, 'NotFoundException');
  });

  it('teams reference policies: unknown ids are refused; a policy a team uses cannot be deleted (422)', async () => {
    const policy = dataOf<Policy>(await create({ name: name(), first_response_minutes: 15 }));
    const refused = await t.call({ method: 'POST', url: '/api/v1/teams', payload: { name: `T ${uniqueNumber()}`, sla_policy_id: 999999 } });
    assert.match(assertError(refused, 400, 'InputException').message, /sla_policy_id/);
    const team = await createTeam(t, { sla_policy_id: policy.id });
    assert.equal(team.sla_policy_id, policy.id);
    const deleting = await remove(policy.id);
    assert.match(assertError(deleting, 422, 'DataException').message, new RegExp(team.name));
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/teams/${team.id}`, payload: { sla_policy_id: null } }));
    assert.equal(dataOf(await remove(policy.id)), true);
    assertError(await t.call({ url: url(policy.id) }), 404, 'NotFoundException');
  });

  it('a deleted policy leaves the conversations their applied SLA', async () => {
    const policy = dataOf<Policy>(await create({ name: name(), resolution_minutes: 60 }));
    const inbox = dataOf<{ id: number }>(
      await t.call({
        method: 'POST',
        url: '/api/v1/inboxes',
        payload: { name: `Chat ${uniqueNumber()}`, channel: 'livechat', config: {} },
      }),
    );
    const conversation = dataOf<{ uuid: string }>(
      await t.call({
        method: 'POST',
        url: '/api/v1/conversations',
        payload: { inbox_id: inbox.id, contact_email: `sla-${uniqueNumber()}@example.com`, content: 'Hi', initiator: 'contact' },
      }),
    );
    const sla = `/api/v1/conversations/${conversation.uuid}/sla`;
    const applied = dataOf<{ applied_sla_id: number }>(await t.call({ method: 'PUT', url: sla, payload: { sla_policy_id: policy.id } }));
    assert.equal(dataOf(await remove(policy.id)), true);
    const after = dataOf<{ applied_sla_id: number; sla_policy_id: number | null; resolution: unknown }>(await t.call({ url: sla }));
    assert.equal(after.applied_sla_id, applied.applied_sla_id);
    assert.equal(after.sla_policy_id, null);
    assert.notEqual(after.resolution, null);
  });

  it('reading needs only authentication; writing needs sla:manage', async () => {
    const policy = dataOf<Policy>(await create({ name: name() }, manager));
    dataOf(await put(policy.id, { description: 'managed' }, manager));
    dataOf(await t.call({ url: url(), as: agent }));
    dataOf(await t.call({ url: url(policy.id), as: agent }));
    for (const res of [
      await create({ name: name() }, agent),
      await put(policy.id, { description: 'x' }, agent),
      await remove(policy.id, agent),
    ]) {
      assert.match(assertError(res, 403, 'PermissionException').message, /sla:manage/);
    }
    for (const res of [await t.call({ url: url(), as: null }), await create({ name: name() }, null), await remove(policy.id, null)]) {
      assertError(res, 401, 'UnauthorizedException');
    }
    assert.equal(dataOf(await remove(policy.id, manager)), true);
  });
});
