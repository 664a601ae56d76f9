// "Check a site" (POST /inboxes/{id}/widget-origin-check): the answer follows the rule the widget
// applies (the launcher's 403 for the same origin), against the saved list or the one sent;
// nothing is saved; the refusals of an admin route.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { agentWith, createInbox } from '../../test/factories.ts';
import { assertError, buildTestApp, dataOf, type TestApp } from '../../test/helpers.ts';
import { createWidgetInbox, widgetCall } from '../../test/widget.ts';

interface Check {
  origin: string;
  allowed: boolean;
  any_site: boolean;
}

describe('widget origin check', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const check = (id: number | string, payload: unknown, as?: Awaited<ReturnType<typeof agentWith>> | null) =>
    t.call({
      method: 'POST',
      url: `/api/v1/inboxes/${id}/widget-origin-check`,
      payload: payload as Record<string, unknown>,
      ...(as !== undefined ? { as } : {}),
    });

  it('answers as the launcher does for the same origin, against the saved list', async () => {
    const chat = await createWidgetInbox(t, { trusted_domains: ['shop.example.com', '*.example.org', 'localhost:3000'] });
    const cases: Array<[string, string, boolean]> = [
      ['https://shop.example.com/cart?x=1', 'https://shop.example.com', true],
      ['shop.example.com', 'https://shop.example.com', true],
      ['http://shop.example.com:8080/', 'http://shop.example.com:8080', true],
      ['https://a.example.org', 'https://a.example.org', true],
      ['https://example.org', 'https://example.org', false],
      ['http://localhost:3000', 'http://localhost:3000', true],
      ['http://localhost:3001', 'http://localhost:3001', false],
      ['https://evil.test', 'https://evil.test', false],
      ['https://shop.example.com.evil.test', 'https://shop.example.com.evil.test', false],
      [t.deps.config.baseUrl, new URL(t.deps.config.baseUrl).origin, true],
    ];
    for (const [url, origin, allowed] of cases) {
      assert.deepEqual(dataOf<Check>(await check(chat.inbox.id, { url })), { origin, allowed, any_site: false }, url);
      const launcher = await widgetCall(t, { url: 'chat/settings/launcher', inbox: chat.uuid, headers: { origin } });
      assert.equal(launcher.statusCode, allowed ? 200 : 403, `the launcher agrees for ${origin}`);
    }
  });

  it('checks the list being edited when sent, saving nothing; an empty list allows every site', async () => {
    const chat = await createWidgetInbox(t, { trusted_domains: ['shop.example.com'] });
    const url = 'https://blog.example.net';
    assert.equal(dataOf<Check>(await check(chat.inbox.id, { url })).allowed, false);
    assert.deepEqual(dataOf<Check>(await check(chat.inbox.id, { url, trusted_domains: ['blog.example.net'] })), {
      origin: url,
      allowed: true,
      any_site: false,
    });
    assert.deepEqual(dataOf<Check>(await check(chat.inbox.id, { url, trusted_domains: [] })), {
      origin: url,
      allowed: true,
      any_site: true,
    });
    assert.equal(dataOf<Check>(await check(chat.inbox.id, { url })).allowed, false, 'nothing was saved');
    const saved = dataOf<{ config: { trusted_domains: string[] } }>(
      await t.call({ method: 'GET', url: `/api/v1/inboxes/${chat.inbox.id}` }),
    );
    assert.deepEqual(saved.config.trusted_domains, ['shop.example.com']);
  });

  it('refuses malformed addresses and lists with a 400 naming the field', async () => {
    const chat = await createWidgetInbox(t);
    const cases: Array<[string, unknown, string]> = [
      ['no url', {}, 'url'],
      ['an empty url', { url: '' }, 'url'],
      ['not text', { url: 42 }, 'url'],
      ['javascript:', { url: 'javascript:alert(1)' }, 'url'],
      ['ftp', { url: 'ftp://shop.example.com' }, 'url'],
      ['not an address', { url: 'https://exa mple.com' }, 'url'],
      ['a list entry with a scheme', { url: 'https://a.test', trusted_domains: ['https://a.test'] }, 'config.trusted_domains.0'],
    ];
    for (const [label, body, field] of cases) {
      const refused = assertError(await check(chat.inbox.id, body), 400, 'InputException', label);
      const fields = (refused.data as { errors?: Array<{ field: string }> } | null)?.errors?.map((e) => e.field) ?? [];
      assert.ok(
        fields.some((f) => f === field || f.endsWith(`/${field}`) || f.endsWith(`.${field}`)),
        `${label}: ${JSON.stringify(refused)}`,
      );
    }
    assertError(await check(chat.inbox.id, { url: 'https://a.test', extra: 1 }), 400, 'InputException', 'an unknown field');
  });

  it('refuses callers without the permission, unknown inboxes and email inboxes', async () => {
    const chat = await createWidgetInbox(t);
    const body = { url: 'https://a.test' };
    assertError(await check(chat.inbox.id, body, null), 401, 'UnauthorizedException');
    const agent = await agentWith(t, ['conversations:read_all']);
    assertError(await check(chat.inbox.id, body, agent), 403, 'PermissionException');
    const manager = await agentWith(t, ['inboxes:manage']);
    assert.equal(dataOf<Check>(await check(chat.inbox.id, body, manager)).allowed, true);
    assertError(await check(999_999, body), 404, 'NotFoundException');
    assertError(await check('nope', body), 404, 'NotFoundException', 'a malformed id');
    const email = await createInbox(t, { channel: 'email' });
    assertError(await check(email.id, body), 422, 'DataException');
  });
});
