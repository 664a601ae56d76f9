// GET /audit-log/export?format=csv: the file read back with a strict CSV reader (every row, in
// order, with the filters), formula-looking cells defused, secrets masked, and the reading done in
// bounded batches (counted with a Kysely plugin, not timed).
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type KyselyPlugin, sql } from 'kysely';
import { csvRecords, parseCsv } from '../../test/csv.ts';
import { agentWith } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, type TestApp } from '../../test/helpers.ts';
import { auditCsvChunks, CSV_HEADER, csvCell, EXPORT_BATCH } from './audit-log.export.ts';
import { MASKED, recordAudit, SYSTEM_ACTOR } from '../audit/audit.service.ts';

const BULK = 2345;
const BULK_WINDOW = 'from=2021-03-01T00:00:00Z&to=2021-04-01T00:00:00Z';

describe('the audit log export', () => {
  let t: TestApp;
  let reader: Caller;
  const exportOf = (query: string) => t.call({ method: 'GET', url: `/api/v1/audit-log/export?format=csv&${query}`, as: reader });

  before(async () => {
    t = await buildTestApp();
    reader = await agentWith(t, ['audit:read']);
    // A few thousand entries in March 2021, three at each instant (ties across batch boundaries),
    // instants with microseconds (a cursor cut to milliseconds would skip or repeat rows).
    await sql`
      insert into audit_log (created_at, actor_type, actor_id, actor_name, action, resource_type, resource_id, resource_name, changes)
      select timestamptz '2021-03-01T00:00:00Z' + (g / 3) * interval '1.000001 second',
             'system', null, 'System',
             case when g % 5 = 0 then 'team.updated' else 'role.updated' end,
             case when g % 5 = 0 then 'team' else 'role' end,
             g::text, 'bulk ' || g, '{}'::jsonb
      from generate_series(1, ${BULK}) g`.execute(t.deps.db);
  });
  after(() => t.close());

  it('streams every entry of the filters, newest first, as an attachment', async () => {
    const res = await exportOf(BULK_WINDOW);
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
    assert.match(String(res.headers['content-disposition']), /^attachment; filename="audit-log-\d{4}-\d\d-\d\d\.csv"$/);
    assert.equal(res.headers['cache-control'], 'no-store');
    const [header] = parseCsv(res.body);
    assert.deepEqual(header, [...CSV_HEADER]);
    const rows = csvRecords(res.body);
    const expected = await t.deps.db
      .selectFrom('audit_log')
      .select('id')
      .where('created_at', '>=', new Date('2021-03-01T00:00:00Z'))
      .where('created_at', '<', new Date('2021-04-01T00:00:00Z'))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    assert.equal(expected.length, BULK);
    assert.deepEqual(
      rows.map((row) => row['id']),
      expected.map((row) => String(row.id)),
    );
    const first = rows.at(-1);
    assert.deepEqual(first, {
      id: String(expected.at(-1)?.id),
      created_at: '2021-03-01T00:00:00.000Z',
      actor_type: 'system',
      actor_id: '',
      actor_name: 'System',
      ip: '',
      user_agent: '',
      request_id: '',
      action: 'role.updated',
      resource_type: 'role',
      resource_id: '1',
      resource_name: 'bulk 1',
      changes: '{}',
    });

    const teams = csvRecords((await exportOf(`${BULK_WINDOW}&action=team.updated`)).body);
    assert.equal(teams.length, Math.floor(BULK / 5));
    assert.ok(teams.every((row) => row['action'] === 'team.updated' && row['resource_type'] === 'team'));
    assert.equal(csvRecords((await exportOf(`${BULK_WINDOW}&actor_type=agent`)).body).length, 0);
  });

  it('reads in batches of EXPORT_BATCH rows, one query each', async () => {
    let queries = 0;
    let largest = 0;
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        queries += 1;
        return args.node;
      },
      transformResult: async (args) => {
        largest = Math.max(largest, args.result.rows.length);
        return args.result;
      },
    };
    const db = t.deps.db.withPlugin(counting);
    let lines = 0;
    let chunks = 0;
    for await (const chunk of auditCsvChunks({ db }, { from: '2021-03-01T00:00:00Z', to: '2021-04-01T00:00:00Z' })) {
      chunks += 1;
      lines += chunk.split('\r\n').length - 1;
    }
    assert.equal(lines, BULK + 1);
    assert.equal(queries, Math.ceil(BULK / EXPORT_BATCH));
    assert.equal(largest, EXPORT_BATCH);
    // The header, then one chunk per batch: the text of one batch is all the export holds at once.
    assert.equal(chunks, 1 + Math.ceil(BULK / EXPORT_BATCH));
  });

  it('defuses cells a spreadsheet would run as formulas, keeps quotes and line breaks, masks secrets', async () => {
    const names = [
      '=HYPERLINK("http://evil.example","x")',
      '+1+1',
      '-2',
      '@SUM(A1)',
      '\tTabbed',
      '\rReturn',
      'a "quoted", name\r\nover lines',
      'plain',
    ];
    for (const [index, name] of names.entries()) {
      await recordAudit(
        t.deps.db,
        { ...SYSTEM_ACTOR, type: 'agent', id: 9, name, userAgent: '=cmd|" /C calc"!A0', ip: '203.0.113.1' },
        {
          action: 'agent.updated',
          resource: { type: 'agent', id: 9, name },
          changes: { password: ['old-pass-123', 'new-pass-456'], first_name: ['=1+1', name] },
        },
        new Date(Date.UTC(2020, 0, 1, 0, index)),
      );
    }
    const res = await exportOf('from=2020-01-01T00:00:00Z&to=2020-01-02T00:00:00Z');
    assert.equal(res.statusCode, 200);
    assert.doesNotMatch(res.body, /old-pass|new-pass/);
    const rows = csvRecords(res.body).reverse();
    assert.deepEqual(
      rows.map((row) => row['actor_name']),
      [
        '\'=HYPERLINK("http://evil.example","x")',
        "'+1+1",
        "'-2",
        "'@SUM(A1)",
        "'\tTabbed",
        "'\rReturn",
        'a "quoted", name\r\nover lines',
        'plain',
      ],
    );
    assert.deepEqual(
      rows.map((row) => row['resource_name']),
      rows.map((row) => row['actor_name']),
    );
    for (const row of rows) {
      assert.equal(row['user_agent'], '\'=cmd|" /C calc"!A0');
      const changes = JSON.parse(row['changes'] ?? '') as Record<string, unknown>;
      assert.deepEqual(changes['password'], [MASKED, MASKED]);
    }
  });

  it('csvCell quotes every cell and prefixes formula starts', () => {
    const cases: Array<[unknown, string]> = [
      [null, '""'],
      [12, '"12"'],
      ['a,b', '"a,b"'],
      ['say "hi"', '"say ""hi"""'],
      ['=1', `"'=1"`],
      ['-', `"'-"`],
      ['a=1', '"a=1"'],
      [new Date('2021-01-01T00:00:00Z'), '"2021-01-01T00:00:00.000Z"'],
    ];
    for (const [value, cell] of cases) assert.equal(csvCell(value), cell, String(value));
  });

  it('has no HEAD route (it would run the whole export to throw it away)', async () => {
    const res = await t.call({ method: 'HEAD', url: '/api/v1/audit-log/export?format=csv', as: reader });
    assert.ok([404, 405].includes(res.statusCode), String(res.statusCode));
  });

  it('refuses a missing or unknown format', async () => {
    for (const url of ['/api/v1/audit-log/export', '/api/v1/audit-log/export?format=xlsx', '/api/v1/audit-log/export?format=CSV']) {
      const error = assertError(await t.call({ method: 'GET', url, as: reader }), 400, 'InputException', url);
      assert.match(error.message, /format/);
    }
  });
});
