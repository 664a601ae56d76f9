// The edge: email addresses, URLs and content types: what is accepted, and nothing changes
// on a refusal.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { edgeFixtures, type FieldErrors, refused } from '../../test/edge.ts';
import { buildTestApp, dataOf, type TestApp } from '../../test/helpers.ts';
import { isEmailAddress, isHttpUrl } from './formats.ts';

describe('edge', () => {
  let t: TestApp;
  let inboxId: number;

  before(async () => {
    t = await buildTestApp();
    ({ inboxId } = await edgeFixtures(t));
  });
  after(() => t.close());

  describe('email addresses', () => {
    it('international addresses are accepted wherever an email is', async () => {
      const agent = dataOf<{ id: number; email: string }>(
        await t.call({
          method: 'POST',
          url: '/api/v1/agents',
          payload: { first_name: 'Zoë', email: 'zoë@exämple.com', roles: ['Agent'], password: 'zoe-password-123' },
        }),
      );
      assert.equal(agent.email, 'zoë@exämple.com');
      const login = await t.call({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { email: 'ZOË@EXÄMPLE.COM', password: 'zoe-password-123' },
        as: null,
      });
      assert.equal(dataOf<{ id: number }>(login).id, agent.id);
      const padded = await t.call({
        method: 'POST',
        url: '/api/v1/contacts',
        payload: { first_name: 'Jürgen', email: ' Jürgen@Bücher.de ' },
      });
      const contact = dataOf<{ email: string }>(padded);
      assert.equal(contact.email, 'jürgen@bücher.de');
      const started = await t.call({
        method: 'POST',
        url: '/api/v1/conversations',
        payload: { inbox_id: inboxId, contact_email: '用户@例子.广告', content: 'Hi', initiator: 'contact' },
      });
      assert.equal(dataOf<{ contact: { email: string } }>(started).contact.email, '用户@例子.广告');
    });

    it('isEmailAddress: a table', () => {
      const valid = [
        'a@example.com',
        'first.last+tag@sub.example.co.uk',
        'zoë@exämple.com',
        '用户@例子.广告',
        "o'brien@example.ie",
        'x@localhost',
      ];
      valid.push('a@xn--exmple-cua.com');
      const invalid = [
        '',
        'plain',
        '@example.com',
        'a@',
        'a@@example.com',
        'a@b@example.com',
        'a..b@example.com',
        '.a@example.com',
        'a.@example.com',
      ];
      invalid.push(
        'a b@example.com',
        ' a@example.com',
        'a@example.com ',
        'a@-example.com',
        'a@example-.com',
        'a@exa_mple.com',
        'a@example..com',
      );
      invalid.push(
        'a@example.com.',
        'a@1.2.3.4',
        'a@[1.2.3.4]',
        '"quoted"@example.com',
        'a@ex%41mple.com',
        'a\u0000@example.com',
        'a@exa\u200bmple.com',
      );
      invalid.push(`${'a'.repeat(65)}@example.com`, `a@${'b'.repeat(64)}.com`);
      for (const email of valid) assert.equal(isEmailAddress(email), true, email);
      for (const email of invalid) assert.equal(isEmailAddress(email), false, email);
    });
  });

  describe('URLs', () => {
    const bad = [
      'javascript:alert(1)',
      'not a url',
      'ftp://example.com/a.png',
      'http://',
      'https:example.com/a.png',
      'data:image/png;base64,AAAA',
    ];
    bad.push('//example.com/a.png', 'https://user:secret@example.com/a.png', 'https://exa mple.com/a.png', 'https://example.com/\u0001');
    bad.push(`https://example.com/${'a'.repeat(2048)}`);

    it('avatar_url takes only absolute http(s) URLs, and nothing changes otherwise', async () => {
      for (const avatar_url of bad) {
        const body = refused(await t.call({ method: 'PUT', url: '/api/v1/agents/me', payload: { avatar_url } }), 400, 'InputException');
        assert.deepEqual(
          (body.data as FieldErrors).errors.map((e) => e.field),
          ['avatar_url'],
          avatar_url,
        );
        const payload = { first_name: 'U', email: `u${randomUUID()}@example.com`, roles: ['Agent'], avatar_url };
        const created = await t.call({ method: 'POST', url: '/api/v1/agents', payload });
        refused(created, 400, 'InputException');
      }
      const me = dataOf<{ avatar_url: string | null }>(await t.call({ method: 'GET', url: '/api/v1/agents/me' }));
      assert.equal(me.avatar_url, null);
      const set = await t.call({
        method: 'PUT',
        url: '/api/v1/agents/me',
        payload: { avatar_url: 'https://cdn.example.com/me.png?size=64' },
      });
      assert.equal(dataOf<{ avatar_url: string }>(set).avatar_url, 'https://cdn.example.com/me.png?size=64');
      assert.equal(
        dataOf<{ avatar_url: null }>(await t.call({ method: 'PUT', url: '/api/v1/agents/me', payload: { avatar_url: null } })).avatar_url,
        null,
      );
    });

    it('isHttpUrl: a table', () => {
      const good = [
        'http://example.com',
        'https://example.com/a/b.png?x=1#y',
        'HTTPS://EXAMPLE.COM/',
        'https://exämple.com/päth',
        'http://127.0.0.1:8080/x',
      ];
      for (const url of [...good, 'http://[::1]/']) {
        assert.equal(isHttpUrl(url), true, url);
      }
      for (const url of bad) assert.equal(isHttpUrl(url), false, url);
    });
  });

  describe('content types', () => {
    it('a JSON API: text/plain and multipart bodies are a 415 outside the upload route, and change nothing', async () => {
      const agent = await t.makeAgent();
      const before = dataOf<{ api_key: string }>(await t.call({ method: 'GET', url: '/api/v1/agents/me', as: agent })).api_key;
      for (const [url, type, payload] of [
        ['/api/v1/agents/me/api-key', 'text/plain', 'x'],
        ['/api/v1/tags', 'text/plain', '{"name":"Plain"}'],
        ['/api/v1/tags', 'multipart/form-data; boundary=b', '--b\r\nContent-Disposition: form-data; name="name"\r\n\r\nPlain\r\n--b--\r\n'],
      ] as const) {
        const as = url.endsWith('/api-key') ? agent : t.admin;
        refused(await t.call({ method: 'POST', url, payload, headers: { 'content-type': type }, as }), 415, 'InputException');
      }
      assert.equal(dataOf<{ api_key: string }>(await t.call({ method: 'GET', url: '/api/v1/agents/me', as: agent })).api_key, before);
      assert.equal(
        dataOf<Array<{ name: string }>>(await t.call({ method: 'GET', url: '/api/v1/tags' })).filter((tag) => tag.name === 'Plain').length,
        0,
      );
    });
  });
});
