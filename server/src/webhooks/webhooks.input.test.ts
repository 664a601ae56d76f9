// Every refusal of a webhook's fields: a 400 InputException naming the field, and nothing stored
// or changed (docs/api.md, "Webhooks").
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, buildTestApp, dataOf, type TestApp } from '../../test/helpers.ts';
import { createWebhook, webhookRows } from '../../test/webhooks.ts';
import { SECRET_MASK } from '../security/encryption.ts';
import type { WebhookRecord } from './webhooks.schema.ts';

const VALID = { name: 'Valid hook', url: 'https://hooks.example.com/in', events: ['contact.created'] };
const base64Of = (bytes: number) => Buffer.alloc(bytes, 1).toString('base64');

/** [label, body changes, the field the 400 must name]. `undefined` removes the field. */
type Case = [string, Record<string, unknown>, string];

const FIELD_CASES: Case[] = [
  ['name missing', { name: undefined }, 'name'],
  ['name empty', { name: '' }, 'name'],
  ['name blank', { name: '   ' }, 'name'],
  ['name a number', { name: 42 }, 'name'],
  ['name null', { name: null }, 'name'],
  ['name over 100 characters', { name: 'n'.repeat(101) }, 'name'],
  ['name huge', { name: 'n'.repeat(200_000) }, 'name'],
  ['name with NUL', { name: 'a\u0000b' }, 'name'],
  ['url missing', { url: undefined }, 'url'],
  ['url not http', { url: 'ftp://hooks.example.com/x' }, 'url'],
  ['url relative', { url: '/hooks/in' }, 'url'],
  ['url without scheme', { url: 'hooks.example.com/in' }, 'url'],
  ['url javascript', { url: 'javascript:alert(1)' }, 'url'],
  ['url with user and password', { url: 'https://user:pass@hooks.example.com/in' }, 'url'],
  ['url with a user', { url: 'https://user@hooks.example.com/in' }, 'url'],
  ['url over 2048 characters', { url: `https://hooks.example.com/${'a'.repeat(2048)}` }, 'url'],
  ['url with a space', { url: 'https://hooks.example.com/a b' }, 'url'],
  ['url with NUL', { url: 'https://hooks.example.com/\u0000' }, 'url'],
  ['url a number', { url: 7 }, 'url'],
  ['events missing', { events: undefined }, 'events'],
  ['events empty', { events: [] }, 'events'],
  ['events not an array', { events: 'contact.created' }, 'events'],
  ['events an unknown name', { events: ['contact.created', 'contact.exploded'] }, 'events.1'],
  ['events twice the same', { events: ['contact.created', 'message.created', 'contact.created'] }, 'events.2'],
  ['events a number', { events: [1] }, 'events.0'],
  ['events with NUL', { events: ['contact.created\u0000'] }, 'events.0'],
  ['events too many', { events: Array.from({ length: 51 }, () => 'contact.created') }, 'events'],
  ['events a huge name', { events: ['x'.repeat(10_000)] }, 'events.0'],
  ['headers not an object', { headers: ['X-A: 1'] }, 'headers'],
  ['headers over 20', { headers: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`X-H${i}`, 'v'])) }, 'headers'],
  ['header name with a space', { headers: { 'X Bad': '1' } }, 'headers.X Bad'],
  ['header name with a colon', { headers: { 'X-Bad:': '1' } }, 'headers.X-Bad:'],
  ['header name non-ASCII', { headers: { 'X-Naïve': '1' } }, 'headers.X-Naïve'],
  ['header name empty', { headers: { '': '1' } }, 'headers.'],
  ['header name over 100', { headers: { [`X-${'a'.repeat(99)}`]: '1' } }, `headers.X-${'a'.repeat(99)}`],
  ['header Content-Type', { headers: { 'content-TYPE': 'text/plain' } }, 'headers.content-TYPE'],
  ['header Content-Length', { headers: { 'Content-Length': '1' } }, 'headers.Content-Length'],
  ['header Host', { headers: { Host: 'other.example.com' } }, 'headers.Host'],
  ['header Transfer-Encoding', { headers: { 'Transfer-Encoding': 'chunked' } }, 'headers.Transfer-Encoding'],
  ['header Connection', { headers: { Connection: 'close' } }, 'headers.Connection'],
  ['header User-Agent', { headers: { 'User-Agent': 'me' } }, 'headers.User-Agent'],
  ['header webhook-signature', { headers: { 'Webhook-Signature': 'v1,x' } }, 'headers.Webhook-Signature'],
  ['header webhook-id', { headers: { 'webhook-id': 'x' } }, 'headers.webhook-id'],
  ['header webhook-anything', { headers: { 'WEBHOOK-X': 'x' } }, 'headers.WEBHOOK-X'],
  ['header Proxy-Authorization', { headers: { 'Proxy-Authorization': 'x' } }, 'headers.Proxy-Authorization'],
  ['header twice in two cases', { headers: { 'X-Team': 'a', 'x-team': 'b' } }, 'headers.x-team'],
  ['header value with CR LF', { headers: { 'X-A': 'a\r\nX-Injected: 1' } }, 'headers.X-A'],
  ['header value with LF', { headers: { 'X-A': 'a\nb' } }, 'headers.X-A'],
  ['header value with a tab', { headers: { 'X-A': 'a\tb' } }, 'headers.X-A'],
  ['header value non-ASCII', { headers: { 'X-A': 'café' } }, 'headers.X-A'],
  ['header value over 1000', { headers: { 'X-A': 'v'.repeat(1001) } }, 'headers.X-A'],
  ['header value a number', { headers: { 'X-A': 1 } }, 'headers.X-A'],
  ['header value with NUL', { headers: { 'X-A': 'a\u0000' } }, 'headers.X-A'],
  ['header name with NUL', { headers: { 'X-\u0000': 'a' } }, 'headers.X-\\u0000'],
  ['secret not whsec_', { secret: base64Of(32) }, 'secret'],
  ['secret empty key', { secret: 'whsec_' }, 'secret'],
  ['secret not base64', { secret: 'whsec_!!!!not-base64!!!!!!!!!!!!!!!!!!!!' }, 'secret'],
  ['secret too short', { secret: `whsec_${base64Of(23)}` }, 'secret'],
  ['secret too long', { secret: `whsec_${base64Of(65)}` }, 'secret'],
  ['secret without padding', { secret: `whsec_${base64Of(32).replace(/=+$/, '')}` }, 'secret'],
  ['secret base64url', { secret: `whsec_${Buffer.alloc(32, 0xfb).toString('base64url')}=` }, 'secret'],
  ['secret a number', { secret: 5 }, 'secret'],
  ['secret huge', { secret: `whsec_${'A'.repeat(100_000)}` }, 'secret'],
  ['enabled a string', { enabled: 'true' }, 'enabled'],
  ['an unknown field', { is_active: true }, 'is_active'],
];

function bodyWith(changes: Record<string, unknown>): Record<string, unknown> {
  const body: Record<string, unknown> = { ...VALID };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete body[key];
    else body[key] = value;
  }
  return body;
}

describe('webhooks: input refusals', () => {
  let t: TestApp;
  let existing: WebhookRecord;
  before(async () => {
    t = await buildTestApp();
    existing = await createWebhook(t, { headers: { 'X-Kept': 'yes' } });
  });
  after(() => t.close());

  async function refused(method: 'POST' | 'PUT', url: string, payload: Record<string, unknown>, field: string, label: string) {
    const error = assertError(await t.call({ method, url, payload }), 400, 'InputException', label);
    const errors = (error.data as { errors?: Array<{ field: string }> } | null)?.errors ?? [];
    assert.ok(
      errors.some((e) => e.field === field),
      `${label}: expected the field ${JSON.stringify(field)} to be named, got ${JSON.stringify(error)}`,
    );
  }

  it('POST /webhooks refuses each bad field with a 400 naming it, storing nothing', async () => {
    const before = await webhookRows(t);
    for (const [label, changes, field] of FIELD_CASES) await refused('POST', '/api/v1/webhooks', bodyWith(changes), field, label);
    assert.deepEqual(await webhookRows(t), before);
  });

  it('POST /webhooks refuses the mask as a secret (nothing is stored to keep)', async () => {
    const before = await webhookRows(t);
    await refused('POST', '/api/v1/webhooks', { ...VALID, secret: SECRET_MASK }, 'secret', 'mask on create');
    assert.deepEqual(await webhookRows(t), before);
  });

  it('PUT /webhooks/{id} refuses each bad field with a 400 naming it, changing nothing', async () => {
    const before = await webhookRows(t);
    for (const [label, changes, field] of FIELD_CASES)
      await refused('PUT', `/api/v1/webhooks/${existing.id}`, bodyWith(changes), field, label);
    assert.deepEqual(await webhookRows(t), before);
  });

  it('PUT /webhooks/{id}/toggle refuses a missing, mistyped or extra field, changing nothing', async () => {
    const before = await webhookRows(t);
    const url = `/api/v1/webhooks/${existing.id}/toggle`;
    await refused('PUT', url, {}, 'enabled', 'missing');
    await refused('PUT', url, { enabled: 'false' }, 'enabled', 'a string');
    await refused('PUT', url, { enabled: 0 }, 'enabled', 'a number');
    await refused('PUT', url, { enabled: false, name: 'x' }, 'name', 'an extra field');
    assert.deepEqual(await webhookRows(t), before);
  });

  it('a body that is not JSON, or over the body limit, is refused, changing nothing', async () => {
    const before = await webhookRows(t);
    const notJson = await t.call({
      method: 'POST',
      url: '/api/v1/webhooks',
      payload: '{"name":',
      headers: { 'content-type': 'application/json' },
    });
    assertError(notJson, 400, 'InputException');
    const huge = await t.call({ method: 'POST', url: '/api/v1/webhooks', payload: { ...VALID, name: 'n'.repeat(2_000_000) } });
    assertError(huge, 413, 'InputException');
    assert.deepEqual(await webhookRows(t), before);
  });

  it('accepts the edges: 100-character names, 20 headers, 24- and 64-byte secrets, every subscribable event', async () => {
    const events = [
      'conversation.created',
      'conversation.status_changed',
      'conversation.assigned',
      'conversation.unassigned',
      'conversation.priority_changed',
      'conversation.tags_changed',
      'conversation.sla_warning',
      'conversation.sla_breached',
      'message.created',
      'message.updated',
      'contact.created',
      'contact.enabled_changed',
      'contact.merged',
    ];
    const headers = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`X-H${i}`, i === 0 ? 'v'.repeat(1000) : "!#$%&'*+.^_`|~ ok"]));
    const name = 'é'.repeat(100);
    const created = await createWebhook(t, { name, events, headers, secret: `whsec_${base64Of(24)}` });
    assert.equal(created.name, name);
    assert.deepEqual(created.events, events);
    assert.deepEqual(created.headers, { ...headers, 'X-H1': "!#$%&'*+.^_`|~ ok" });
    const other = await createWebhook(t, { secret: `whsec_${base64Of(64)}`, headers: { "!#$%&'*+.^_`|~0-9aZ": '' } });
    assert.equal(other.secret, SECRET_MASK);
    assert.deepEqual(other.headers, { "!#$%&'*+.^_`|~0-9aZ": '' });

    // The mask on PUT keeps the secret; PUT accepts an echoed GET with its read-only fields.
    const echoed = dataOf<WebhookRecord>(await t.call({ method: 'GET', url: `/api/v1/webhooks/${other.id}` }));
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/webhooks/${other.id}`, payload: echoed }));
  });
});
