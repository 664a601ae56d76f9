// A PUT accepts the record as its GET returned it (docs/api.md, "Input rules"): clients read,
// change a field and send the record back. For every PUT route of the API that has a matching
// GET: the fetched record sent back unchanged → 2xx and the record unchanged (but for
// `updated_at`); the same with an unknown field → 400 naming it, nothing changed. The PUT
// routes without such a GET (commands) are listed with the reason, and the list of PUT routes
// is read from the OpenAPI document, so a new PUT route must join one or the other.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createBusinessHours, createContact, createConversation, createInbox, createTeam } from '../../test/factories.ts';
import { assertError, buildTestApp, dataOf, type TestApp } from '../../test/helpers.ts';
import { createWebhook } from '../../test/webhooks.ts';

type Json = Record<string, unknown>;

interface Case {
  /** Creates the record; answers the concrete path of its PUT and GET. */
  setup(t: TestApp): Promise<{ put: string; get: string; pick?: (answer: unknown) => Json }>;
}

const one = (path: string, id: number | string) => ({ put: `${path}/${id}`, get: `${path}/${id}` });
let n = 0;
const unique = (label: string) => `${label} ${process.pid}-${++n}`;
const post = async (t: TestApp, url: string, payload: Json) =>
  dataOf<Json & { id: number }>(await t.call({ method: 'POST', url, payload }));

/** Every PUT route that replaces or updates a record its GET answers. */
const CASES: Record<string, Case> = {
  '/api/v1/agents/me': { setup: async () => ({ put: '/api/v1/agents/me', get: '/api/v1/agents/me' }) },
  '/api/v1/agents/me/notification-settings': {
    setup: async () => ({ put: '/api/v1/agents/me/notification-settings', get: '/api/v1/agents/me/notification-settings' }),
  },
  '/api/v1/agents/{id}': { setup: async (t) => one('/api/v1/agents', (await t.makeAgent({ roles: ['Agent'] })).id) },
  '/api/v1/ai/provider': {
    setup: async (t) => {
      dataOf(await t.call({ method: 'PUT', url: '/api/v1/ai/provider', payload: { provider: 'openai', api_key: 'sk-test-key' } }));
      return { put: '/api/v1/ai/provider', get: '/api/v1/ai/provider' };
    },
  },
  '/api/v1/ai/prompts/{key}': {
    setup: async () => ({
      put: '/api/v1/ai/prompts/make_friendly',
      get: '/api/v1/ai/prompts',
      pick: (list) => (list as Json[]).find((p) => p['key'] === 'make_friendly') ?? {},
    }),
  },
  '/api/v1/business-hours/{id}': { setup: async (t) => one('/api/v1/business-hours', (await createBusinessHours(t)).id) },
  '/api/v1/contacts/{id}': {
    setup: async (t) => one('/api/v1/contacts', (await createContact(t, { first_name: 'Grace', phone_number: '+33 6 12 34 56 78' })).id),
  },
  '/api/v1/conversations/{uuid}/draft': {
    setup: async (t) => {
      const draft = `/api/v1/conversations/${(await createConversation(t)).uuid}/draft`;
      dataOf(await t.call({ method: 'PUT', url: draft, payload: { content: '<p>Half a reply</p>', private: true } }));
      return { put: draft, get: draft };
    },
  },
  '/api/v1/inboxes/{id}': { setup: async (t) => one('/api/v1/inboxes', (await createInbox(t, { channel: 'email' })).id) },
  '/api/v1/macros/{id}': {
    setup: async (t) =>
      one('/api/v1/macros', (await post(t, '/api/v1/macros', { name: unique('Macro'), message_content: '<p>Hi</p>' })).id),
  },
  '/api/v1/oidc/{id}': {
    setup: async (t) => {
      const created = await post(t, '/api/v1/oidc', {
        name: unique('SSO'),
        provider_url: 'https://sso.example.com/realms/staff',
        client_id: 'parley',
        client_secret: 'a-client-secret',
      });
      return one('/api/v1/oidc', created.id);
    },
  },
  '/api/v1/roles/{id}': {
    setup: async (t) => one('/api/v1/roles', (await post(t, '/api/v1/roles', { name: unique('Role'), permissions: ['messages:read'] })).id),
  },
  '/api/v1/settings/general': { setup: async () => ({ put: '/api/v1/settings/general', get: '/api/v1/settings/general' }) },
  '/api/v1/sla/{id}': {
    setup: async (t) => one('/api/v1/sla', (await post(t, '/api/v1/sla', { name: unique('SLA'), first_response_minutes: 30 })).id),
  },
  '/api/v1/statuses/{id}': {
    setup: async (t) => {
      const created = await post(t, '/api/v1/statuses', { name: unique('Status'), category: 'waiting' });
      return {
        put: `/api/v1/statuses/${created.id}`,
        get: '/api/v1/statuses',
        pick: (list) => (list as Json[]).find((s) => s['id'] === created.id) ?? {},
      };
    },
  },
  '/api/v1/tags/{id}': {
    setup: async (t) => {
      const created = await post(t, '/api/v1/tags', { name: unique('tag') });
      return {
        put: `/api/v1/tags/${created.id}`,
        get: '/api/v1/tags',
        pick: (list) => (list as Json[]).find((s) => s['id'] === created.id) ?? {},
      };
    },
  },
  '/api/v1/teams/{id}': { setup: async (t) => one('/api/v1/teams', (await createTeam(t)).id) },
  '/api/v1/webhooks/{id}': {
    setup: async (t) => one('/api/v1/webhooks', (await createWebhook(t, { headers: { Authorization: 'Bearer x', 'X-Team': 'a' } })).id),
  },
};

/** PUT routes that are commands on a record, not the record: their body is not what a GET answers. */
const COMMANDS: Record<string, string> = {
  '/api/v1/agents/me/availability': 'sets one field; GET /agents/me answers the agent',
  '/api/v1/contacts/{id}/block': 'blocks or unblocks; the body is {enabled}',
  '/api/v1/conversations/{uuid}/status': 'a change of the conversation, not a record of its own',
  '/api/v1/conversations/{uuid}/priority': 'a change of the conversation, not a record of its own',
  '/api/v1/conversations/{uuid}/assignee/user': 'a change of the conversation, not a record of its own',
  '/api/v1/conversations/{uuid}/assignee/team': 'a change of the conversation, not a record of its own',
  '/api/v1/conversations/{uuid}/assignee/user/remove': 'a command without a body',
  '/api/v1/conversations/{uuid}/assignee/team/remove': 'a command without a body',
  '/api/v1/conversations/{uuid}/sla': 'applies a policy; GET answers the applied SLA, another shape',
  '/api/v1/conversations/{uuid}/last-seen': 'a command without a body',
  '/api/v1/conversations/{uuid}/mark-unread': 'a command without a body',
  '/api/v1/inboxes/{id}/toggle': 'the spec’s toggle: {enabled}',
  '/api/v1/webhooks/{id}/toggle': 'the spec’s toggle: {enabled}',
  '/api/v1/notifications/{id}/read': 'a command without a body',
  '/api/v1/notifications/{id}/unread': 'a command without a body',
  '/api/v1/teams/{id}/members': 'replaces the member list: a list of agent ids, where GET answers agents',
};

/** What must come back the same: the record without `updated_at` (a save may touch it). */
function comparable(record: Json): Json {
  const { updated_at: _updated, ...rest } = record;
  return rest;
}

describe('a PUT accepts the record as its GET returned it', { timeout: 300_000 }, () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const fetch = async (get: string, pick?: (answer: unknown) => Json) => {
    const res = await t.call({ method: 'GET', url: get });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json() as { data: unknown };
    return (pick ?? ((a) => a as Json))(body.data);
  };

  it('every PUT route is in the table or listed as a command', async () => {
    const res = await t.call({ method: 'GET', url: '/api/v1/openapi.json', as: null });
    const doc = res.json() as { paths: Record<string, Record<string, unknown>> };
    const puts = Object.entries(doc.paths)
      .filter(([, operations]) => 'put' in operations)
      .map(([path]) => path.replace(/\{cuuid\}/, '{uuid}'))
      .sort();
    assert.ok(puts.length > 20, `${puts.length} PUT routes`);
    const known = new Set([...Object.keys(CASES), ...Object.keys(COMMANDS)]);
    assert.deepEqual(
      puts.filter((path) => !known.has(path)),
      [],
    );
    assert.deepEqual(
      [...known].filter((path) => !puts.includes(path)),
      [],
    );
  });

  for (const [route, { setup }] of Object.entries(CASES)) {
    it(`PUT ${route}: the fetched record sent back → 2xx, unchanged; with an unknown field → 400`, async () => {
      const { put, get, pick } = await setup(t);
      const record = await fetch(get, pick);
      assert.ok(Object.keys(record).length > 0, 'a record');
      const res = await t.call({ method: 'PUT', url: put, payload: record });
      assert.ok(res.statusCode >= 200 && res.statusCode < 300, `${route}: ${res.statusCode} ${res.body}`);
      assert.deepEqual(comparable(await fetch(get, pick)), comparable(record), route);

      // Read-only fields are ignored whatever they hold.
      if ('created_at' in record) {
        const odd = await t.call({ method: 'PUT', url: put, payload: { ...record, created_at: 'yesterday', updated_at: 7 } });
        assert.ok(odd.statusCode >= 200 && odd.statusCode < 300, `${route}: ${odd.statusCode} ${odd.body}`);
        assert.deepEqual(comparable(await fetch(get, pick)), comparable(record), `${route}: read-only fields ignored`);
      }

      const before = await fetch(get, pick);
      const refused = assertError(
        await t.call({ method: 'PUT', url: put, payload: { ...record, no_such_field: 1 } }),
        400,
        'InputException',
        route,
      );
      assert.match(refused.message, /no_such_field/, route);
      assert.deepEqual(await fetch(get, pick), before, `${route}: nothing changed`);
    });
  }
});
