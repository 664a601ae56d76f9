// Webhook records through the API: CRUD, the signing secret (generated, given, masked, kept,
// rotated, encrypted at rest), the toggle, 404s, credentials and permission.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { assertError, buildTestApp, type Caller, dataOf, type TestApp } from '../../test/helpers.ts';
import { createWebhook, webhookRow, webhookRows } from '../../test/webhooks.ts';
import { isEncrypted, SECRET_MASK } from '../security/encryption.ts';
import { WEBHOOK_EVENTS } from './webhooks.events.ts';
import type { WebhookRecord } from './webhooks.schema.ts';
import { decryptWebhookSecret } from './webhooks.secret.ts';

const RECORD_FIELDS = [
  'created_at',
  'disabled_reason',
  'enabled',
  'events',
  'failing_since',
  'headers',
  'id',
  'name',
  'secret',
  'updated_at',
  'url',
];

/** A valid secret the test chose: `whsec_` + base64 of 32 bytes. */
const GIVEN_SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;

describe('webhooks: records', () => {
  let t: TestApp;
  let agent: Caller;
  before(async () => {
    t = await buildTestApp();
    agent = await t.makeAgent({ roles: ['Agent'] });
  });
  after(() => t.close());

  const get = async (id: number) => dataOf<WebhookRecord>(await t.call({ method: 'GET', url: `/api/v1/webhooks/${id}` }));

  /** Signs with the secret stored for the webhook and verifies with `shown`: true when they are the same secret. */
  async function verifies(id: number, shown: string): Promise<boolean> {
    const row = await webhookRow(t, id);
    assert.ok(row);
    const stored = decryptWebhookSecret(t.deps, row.secret);
    const body = JSON.stringify({ type: 'webhook.test', timestamp: new Date().toISOString(), data: { id } });
    const timestamp = new Date();
    const headers = {
      'webhook-id': 'msg_test',
      'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
      'webhook-signature': new Webhook(stored).sign('msg_test', timestamp, body),
    };
    try {
      new Webhook(shown).verify(body, headers);
      return true;
    } catch {
      return false;
    }
  }

  it('creates a webhook with 200, the record shape and a generated secret shown once', async () => {
    const res = await t.call({
      method: 'POST',
      url: '/api/v1/webhooks',
      payload: {
        name: '  Orders  ',
        url: 'https://hooks.example.com/orders?x=1',
        events: ['conversation.created', 'contact.created'],
        headers: { Authorization: '  Bearer abc  ', 'X-Team': 'support' },
      },
    });
    const created = dataOf<WebhookRecord>(res);
    assert.deepEqual(Object.keys(created).sort(), RECORD_FIELDS);
    assert.equal(created.name, 'Orders');
    assert.equal(created.url, 'https://hooks.example.com/orders?x=1');
    assert.equal(created.enabled, true);
    assert.deepEqual(created.events, ['conversation.created', 'contact.created']);
    assert.deepEqual(created.headers, { Authorization: SECRET_MASK, 'X-Team': 'support' });
    assert.deepEqual((await webhookRow(t, created.id))?.headers, { Authorization: 'Bearer abc', 'X-Team': 'support' });
    assert.equal(created.disabled_reason, null);
    assert.equal(created.failing_since, null);
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.ok(await verifies(created.id, created.secret), 'the shown secret is the stored one');

    // Masked everywhere else.
    assert.equal((await get(created.id)).secret, SECRET_MASK);
    const list = dataOf<WebhookRecord[]>(await t.call({ method: 'GET', url: '/api/v1/webhooks' }));
    assert.ok(list.length > 0);
    for (const webhook of list) assert.equal(webhook.secret, SECRET_MASK);
  });

  it('creates a webhook subscribed to every listed event, webhook.test included, and keeps them all', async () => {
    const events = [...WEBHOOK_EVENTS];
    assert.ok(events.includes('webhook.test'));
    const created = dataOf<WebhookRecord>(
      await t.call({
        method: 'POST',
        url: '/api/v1/webhooks',
        payload: { name: 'Everything', url: 'https://hooks.example.com/all', events },
      }),
    );
    assert.deepEqual(created.events, events);
    assert.deepEqual((await get(created.id)).events, events);
    assert.deepEqual((await webhookRow(t, created.id))?.events, events);
    // And on update: webhook.test alone is a valid subscription too.
    const updated = dataOf<WebhookRecord>(
      await t.call({
        method: 'PUT',
        url: `/api/v1/webhooks/${created.id}`,
        payload: { name: 'Everything', url: 'https://hooks.example.com/all', events: ['webhook.test'] },
      }),
    );
    assert.deepEqual(updated.events, ['webhook.test']);
  });

  it('stores the secret encrypted, never in clear', async () => {
    const created = await createWebhook(t);
    const row = await webhookRow(t, created.id);
    assert.ok(row && isEncrypted(row.secret));
    assert.ok(!row.secret.includes(created.secret.slice('whsec_'.length)));
    assert.equal(decryptWebhookSecret(t.deps, row.secret), created.secret);
  });

  it('keeps a given secret, and masks it even in the creation answer', async () => {
    const created = await createWebhook(t, { secret: GIVEN_SECRET, enabled: false });
    assert.equal(created.secret, SECRET_MASK);
    assert.equal(created.enabled, false);
    assert.ok(await verifies(created.id, GIVEN_SECRET));
  });

  it('PUT replaces the whole object; the mask or no secret keeps it; a new secret replaces it', async () => {
    const created = await createWebhook(t, { headers: { 'X-One': '1' } });
    const echoed = { ...(await get(created.id)), name: 'Renamed', url: 'http://hooks.example.com/new', events: ['message.created'] };
    const updated = dataOf<WebhookRecord>(await t.call({ method: 'PUT', url: `/api/v1/webhooks/${created.id}`, payload: echoed }));
    assert.deepEqual(Object.keys(updated).sort(), RECORD_FIELDS);
    assert.equal(updated.name, 'Renamed');
    assert.equal(updated.url, 'http://hooks.example.com/new');
    assert.deepEqual(updated.events, ['message.created']);
    assert.deepEqual(updated.headers, { 'X-One': '1' });
    assert.equal(updated.secret, SECRET_MASK);
    assert.equal(updated.id, created.id);
    assert.equal(updated.created_at, created.created_at);
    assert.ok(await verifies(created.id, created.secret), 'the mask kept the secret');

    // Absent enabled, headers and secret keep theirs; {} clears the headers.
    const minimal = { name: 'Renamed', url: 'http://hooks.example.com/new', events: ['message.created'] };
    const kept = dataOf<WebhookRecord>(await t.call({ method: 'PUT', url: `/api/v1/webhooks/${created.id}`, payload: minimal }));
    assert.deepEqual(kept.headers, { 'X-One': '1' });
    assert.equal(kept.enabled, true);
    assert.ok(await verifies(created.id, created.secret), 'no secret kept the secret');
    const cleared = dataOf<WebhookRecord>(
      await t.call({ method: 'PUT', url: `/api/v1/webhooks/${created.id}`, payload: { ...minimal, headers: {}, enabled: false } }),
    );
    assert.deepEqual(cleared.headers, {});
    assert.equal(cleared.enabled, false);

    const replaced = dataOf<WebhookRecord>(
      await t.call({ method: 'PUT', url: `/api/v1/webhooks/${created.id}`, payload: { ...minimal, secret: GIVEN_SECRET } }),
    );
    assert.equal(replaced.secret, SECRET_MASK);
    assert.ok(await verifies(created.id, GIVEN_SECRET));
    assert.ok(!(await verifies(created.id, created.secret)));
  });

  it('masks credential headers; the mask keeps a value while the url stays, and must be sent again when it changes', async () => {
    const headers = { Authorization: 'Bearer one', 'X-Api-Key': 'k1', 'X-Session-Token': 't1', 'X-Team': 'support' };
    const created = await createWebhook(t, { url: 'https://hooks.example.com/a', headers });
    const masked = { Authorization: SECRET_MASK, 'X-Api-Key': SECRET_MASK, 'X-Session-Token': SECRET_MASK, 'X-Team': 'support' };
    assert.deepEqual(created.headers, masked);
    const echoed = await get(created.id);
    assert.deepEqual(echoed.headers, masked);
    const put = (changes: Record<string, unknown>) =>
      t.call({ method: 'PUT', url: `/api/v1/webhooks/${created.id}`, payload: { ...echoed, ...changes } });
    const refusedField = (res: Awaited<ReturnType<typeof put>>) => {
      const error = assertError(res, 400, 'InputException');
      return (error.data as { errors: Array<{ field: string }> }).errors[0]?.field;
    };

    // The mask sent back, in any case of the name, keeps the stored value; a new value replaces it.
    const kept = dataOf<WebhookRecord>(
      await put({ headers: { authorization: SECRET_MASK, 'X-Api-Key': 'k2', 'X-Session-Token': SECRET_MASK, 'X-Team': 'support' } }),
    );
    assert.deepEqual(kept.headers, {
      authorization: SECRET_MASK,
      'X-Api-Key': SECRET_MASK,
      'X-Session-Token': SECRET_MASK,
      'X-Team': 'support',
    });
    assert.deepEqual((await webhookRow(t, created.id))?.headers, {
      authorization: 'Bearer one',
      'X-Api-Key': 'k2',
      'X-Session-Token': 't1',
      'X-Team': 'support',
    });

    // A new url: a kept credential would go to an address it was not given for.
    const before = await webhookRow(t, created.id);
    assert.equal(
      refusedField(await put({ url: 'https://elsewhere.example.net/hook', headers: { 'X-Api-Key': SECRET_MASK } })),
      'headers.X-Api-Key',
    );
    // The mask for a header without a stored value, or for an ordinary header, is refused too.
    assert.equal(refusedField(await put({ headers: { 'X-Other-Token': SECRET_MASK } })), 'headers.X-Other-Token');
    assert.equal(refusedField(await put({ headers: { 'X-Team': SECRET_MASK } })), 'headers.X-Team');
    const payload = {
      name: 'Masked',
      url: 'https://hooks.example.com/m',
      events: ['message.created'],
      headers: { Authorization: SECRET_MASK },
    };
    assert.equal(refusedField(await t.call({ method: 'POST', url: '/api/v1/webhooks', payload })), 'headers.Authorization');
    assert.deepEqual(await webhookRow(t, created.id), before);

    // With the value sent again the url may change.
    const resent = dataOf<WebhookRecord>(await put({ url: 'https://elsewhere.example.net/hook', headers: { 'X-Api-Key': 'k3' } }));
    assert.deepEqual(resent.headers, { 'X-Api-Key': SECRET_MASK });
  });

  it('PUT may change only the case of its own name; another webhook’s name is a 409', async () => {
    const one = await createWebhook(t, { name: 'Billing hook' });
    const other = await createWebhook(t, { name: 'Shipping hook' });
    const same = { name: 'BILLING HOOK', url: one.url, events: one.events };
    assert.equal(
      dataOf<WebhookRecord>(await t.call({ method: 'PUT', url: `/api/v1/webhooks/${one.id}`, payload: same })).name,
      'BILLING HOOK',
    );
    const before = await webhookRows(t);
    const taken = { name: 'shipping HOOK', url: one.url, events: one.events };
    assertError(await t.call({ method: 'PUT', url: `/api/v1/webhooks/${one.id}`, payload: taken }), 409, 'ConflictException');
    assert.deepEqual(await webhookRows(t), before);
    assert.equal((await get(other.id)).name, 'Shipping hook');
  });

  it('refuses a duplicate name on creation with 409, case-insensitively, storing nothing', async () => {
    await createWebhook(t, { name: 'Unique Hook' });
    const before = await webhookRows(t);
    const res = await t.call({
      method: 'POST',
      url: '/api/v1/webhooks',
      payload: { name: ' unique hook ', url: 'https://hooks.example.com/x', events: ['contact.created'] },
    });
    assertError(res, 409, 'ConflictException');
    assert.deepEqual(await webhookRows(t), before);
  });

  it('toggles: disabling keeps the record; enabling clears disabled_reason and failing_since', async () => {
    const created = await createWebhook(t);
    const off = dataOf<WebhookRecord>(
      await t.call({ method: 'PUT', url: `/api/v1/webhooks/${created.id}/toggle`, payload: { enabled: false } }),
    );
    assert.deepEqual(Object.keys(off).sort(), RECORD_FIELDS);
    assert.equal(off.enabled, false);
    assert.equal(off.secret, SECRET_MASK);

    // As the dispatcher leaves a webhook it disabled after a day of failures.
    const since = new Date('2026-01-01T00:00:00Z');
    await t.deps.db
      .updateTable('webhooks')
      .set({ disabled_reason: 'Failing since 2026-01-01', failing_since: since })
      .where('id', '=', created.id)
      .execute();
    const shown = await get(created.id);
    assert.equal(shown.disabled_reason, 'Failing since 2026-01-01');
    assert.equal(shown.failing_since, since.toISOString());

    // Disabling again changes nothing of that.
    await t.call({ method: 'PUT', url: `/api/v1/webhooks/${created.id}/toggle`, payload: { enabled: false } });
    assert.equal((await get(created.id)).disabled_reason, 'Failing since 2026-01-01');

    const on = dataOf<WebhookRecord>(
      await t.call({ method: 'PUT', url: `/api/v1/webhooks/${created.id}/toggle`, payload: { enabled: true } }),
    );
    assert.equal(on.enabled, true);
    assert.equal(on.disabled_reason, null);
    assert.equal(on.failing_since, null);
    assert.ok(await verifies(created.id, created.secret), 'toggling keeps the secret');
  });

  it('PUT with enabled true on a disabled webhook clears disabled_reason and failing_since too', async () => {
    const created = await createWebhook(t, { enabled: false });
    await t.deps.db
      .updateTable('webhooks')
      .set({ disabled_reason: 'Failing', failing_since: new Date() })
      .where('id', '=', created.id)
      .execute();
    const payload = { name: created.name, url: created.url, events: created.events, enabled: true };
    const on = dataOf<WebhookRecord>(await t.call({ method: 'PUT', url: `/api/v1/webhooks/${created.id}`, payload }));
    assert.equal(on.enabled, true);
    assert.equal(on.disabled_reason, null);
    assert.equal(on.failing_since, null);
  });

  it('rotates the secret: shown once, the old one no longer verifies', async () => {
    const created = await createWebhook(t);
    const rotated = dataOf<WebhookRecord>(await t.call({ method: 'POST', url: `/api/v1/webhooks/${created.id}/secret/rotate` }));
    assert.deepEqual(Object.keys(rotated).sort(), RECORD_FIELDS);
    assert.match(rotated.secret, /^whsec_/);
    assert.notEqual(rotated.secret, created.secret);
    assert.ok(await verifies(created.id, rotated.secret));
    assert.ok(!(await verifies(created.id, created.secret)));
    assert.equal((await get(created.id)).secret, SECRET_MASK);
  });

  it('lists every webhook ordered by name case-insensitively, and a compact list, both for admins only', async () => {
    const ids: number[] = [];
    for (const name of ['list delta', 'List Alpha', 'list charlie', 'List Bravo']) ids.push((await createWebhook(t, { name })).id);
    const list = dataOf<WebhookRecord[]>(await t.call({ method: 'GET', url: '/api/v1/webhooks' }));
    assert.deepEqual(
      list.filter((w) => ids.includes(w.id)).map((w) => w.name),
      ['List Alpha', 'List Bravo', 'list charlie', 'list delta'],
    );
    for (const webhook of list) assert.deepEqual(Object.keys(webhook).sort(), RECORD_FIELDS);

    assertError(await t.call({ method: 'GET', url: '/api/v1/webhooks/compact', as: agent }), 403, 'PermissionException');
    const compact = dataOf<Array<Record<string, unknown>>>(await t.call({ method: 'GET', url: '/api/v1/webhooks/compact' }));
    assert.deepEqual(
      compact,
      list.map((w) => ({ id: w.id, name: w.name })),
    );
  });

  it('deletes with true; afterwards every route of it answers 404', async () => {
    const created = await createWebhook(t);
    const res = await t.call({ method: 'DELETE', url: `/api/v1/webhooks/${created.id}` });
    assert.equal(dataOf<boolean>(res), true);
    assert.equal(await webhookRow(t, created.id), undefined);
    await assertNotFound(created.id);
  });

  async function assertNotFound(id: number | string) {
    const update = { name: 'x', url: 'https://hooks.example.com/x', events: ['contact.created'] };
    const calls = [
      { method: 'GET', url: `/api/v1/webhooks/${id}` },
      { method: 'PUT', url: `/api/v1/webhooks/${id}`, payload: update },
      { method: 'PUT', url: `/api/v1/webhooks/${id}/toggle`, payload: { enabled: true } },
      { method: 'POST', url: `/api/v1/webhooks/${id}/secret/rotate` },
      { method: 'DELETE', url: `/api/v1/webhooks/${id}` },
      { method: 'GET', url: `/api/v1/webhooks/${id}/deliveries` },
      { method: 'GET', url: `/api/v1/webhooks/${id}/deliveries/1` },
    ] as const;
    for (const call of calls) assertError(await t.call(call), 404, 'NotFoundException', `${call.method} ${call.url}`);
  }

  it('answers 404 for unknown and malformed ids, changing nothing', async () => {
    const before = await webhookRows(t);
    for (const id of [2147483647, 0, -1, 'abc', '1.5', '0x1', '9'.repeat(30)]) await assertNotFound(id);
    assert.deepEqual(await webhookRows(t), before);
  });

  it('answers 401 without or with wrong credentials and 403 to an Agent-role caller, changing nothing', async () => {
    const created = await createWebhook(t);
    const before = await webhookRows(t);
    const body = { name: 'Intruder', url: 'https://evil.example.com/', events: ['contact.created'] };
    const calls = [
      { method: 'GET', url: '/api/v1/webhooks' },
      { method: 'POST', url: '/api/v1/webhooks', payload: body },
      { method: 'GET', url: `/api/v1/webhooks/${created.id}` },
      { method: 'PUT', url: `/api/v1/webhooks/${created.id}`, payload: body },
      { method: 'PUT', url: `/api/v1/webhooks/${created.id}/toggle`, payload: { enabled: false } },
      { method: 'POST', url: `/api/v1/webhooks/${created.id}/secret/rotate` },
      { method: 'DELETE', url: `/api/v1/webhooks/${created.id}` },
      { method: 'GET', url: `/api/v1/webhooks/${created.id}/deliveries` },
      { method: 'GET', url: `/api/v1/webhooks/${created.id}/deliveries/1` },
    ] as const;
    const wrong = { authorization: `Basic ${Buffer.from('nope:nope').toString('base64')}` };
    for (const call of calls) {
      const label = `${call.method} ${call.url}`;
      assertError(await t.call({ ...call, as: null }), 401, 'UnauthorizedException', label);
      assertError(await t.call({ ...call, as: null, headers: wrong }), 401, 'UnauthorizedException', label);
      const denied = assertError(await t.call({ ...call, as: agent }), 403, 'PermissionException', label);
      assert.ok(!JSON.stringify(denied).includes('whsec_'));
    }
    assertError(await t.call({ method: 'GET', url: '/api/v1/webhooks/compact', as: null }), 401, 'UnauthorizedException');
    assert.deepEqual(await webhookRows(t), before);
  });
});
