// The edge of the widget API: inbox selection, blocked addresses, CORS and preflights, rate limits.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createInbox } from '../../test/factories.ts';
import { assertError, buildTestApp, dataOf, type TestApp } from '../../test/helpers.ts';
import { createWidgetInbox, startVisitor, WIDGET, widgetCall } from '../../test/widget.ts';
import { isOriginTrusted } from './widget.edge.ts';

describe('widget edge', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ env: { TRUST_PROXY: '1', WIDGET_RATE_LIMIT_PER_MINUTE: '40' } });
  });
  after(() => t.close());

  it('selects the inbox by header or query (header wins); missing 400; malformed, unknown, disabled, email 404', async () => {
    const chat = await createWidgetInbox(t, { brand_name: 'Acme' });
    const other = await createWidgetInbox(t, { brand_name: 'Other' });
    const brand = async (res: Awaited<ReturnType<typeof widgetCall>>) => dataOf<{ brand_name: string }>(res).brand_name;
    assert.equal(await brand(await widgetCall(t, { url: 'chat/settings', inbox: chat.uuid })), 'Acme');
    assert.equal(await brand(await widgetCall(t, { url: `chat/settings?inbox_id=${other.uuid}`, inbox: null })), 'Other');
    assert.equal(await brand(await widgetCall(t, { url: `chat/settings?inbox_id=${other.uuid}`, inbox: chat.uuid })), 'Acme');
    assertError(await widgetCall(t, { url: 'chat/settings', inbox: null }), 400, 'InputException');
    const disabled = await createWidgetInbox(t);
    await t.call({ method: 'PUT', url: `/api/v1/inboxes/${disabled.inbox.id}/toggle`, payload: { enabled: false } });
    const email = await createInbox(t, { channel: 'email' });
    for (const uuid of ['nope', '00000000-0000-4000-8000-000000000000', disabled.uuid, email.uuid, '1']) {
      const res = assertError(await widgetCall(t, { url: 'chat/settings', inbox: uuid }), 404, 'NotFoundException');
      assert.equal(res.message, 'Inbox not found');
    }
  });

  it('accepts and ignores unknown query parameters (a cache-buster) on widget routes only', async () => {
    const chat = await createWidgetInbox(t, { brand_name: 'Busted' });
    const settings = await widgetCall(t, { url: `chat/settings?inbox_id=${chat.uuid}&_=1700000000&x=1`, inbox: null });
    assert.equal(dataOf<{ brand_name: string }>(settings).brand_name, 'Busted');
    const visitor = await startVisitor(t, chat.uuid);
    dataOf(await widgetCall(t, { url: 'chat/conversations?_=1700000000', inbox: chat.uuid, token: visitor.token }));
    const sent = await widgetCall(t, {
      method: 'POST',
      url: `chat/conversations/${visitor.conversationUuid}/message?_=1`,
      inbox: chat.uuid,
      token: visitor.token,
      payload: { message: 'busted' },
    });
    dataOf(sent);
    // A repeated inbox_id is still not one inbox; the rest of the API still refuses unknown parameters.
    assertError(
      await widgetCall(t, { url: `chat/settings?inbox_id=${chat.uuid}&inbox_id=${chat.uuid}&_=1`, inbox: null }),
      404,
      'NotFoundException',
    );
    assertError(await t.call({ method: 'GET', url: '/api/v1/inboxes?_=1700000000' }), 400, 'InputException');
  });

  it('settings hide the secret, trusted domains, blocked addresses and session lifetime; launcher has exactly its shape', async () => {
    const chat = await createWidgetInbox(t, {
      trusted_domains: ['example.com'],
      blocked_ips: ['192.0.2.1'],
      prechat_form: {
        enabled: true,
        fields: [
          { key: 'name', type: 'text', label: 'Name', is_default: true },
          { key: 'off', type: 'text', label: 'Off', enabled: false },
        ],
      },
    });
    const settings = dataOf<Record<string, unknown>>(await widgetCall(t, { url: 'chat/settings', inbox: chat.uuid }));
    for (const hidden of ['secret', 'trusted_domains', 'blocked_ips', 'session_duration']) assert.ok(!(hidden in settings), hidden);
    assert.ok(!JSON.stringify(settings).includes(chat.secret));
    assert.equal(settings['business_hours'], null);
    assert.equal(settings['working_hours_utc_offset'], null);
    assert.deepEqual(
      (settings['prechat_form'] as { fields: Array<{ key: string }> }).fields.map((f) => f.key),
      ['name'],
    );
    assert.ok(settings['file_upload']);
    const launcher = await widgetCall(t, {
      url: `chat/settings/launcher?inbox_id=${chat.uuid}`,
      inbox: null,
      headers: { origin: 'https://example.com:8443' },
    });
    assert.equal(launcher.headers['access-control-allow-origin'], '*');
    assert.deepEqual(dataOf(launcher), {
      launcher: { spacing: { side: 20, bottom: 20 }, logo_url: '', position: 'right', color: '#2563eb' },
      colors: { primary: '#2563eb' },
    });
  });

  it('launcher: a site the inbox does not trust gets a 403 naming it, readable by its page; Parley itself and no Origin pass', async () => {
    const chat = await createWidgetInbox(t, { trusted_domains: ['example.com'] });
    const launcher = (origin?: string) =>
      widgetCall(t, { url: `chat/settings/launcher?inbox_id=${chat.uuid}`, inbox: null, ...(origin ? { headers: { origin } } : {}) });
    const refused = await launcher('https://evil.test');
    assert.equal(
      assertError(refused, 403, 'PermissionException').message,
      "this site (https://evil.test) is not in the inbox's allowed sites",
    );
    assert.equal(refused.headers['access-control-allow-origin'], '*', 'the page may read why');
    for (const origin of ['http://example.com', 'https://example.com:3000', undefined, new URL(t.deps.config.baseUrl).origin]) {
      dataOf(await launcher(origin));
    }
    // Every site, when the list is empty.
    const open = await createWidgetInbox(t);
    dataOf(
      await widgetCall(t, { url: `chat/settings/launcher?inbox_id=${open.uuid}`, inbox: null, headers: { origin: 'https://evil.test' } }),
    );
  });

  it('refuses blocked addresses (exact and CIDR) through TRUST_PROXY and X-Forwarded-For', async () => {
    const chat = await createWidgetInbox(t, { blocked_ips: ['203.0.113.7', '198.51.100.0/24'] });
    for (const address of ['203.0.113.7', '198.51.100.42']) {
      assertError(
        await widgetCall(t, { url: 'chat/settings', inbox: chat.uuid, headers: { 'x-forwarded-for': address } }),
        403,
        'PermissionException',
      );
    }
    dataOf(await widgetCall(t, { url: 'chat/settings', inbox: chat.uuid, headers: { 'x-forwarded-for': '203.0.113.8' } }));
    // One proxy: a client-written left part is ignored.
    dataOf(await widgetCall(t, { url: 'chat/settings', inbox: chat.uuid, headers: { 'x-forwarded-for': '203.0.113.7, 203.0.113.9' } }));
  });

  it('CORS: trusted origins echoed with Vary, others 403 without allow headers; preflight 204', async () => {
    const chat = await createWidgetInbox(t, { trusted_domains: ['example.com', '*.example.org'] });
    const ok = await widgetCall(t, { url: 'chat/settings', inbox: chat.uuid, headers: { origin: 'https://example.com' } });
    assert.equal(ok.headers['access-control-allow-origin'], 'https://example.com');
    assert.match(String(ok.headers['vary']), /Origin/);
    assert.match(String(ok.headers['access-control-expose-headers']), /X-Service-Clear-Visitor/);
    assert.equal(ok.headers['access-control-allow-credentials'], undefined);
    const sub = await widgetCall(t, { url: 'chat/settings', inbox: chat.uuid, headers: { origin: 'https://a.b.example.org' } });
    assert.equal(sub.headers['access-control-allow-origin'], 'https://a.b.example.org');
    for (const origin of ['https://example.org', 'https://evil.com', 'https://example.com.evil.com', 'null']) {
      const res = await widgetCall(t, { url: 'chat/settings', inbox: chat.uuid, headers: { origin } });
      assertError(res, 403, 'PermissionException', origin);
      assert.equal(res.headers['access-control-allow-origin'], undefined, origin);
    }
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: `${WIDGET}/chat/conversations/init?inbox_id=${chat.uuid}`,
      headers: {
        origin: 'https://example.com',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization',
      },
    });
    assert.equal(preflight.statusCode, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], 'https://example.com');
    assert.match(String(preflight.headers['access-control-allow-headers']), /X-Service-Visitor-Token/);
    const refused = await t.app.inject({
      method: 'OPTIONS',
      url: `${WIDGET}/chat/conversations/init?inbox_id=${chat.uuid}`,
      headers: { origin: 'https://evil.com', 'access-control-request-method': 'POST' },
    });
    assert.equal(refused.statusCode, 204);
    assert.equal(refused.headers['access-control-allow-origin'], undefined);
    const open = await createWidgetInbox(t);
    const anyOrigin = await widgetCall(t, { url: 'chat/settings', inbox: open.uuid, headers: { origin: 'https://anything.test' } });
    assert.equal(anyOrigin.headers['access-control-allow-origin'], 'https://anything.test');
  });

  it('matches trusted domains as a table', () => {
    const cases: Array<[string[], string, boolean]> = [
      [[], 'https://x.test', true],
      [['example.com'], 'https://example.com:8443', true],
      [['example.com'], 'https://www.example.com', false],
      [['*.example.com'], 'https://www.example.com', true],
      [['*.example.com'], 'https://example.com', false],
      [['localhost:3000'], 'http://localhost:3000', true],
      [['localhost:3000'], 'http://localhost:3001', false],
      [['example.com'], 'null', false],
    ];
    for (const [list, origin, expected] of cases) assert.equal(isOriginTrusted(list, origin), expected, `${list} ${origin}`);
  });

  it('limits requests per address (429 with Retry-After), other addresses unaffected', async () => {
    const chat = await createWidgetInbox(t);
    const from = (address: string) => widgetCall(t, { url: 'chat/settings', inbox: chat.uuid, headers: { 'x-forwarded-for': address } });
    for (let i = 0; i < 40; i += 1) dataOf(await from('192.0.2.50'));
    const limited = await from('192.0.2.50');
    assertError(limited, 429, 'RateLimitException');
    assert.ok(Number(limited.headers['retry-after']) >= 1);
    dataOf(await from('192.0.2.51'));
  });

  it('charges preflights to the per-address limit before any inbox lookup', async () => {
    const chat = await createWidgetInbox(t);
    const preflight = (address: string) =>
      t.app.inject({
        method: 'OPTIONS',
        url: `${WIDGET}/chat/conversations/init?inbox_id=${chat.uuid}`,
        headers: { origin: 'https://example.com', 'access-control-request-method': 'POST', 'x-forwarded-for': address },
      });
    for (let i = 0; i < 40; i += 1) assert.equal((await preflight('192.0.2.60')).statusCode, 204);
    const limited = await preflight('192.0.2.60');
    assert.equal(limited.statusCode, 429);
    assert.ok(Number(limited.headers['retry-after']) >= 1);
    assert.equal(limited.headers['access-control-allow-methods'], undefined, 'no preflight allowance');
    const get = await widgetCall(t, { url: 'chat/settings', inbox: chat.uuid, headers: { 'x-forwarded-for': '192.0.2.60' } });
    assertError(get, 429, 'RateLimitException', 'the same counter as the other requests');
    assert.equal((await preflight('192.0.2.61')).statusCode, 204);
  });

  it('refuses a session of another inbox, a bad token, and a missing one (401)', async () => {
    const chat = await createWidgetInbox(t);
    const other = await createWidgetInbox(t);
    const visitor = await startVisitor(t, chat.uuid);
    dataOf(await widgetCall(t, { url: 'chat/auth/me', inbox: chat.uuid, token: visitor.token }));
    assertError(await widgetCall(t, { url: 'chat/auth/me', inbox: other.uuid, token: visitor.token }), 401, 'UnauthorizedException');
    assertError(await widgetCall(t, { url: 'chat/auth/me', inbox: chat.uuid, token: 'x'.repeat(43) }), 401, 'UnauthorizedException');
    assertError(await widgetCall(t, { url: 'chat/auth/me', inbox: chat.uuid }), 401, 'UnauthorizedException');
    assertError(
      await widgetCall(t, { url: 'chat/auth/me', inbox: chat.uuid, headers: { authorization: 'Basic abc' } }),
      401,
      'UnauthorizedException',
    );
  });
});
