// The edge: integers are plain decimal digits (path, query, body), unknown query parameters,
// and what validation messages say.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Answer, edgeFixtures, type FieldErrors, fieldsOf, type Json, jsonText, refused } from '../../test/edge.ts';
import { buildTestApp, dataOf, type TestApp } from '../../test/helpers.ts';

describe('edge', () => {
  let t: TestApp;
  let teamId: number;
  let inboxId: number;
  let conversation: string;

  before(async () => {
    t = await buildTestApp();
    ({ teamId, inboxId, conversation } = await edgeFixtures(t));
  });
  after(() => t.close());

  describe('integers are plain decimal digits', () => {
    it('a path id written otherwise, or out of range, is a 404 like an unknown id', async () => {
      dataOf(await t.call({ method: 'GET', url: `/api/v1/teams/${teamId}` }));
      const variants = [
        `0x${teamId.toString(16)}`,
        `${teamId}e0`,
        `%2B${teamId}`,
        `0${teamId}`,
        `${teamId}.0`,
        `%20${teamId}`,
        `${teamId}%20`,
      ];
      variants.push('9007199254740993', '2147483648');
      for (const id of variants) {
        const body = refused(await t.call({ method: 'GET', url: `/api/v1/teams/${id}` }), 404, 'NotFoundException');
        assert.match(body.message, /malformed identifier/, id);
      }
    });

    it('a path uuid is only the 36 characters: a urn:uuid: prefix is a 404 like an unknown uuid, not a database error', async () => {
      dataOf(await t.call({ method: 'GET', url: `/api/v1/conversations/${conversation}` }));
      dataOf(await t.call({ method: 'GET', url: `/api/v1/conversations/${conversation.toUpperCase()}` }));
      for (const uuid of [`urn:uuid:${conversation}`, `{${conversation}}`, conversation.replace(/-/g, '')]) {
        refused(await t.call({ method: 'GET', url: `/api/v1/conversations/${uuid}` }), 404, 'NotFoundException');
      }
    });

    it('a query integer written otherwise, or past the safe integers, is a 400 naming it', async () => {
      const cases: Array<[string, string]> = [
        ['/api/v1/conversations/all?page_size=0x2', 'page_size'],
        ['/api/v1/conversations/all?page_size=2.0', 'page_size'],
        ['/api/v1/conversations/all?page=%2B1', 'page'],
        ['/api/v1/conversations/all?page=01', 'page'],
        ['/api/v1/conversations/all?page=99999999999999999999', 'page'],
        ['/api/v1/conversations/all?inbox_id=1&inbox_id=0x2', 'inbox_id.1'],
        ['/api/v1/reports/overview/tags?days=1e1', 'days'],
        ['/api/v1/search?q=x&limit=1e1', 'limit'],
      ];
      for (const [url, field] of cases) {
        const body = refused(await t.call({ method: 'GET', url }), 400, 'InputException');
        assert.deepEqual(fieldsOf(body), [field], url);
      }
      assert.equal(
        dataOf<{ per_page: number }>(await t.call({ method: 'GET', url: '/api/v1/conversations/all?page_size=2&page=1' })).per_page,
        2,
      );
      dataOf(await t.call({ method: 'GET', url: `/api/v1/conversations/all?inbox_id=${inboxId}&inbox_id=2` }));
      dataOf(await t.call({ method: 'GET', url: '/api/v1/reports/overview/tags?days=10' }));
    });

    it('a body integer written with a fraction or exponent, or unsafe, is a 400 and changes nothing', async () => {
      const url = `/api/v1/conversations/${conversation}/assignee/user`;
      for (const written of ['3.0', '1e0', `${t.admin.id}.0`, `${t.admin.id}E0`, '9007199254740993', '1e400']) {
        const body = refused(await t.call({ method: 'PUT', url, ...jsonText(`{"assignee_id":${written}}`) }), 400, 'InputException');
        assert.deepEqual(fieldsOf(body), ['assignee_id'], written);
      }
      const team = refused(
        await t.call({ method: 'POST', url: '/api/v1/teams', ...jsonText('{"name":"Fraction","max_auto_assigned_conversations":1.0}') }),
        400,
        'InputException',
      );
      assert.deepEqual(fieldsOf(team), ['max_auto_assigned_conversations']);
      const unchanged = dataOf<{ assigned_user_id: number | null }>(
        await t.call({ method: 'GET', url: `/api/v1/conversations/${conversation}` }),
      );
      assert.equal(unchanged.assigned_user_id, null);
      assert.equal(
        dataOf<Array<{ name: string }>>(await t.call({ method: 'GET', url: '/api/v1/teams' })).filter((x) => x.name === 'Fraction').length,
        0,
      );
      const assigned = await t.call({ method: 'PUT', url, ...jsonText(`{"assignee_id":${t.admin.id}}`) });
      assert.equal(dataOf<{ assigned_user_id: number }>(assigned).assigned_user_id, t.admin.id);
    });

    it('numbers where the schema takes any number stay numbers, however written', async () => {
      const contact = dataOf<{ custom_attributes: Json }>(
        await t.call({
          method: 'POST',
          url: '/api/v1/contacts',
          ...jsonText('{"first_name":"Num","email":"num@example.com","custom_attributes":{"price":3.0,"ratio":2.5e-1,"big":1e3}}'),
        }),
      );
      assert.deepEqual(contact.custom_attributes, { price: 3, ratio: 0.25, big: 1000 });
    });
  });

  describe('query parameters', () => {
    it('an unknown one is a 400 naming it (all of them), also on routes that take none', async () => {
      const one = refused(await t.call({ method: 'GET', url: '/api/v1/conversations/all?per_page=5' }), 400, 'InputException');
      assert.deepEqual(fieldsOf(one), ['per_page']);
      assert.match(one.message, /per_page/);
      const two = refused(await t.call({ method: 'GET', url: '/api/v1/contacts?per_page=5&sort=name&page=1' }), 400, 'InputException');
      assert.deepEqual(fieldsOf(two), ['per_page', 'sort']);
      assert.match(two.message, /per_page, sort/);
      for (const url of ['/api/v1/tags?x=1', `/api/v1/teams/${teamId}?expand=members`, '/api/v1/openapi.json?v=2']) {
        const res = await t.call({ method: 'GET', url, as: url.includes('openapi') ? null : undefined });
        assert.deepEqual(fieldsOf(refused(res, 400, 'InputException')), [url.split('?')[1]?.split('=')[0]]);
      }
      dataOf(await t.call({ method: 'GET', url: '/api/v1/conversations/all?page_size=5&order=asc' }));
    });
  });

  describe('validation messages', () => {
    it('an enum error lists the allowed values, once', async () => {
      const cases: Array<[Answer, string, string]> = [
        [
          await t.call({ method: 'POST', url: '/api/v1/statuses', payload: { name: 'Bogus', category: 'bogus' } }),
          'category',
          'open, waiting, resolved',
        ],
        [
          await t.call({ method: 'PUT', url: '/api/v1/agents/me/availability', payload: { status: 'gone' } }),
          'status',
          'available, busy, away, offline',
        ],
        [await t.call({ method: 'GET', url: '/api/v1/conversations/all?order=sideways' }), 'order', 'asc, desc'],
      ];
      for (const [res, field, values] of cases) {
        const body = refused(res, 400, 'InputException');
        assert.deepEqual((body.data as FieldErrors).errors, [{ field, reason: `must be one of: ${values}` }]);
        assert.ok(body.message.endsWith(`${field} must be one of: ${values}`), body.message);
      }
    });

    it('a pattern or format failure says what is expected, never the regular expression', async () => {
      const cases: Array<[Answer, string, RegExp]> = [
        [
          await t.call({ method: 'POST', url: '/api/v1/contacts', payload: { first_name: 'X', email: 'not-an-email' } }),
          'email',
          /valid email address/,
        ],
        [
          await t.call({
            method: 'POST',
            url: '/api/v1/contacts',
            payload: { first_name: 'X', email: 'p@example.com', phone_number_country_code: 'XYZ' },
          }),
          'phone_number_country_code',
          /ISO 3166/,
        ],
        [
          await t.call({ method: 'POST', url: '/api/v1/contacts', payload: { first_name: '   ', email: 'p@example.com' } }),
          'first_name',
          /must not be blank/,
        ],
        [await t.call({ method: 'GET', url: '/api/v1/macros?conversation_uuid=nope' }), 'conversation_uuid', /UUID/],
      ];
      for (const [res, field, reason] of cases) {
        const body = refused(res, 400, 'InputException');
        assert.equal(fieldsOf(body)[0], field);
        assert.match(body.message, reason);
        assert.doesNotMatch(res.body, /\^|\$"|\\\\[sS]|\[A-Z|must match (pattern|format)/, res.body);
      }
    });
  });
});
