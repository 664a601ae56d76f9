// The 21 authenticated endpoints the interface spec lists ("Authenticated REST endpoints"),
// each called once as its table row says, checking what the spec fixes: the status code,
// the envelope and the shape of `data`. The rules around them (validation, access, the
// fields' meaning) are tested in each domain's own tests.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createContact, createConversation, createInbox, createTeam, uniqueNumber } from '../../test/factories.ts';
import { assertError, buildTestApp, type TestApp } from '../../test/helpers.ts';
import { type FakeOpenAi, startFakeOpenAi } from '../../test/openai-server.ts';
import { createWebhook } from '../../test/webhooks.ts';

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The fields a record must carry (spec "Resources and their fields"), with a type check each. */
function assertFields(record: unknown, fields: Record<string, string>, label: string): void {
  assert.ok(isRecord(record), `${label}: an object`);
  for (const [field, type] of Object.entries(fields)) {
    assert.ok(field in record, `${label}: has ${field}`);
    const value = record[field];
    const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    assert.ok(type.split('|').includes(actual), `${label}.${field}: ${type} expected, got ${actual}`);
  }
}

const WEBHOOK = {
  id: 'number',
  created_at: 'string',
  updated_at: 'string',
  name: 'string',
  url: 'string',
  enabled: 'boolean',
  events: 'array',
  headers: 'object',
};
const OIDC = {
  id: 'number',
  created_at: 'string',
  updated_at: 'string',
  name: 'string',
  enabled: 'boolean',
  client_id: 'string',
  client_secret: 'string',
  provider: 'string',
  provider_url: 'string',
  redirect_uri: 'string',
  logo_url: 'string',
};

describe('the spec: every authenticated endpoint', () => {
  let t: TestApp;
  let openai: FakeOpenAi;
  before(async () => {
    t = await buildTestApp();
    openai = await startFakeOpenAi({ apiKey: 'sk-spec-test' });
    openai.behaviour = { kind: 'answer', text: 'Thanks a lot for your patience!' };
  });
  after(async () => {
    await t.close();
    await openai.close();
  });

  /** The success envelope of the contract: HTTP 200, `status: success`, the payload in `data`. */
  async function success(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: Json): Promise<unknown> {
    const res = await t.call({ method, url, ...(payload ? { payload } : {}) });
    assert.equal(res.statusCode, 200, `${method} ${url}: ${res.body}`);
    const body = res.json();
    assert.ok(isRecord(body));
    assert.equal(body['status'], 'success', `${method} ${url}`);
    return body['data'];
  }

  it('POST /api/v1/tags → Tag', async () => {
    const tag = await success('POST', '/api/v1/tags', { name: `Spec ${uniqueNumber()}` });
    assertFields(tag, { id: 'number', created_at: 'string', updated_at: 'string', name: 'string' }, 'Tag');
  });

  it('PUT /api/v1/agents/me/availability → Agent', async () => {
    const agent = await success('PUT', '/api/v1/agents/me/availability', { status: 'busy', source: 'user' });
    assertFields(agent, { id: 'number', availability_status: 'string', email: 'string', permissions: 'array' }, 'Agent');
    assert.equal((agent as Json)['availability_status'], 'busy');
  });

  it('POST and DELETE /api/v1/agents/{id}/api-key → {api_key, api_secret}, then true', async () => {
    const agent = await t.makeAgent();
    const pair = await success('POST', `/api/v1/agents/${agent.id}/api-key`);
    assertFields(pair, { api_key: 'string', api_secret: 'string' }, 'key pair');
    assert.equal(await success('DELETE', `/api/v1/agents/${agent.id}/api-key`), true);
  });

  it('PUT /api/v1/contacts/{id}/block → the contact', async () => {
    const contact = await createContact(t);
    const blocked = await success('PUT', `/api/v1/contacts/${contact.id}/block`, { enabled: false });
    assertFields(blocked, { id: 'number', enabled: 'boolean' }, 'contact');
    assert.equal((blocked as Json)['enabled'], false);
  });

  it('POST /api/v1/statuses → {id, created_at, name}', async () => {
    const status = await success('POST', '/api/v1/statuses', { name: `Spec status ${uniqueNumber()}`, category: 'waiting' });
    assertFields(status, { id: 'number', created_at: 'string', name: 'string' }, 'status');
  });

  it('PUT /api/v1/ai/provider → true, then POST /api/v1/ai/completion → the generated string', async () => {
    assert.equal(
      await success('PUT', '/api/v1/ai/provider', { provider: 'openai', api_key: 'sk-spec-test', base_url: openai.baseUrl }),
      true,
    );
    const text = await success('POST', '/api/v1/ai/completion', { prompt_key: 'make_friendly', content: 'Wait.' });
    assert.equal(text, 'Thanks a lot for your patience!');
  });

  it('PUT and DELETE /api/v1/macros/{id} → Macro, then true', async () => {
    const created = await success('POST', '/api/v1/macros', { name: `Spec macro ${uniqueNumber()}` });
    assert.ok(isRecord(created));
    const macro = await success('PUT', `/api/v1/macros/${created['id']}`, { ...created, name: `Renamed ${uniqueNumber()}` });
    assertFields(macro, { id: 'number', created_at: 'string', updated_at: 'string', name: 'string', actions: 'object|array' }, 'Macro');
    assert.equal(await success('DELETE', `/api/v1/macros/${created['id']}`), true);
  });

  it('GET /api/v1/conversations/assigned → the paged wrapper', async () => {
    const page = await success('GET', '/api/v1/conversations/assigned?page=1&page_size=30');
    assertFields(page, { results: 'array', total: 'number', per_page: 'number', total_pages: 'number', page: 'number' }, 'paged');
  });

  it('GET /api/v1/conversations/{cuuid}/messages/{uuid} → Message', async () => {
    const conversation = await createConversation(t);
    const messages = await success('GET', `/api/v1/conversations/${conversation.uuid}/messages`);
    const list = isRecord(messages) ? messages['results'] : messages;
    assert.ok(Array.isArray(list) && list.length > 0);
    const first = list[0];
    assert.ok(isRecord(first));
    const message = await success('GET', `/api/v1/conversations/${conversation.uuid}/messages/${first['uuid']}`);
    assertFields(
      message,
      { id: 'number', uuid: 'string', type: 'string', status: 'string', content: 'string', private: 'boolean' },
      'Message',
    );
  });

  it('GET /api/v1/reports/overview/tags → the tag distribution report', async () => {
    const report = await success('GET', '/api/v1/reports/overview/tags?days=30');
    assertFields(
      report,
      { top_tags: 'array', tagged_conversations: 'number', untagged_conversations: 'number', tagged_percentage: 'number' },
      'report',
    );
  });

  it('GET /api/v1/teams/{id} → Team', async () => {
    const team = await createTeam(t);
    assertFields(await success('GET', `/api/v1/teams/${team.id}`), { id: 'number', name: 'string' }, 'Team');
  });

  it('POST, GET, PUT …/toggle and DELETE /api/v1/inboxes → Inbox, Inbox, Inbox, true', async () => {
    const inbox = await createInbox(t);
    const fields = { id: 'number', name: 'string', channel: 'string', enabled: 'boolean', csat_enabled: 'boolean', config: 'object' };
    assertFields(await success('GET', `/api/v1/inboxes/${inbox.id}`), fields, 'Inbox');
    const toggled = await success('PUT', `/api/v1/inboxes/${inbox.id}/toggle`, { enabled: false });
    assertFields(toggled, fields, 'Inbox');
    assert.equal((toggled as Json)['enabled'], false);
    assert.equal(await success('DELETE', `/api/v1/inboxes/${inbox.id}`), true);
  });

  it('GET /api/v1/oidc/{id} → the provider in `{success: true, data}` (no status key)', async () => {
    const created = await success('POST', '/api/v1/oidc', {
      name: `Spec IdP ${uniqueNumber()}`,
      provider: 'Custom',
      provider_url: 'https://idp.example.com/realms/support',
      client_id: 'parley',
      client_secret: 'a-client-secret',
    });
    assert.ok(isRecord(created));
    const res = await t.call({ method: 'GET', url: `/api/v1/oidc/${created['id']}` });
    assert.equal(res.statusCode, 200);
    const body = res.json();
    assert.ok(isRecord(body));
    assert.deepEqual(Object.keys(body).sort(), ['data', 'success']);
    assert.equal(body['success'], true);
    assertFields(body['data'], OIDC, 'OIDC provider');
    assert.equal((body['data'] as Json)['client_secret'], '••••••••••');
  });

  it('PUT /api/v1/webhooks/{id} and PUT …/toggle → Webhook', async () => {
    const webhook = await createWebhook(t);
    const updated = await success('PUT', `/api/v1/webhooks/${webhook.id}`, {
      name: `Renamed ${uniqueNumber()}`,
      url: 'https://hooks.example.com/parley',
      enabled: true,
      events: ['conversation.created', 'message.created'],
      headers: { 'X-Team': 'support' },
    });
    assertFields(updated, WEBHOOK, 'Webhook');
    const toggled = await success('PUT', `/api/v1/webhooks/${webhook.id}/toggle`, { enabled: false });
    assertFields(toggled, WEBHOOK, 'Webhook');
    assert.equal((toggled as Json)['enabled'], false);
  });

  it('every one of them needs credentials', async () => {
    const routes: Array<[string, string]> = [
      ['POST', '/api/v1/tags'],
      ['PUT', '/api/v1/agents/me/availability'],
      ['POST', '/api/v1/agents/1/api-key'],
      ['DELETE', '/api/v1/agents/1/api-key'],
      ['PUT', '/api/v1/contacts/1/block'],
      ['POST', '/api/v1/statuses'],
      ['POST', '/api/v1/ai/completion'],
      ['PUT', '/api/v1/ai/provider'],
      ['PUT', '/api/v1/macros/1'],
      ['DELETE', '/api/v1/macros/1'],
      ['GET', '/api/v1/conversations/assigned'],
      ['GET', '/api/v1/conversations/00000000-0000-4000-8000-000000000000/messages/00000000-0000-4000-8000-000000000000'],
      ['GET', '/api/v1/reports/overview/tags'],
      ['GET', '/api/v1/teams/1'],
      ['GET', '/api/v1/inboxes/1'],
      ['POST', '/api/v1/inboxes'],
      ['PUT', '/api/v1/inboxes/1/toggle'],
      ['DELETE', '/api/v1/inboxes/1'],
      ['GET', '/api/v1/oidc/1'],
      ['PUT', '/api/v1/webhooks/1'],
      ['PUT', '/api/v1/webhooks/1/toggle'],
    ];
    assert.equal(routes.length, 21);
    for (const [method, url] of routes) {
      const res = await t.call({
        method: method as 'GET',
        url,
        as: null,
        payload: method === 'GET' || method === 'DELETE' ? undefined : {},
      });
      assertError(res, 401, 'UnauthorizedException', `${method} ${url}`);
    }
  });
});
