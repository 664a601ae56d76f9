// GET /audit-log and /audit-log/actions: who may read, the filters (each and combined), paging,
// the order, masking on the way out, and every refusal. Entries are written with recordAudit at
// instants of 2021, and read through a `from`/`to` window of that year, so that entries the
// other domains write while the test sets itself up never change what it counts.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { agentWith } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, type TestApp } from '../../test/helpers.ts';
import type { AuditEntryRecord } from './audit-log.schema.ts';
import { AUDIT_ACTIONS, type AuditActor, MASKED, recordAudit, SYSTEM_ACTOR } from '../audit/audit.service.ts';

type Page = { results: AuditEntryRecord[]; total: number; per_page: number; total_pages: number; page: number };

const WINDOW = 'from=2021-01-01T00:00:00Z&to=2022-01-01T00:00:00Z';
const at = (minute: number) => new Date(Date.UTC(2021, 5, 1, 12, minute));

describe('the audit log API', () => {
  let t: TestApp;
  let reader: Caller;
  let ann: AuditActor;
  /** The list with `query`, inside the window of 2021 unless `query` sets its own `from` or `to`. */
  const list = async (query: string, as?: Caller) => {
    const params = new URLSearchParams(WINDOW);
    for (const [name, value] of new URLSearchParams(query)) params.set(name, value);
    return dataOf<Page>(await t.call({ method: 'GET', url: `/api/v1/audit-log?${params}`, ...(as ? { as } : {}) }));
  };
  const ids = (page: Page) => page.results.map((entry) => entry.resource.name);

  before(async () => {
    t = await buildTestApp();
    reader = await agentWith(t, ['audit:read']);
    ann = { type: 'agent', id: reader.id, name: 'Ann Reader', ip: '198.51.100.7', userAgent: 'Firefox', requestId: 'req-a' };
    const write = (actor: AuditActor, action: (typeof AUDIT_ACTIONS)[number], type: string, name: string, minute: number) =>
      recordAudit(t.deps.db, actor, { action, resource: { type, id: minute, name } }, at(minute));
    // Minute by minute: e1 oldest … e8 newest; e7 and e8 share an instant (the id breaks the tie).
    await write(ann, 'role.created', 'role', 'e1', 1);
    await write({ ...ann, type: 'api_key' }, 'role.updated', 'role', 'e2', 2);
    await write(SYSTEM_ACTOR, 'settings.updated', 'settings', 'e3', 3);
    // An automation rule whose id is Ann's: not Ann.
    await write({ ...SYSTEM_ACTOR, type: 'automation', id: reader.id, name: 'Rule' }, 'team.updated', 'team', 'e4', 4);
    await write(ann, 'team.created', 'team', 'e5', 5);
    await write({ ...ann, id: reader.id + 1000, name: 'Bob' }, 'role.deleted', 'role', 'e6', 6);
    await write(ann, 'auth.login', 'agent', 'e7', 7);
    await write(ann, 'auth.logout', 'agent', 'e8', 7);
    // Outside the window.
    await write(ann, 'role.created', 'role', 'outside', -60 * 24 * 365);
  });
  after(() => t.close());

  it('answers the entries newest first, the id breaking ties, in the documented shape', async () => {
    const page = await list('', reader);
    assert.deepEqual(ids(page), ['e8', 'e7', 'e6', 'e5', 'e4', 'e3', 'e2', 'e1']);
    assert.deepEqual({ ...page, results: [] }, { results: [], total: 8, per_page: 30, total_pages: 1, page: 1 });
    const first = page.results.find((entry) => entry.resource.name === 'e1');
    assert.ok(first);
    assert.equal(typeof first.id, 'number');
    assert.deepEqual(
      { ...first, id: 0 },
      {
        id: 0,
        created_at: '2021-06-01T12:01:00.000Z',
        actor: { type: 'agent', id: reader.id, name: 'Ann Reader' },
        ip: '198.51.100.7',
        user_agent: 'Firefox',
        request_id: 'req-a',
        action: 'role.created',
        resource: { type: 'role', id: '1', name: 'e1' },
        changes: {},
      },
    );
    const system = page.results.find((entry) => entry.resource.name === 'e3');
    assert.deepEqual(system?.actor, { type: 'system', id: null, name: 'System' });
    assert.equal(system?.ip, null);
  });

  it('filters by each filter, and by several at once', async () => {
    const cases: Array<[string, string[]]> = [
      // An agent: its sessions and its API key, not a rule with the same id.
      [`actor_id=${reader.id}`, ['e8', 'e7', 'e5', 'e2', 'e1']],
      [`actor_id=${reader.id}&actor_type=automation`, ['e4']],
      [`actor_id=${reader.id}&actor_type=api_key`, ['e2']],
      ['actor_type=system', ['e3']],
      [`actor_id=${reader.id + 1000}`, ['e6']],
      ['actor_id=2147483647', []],
      ['action=role.created', ['e1']],
      ['action=auth.login', ['e7']],
      ['resource_type=role', ['e6', 'e2', 'e1']],
      ['resource_type=nothing_here', []],
      // from included, to excluded.
      ['from=2021-06-01T12:02:00Z&to=2021-06-01T12:05:00Z', ['e4', 'e3', 'e2']],
      ['from=2021-06-01T14:05:00%2B02:00', ['e8', 'e7', 'e6', 'e5']],
      ['from=2021-06-01T12:07:00Z&to=2021-06-01T12:07:00Z', []],
      [`resource_type=role&actor_id=${reader.id}`, ['e2', 'e1']],
      [`resource_type=team&actor_id=${reader.id}&to=2021-06-01T12:05:00Z`, []],
      [`resource_type=team&actor_id=${reader.id}&from=2021-06-01T12:05:00Z`, ['e5']],
      ['action=role.updated&actor_type=api_key&resource_type=role', ['e2']],
      ['action=role.updated&actor_type=agent', []],
    ];
    for (const [query, expected] of cases) {
      const page = await list(query, reader);
      assert.deepEqual(ids(page), expected, query);
      assert.equal(page.total, expected.length, `${query}: total`);
    }
    // The window itself is a filter: the entry of 2020 is found without it.
    const all = dataOf<Page>(await t.call({ method: 'GET', url: '/api/v1/audit-log?resource_type=role&page_size=100' }));
    assert.ok(ids(all).includes('outside'));
  });

  it('pages with the true total, clamps page_size and answers empty pages past the end', async () => {
    const pages = [];
    for (const page of [1, 2, 3]) pages.push(await list(`page_size=3&page=${page}`, reader));
    assert.deepEqual(pages.map(ids), [
      ['e8', 'e7', 'e6'],
      ['e5', 'e4', 'e3'],
      ['e2', 'e1'],
    ]);
    for (const page of pages) assert.deepEqual([page.total, page.total_pages, page.per_page], [8, 3, 3]);
    const past = await list('page_size=3&page=9', reader);
    assert.deepEqual([past.results.length, past.total, past.page], [0, 8, 9]);
    assert.equal((await list('page_size=1000', reader)).per_page, 100);
    assert.equal((await list('page_size=0', reader)).per_page, 1);
  });

  it('masks secrets in what it answers, even in a row written past recordAudit', async () => {
    await recordAudit(
      t.deps.db,
      ann,
      {
        action: 'inbox.updated',
        resource: { type: 'inbox', id: 3, name: 'masked-1' },
        changes: { config: [{ imap: { password: 'hunter2-old' } }, { imap: { password: 'hunter2-new' } }], name: ['a', 'b'] },
      },
      at(30),
    );
    // A hand (or a bug) writing around recordAudit: the answer still never carries the secret.
    await t.deps.db
      .insertInto('audit_log')
      .values({
        created_at: at(31),
        actor_type: 'system',
        actor_id: null,
        actor_name: 'System',
        action: 'oidc.updated',
        resource_type: 'oidc',
        resource_id: '1',
        resource_name: 'masked-2',
        changes: JSON.stringify({ client_secret: ['raw-secret-1', 'raw-secret-2'], odd: 'not a pair' }),
      })
      .execute();
    const page = await list('from=2021-06-01T12:30:00Z', reader);
    const body = JSON.stringify(page);
    assert.doesNotMatch(body, /hunter2|raw-secret/);
    const byName = Object.fromEntries(page.results.map((entry) => [entry.resource.name, entry.changes]));
    assert.deepEqual(byName['masked-1'], { config: [{ imap: { password: MASKED } }, { imap: { password: MASKED } }], name: ['a', 'b'] });
    assert.deepEqual(byName['masked-2'], { client_secret: [MASKED, MASKED], odd: [null, 'not a pair'] });
  });

  it('has an index for each filter, continuing in the list order', async () => {
    const rows = await sql<{ indexdef: string }>`select indexdef from pg_indexes where tablename = 'audit_log'`.execute(t.deps.db);
    const definitions = rows.rows.map((row) => row.indexdef.replace(/^.* USING btree /, ''));
    for (const lead of ['', 'actor_id, ', 'actor_type, ', 'action, ', 'resource_type, ']) {
      assert.ok(
        definitions.some((definition) => definition.startsWith(`(${lead}created_at DESC, id DESC)`)),
        `an index on (${lead}created_at desc, id desc): ${definitions.join('; ')}`,
      );
    }
  });

  it('lists the actions and the resource types', async () => {
    const data = dataOf<{ actions: string[]; resource_types: string[] }>(
      await t.call({ method: 'GET', url: '/api/v1/audit-log/actions', as: reader }),
    );
    assert.deepEqual(data.actions, [...AUDIT_ACTIONS]);
    for (const type of ['agent', 'role', 'settings', 'team']) assert.ok(data.resource_types.includes(type), type);
    assert.deepEqual(data.resource_types, [...new Set(data.resource_types)].sort());
  });

  it('needs credentials and audit:read', async () => {
    const other = await agentWith(t, ['users:manage', 'roles:manage', 'general_settings:manage']);
    for (const url of ['/api/v1/audit-log', '/api/v1/audit-log/actions', '/api/v1/audit-log/export?format=csv']) {
      assertError(await t.call({ method: 'GET', url, as: null }), 401, 'UnauthorizedException', url);
      assertError(await t.call({ method: 'GET', url, as: other }), 403, 'PermissionException', url);
      const wrong = { ...reader, headers: { authorization: `Basic ${Buffer.from(`${reader.apiKey}:wrong`).toString('base64')}` } };
      assertError(await t.call({ method: 'GET', url, as: wrong }), 401, 'UnauthorizedException', url);
    }
    // Admin holds it.
    assert.equal((await t.call({ method: 'GET', url: '/api/v1/audit-log' })).statusCode, 200);
  });

  it('refuses bad filters with a 400 naming them, on the list and the export alike', async () => {
    const bad: Array<[string, RegExp]> = [
      ['action=role.renamed', /action/],
      ['action=', /action/],
      ['action=role.created%00', /action|NUL|U\+0000/i],
      ['actor_type=robot', /actor_type/],
      ['actor_id=0', /actor_id/],
      ['actor_id=-1', /actor_id/],
      ['actor_id=abc', /actor_id/],
      ['actor_id=1e3', /actor_id/],
      ['actor_id=99999999999999999999', /actor_id/],
      ['resource_type=Role', /resource_type/],
      [`resource_type=${'a'.repeat(65)}`, /resource_type/],
      ['resource_type=role%00', /resource_type|NUL|U\+0000/i],
      ['from=yesterday', /from/],
      ['from=2021-06-01', /from/],
      ['from=2021-02-30T00:00:00Z', /from/],
      ['to=2021-06-01T12:00:00', /to/],
      [`to=${'9'.repeat(5000)}`, /to/],
      ['from=2021-06-02T00:00:00Z&to=2021-06-01T00:00:00Z', /from/],
      ['page=abc', /page/],
      ['order=asc', /order/],
    ];
    for (const [query, field] of bad) {
      for (const base of ['/api/v1/audit-log?', '/api/v1/audit-log/export?format=csv&']) {
        const error = assertError(await t.call({ method: 'GET', url: `${base}${query}`, as: reader }), 400, 'InputException', query);
        assert.match(error.message, field, `${base}${query}: ${error.message}`);
      }
    }
  });

  it('has no route that changes or deletes an entry', async () => {
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      for (const url of ['/api/v1/audit-log', '/api/v1/audit-log/1']) {
        const res = await t.call({ method, url });
        assert.ok([404, 405].includes(res.statusCode), `${method} ${url}: ${res.statusCode}`);
      }
    }
  });
});
