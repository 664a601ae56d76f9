// The audit log's own rules: what an entry keeps (secrets masked at any depth, only what changed)
// and that the database keeps it: no update, delete or truncate but the retention purge.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';
import { changesBetween, MASKED, maskSecrets, purgeAuditLog, recordAudit, SYSTEM_ACTOR } from './audit.service.ts';

describe('audit entries', () => {
  it('changesBetween keeps only the fields that differ, with creation and deletion as null sides', () => {
    const cases: Array<[string, Record<string, unknown> | null, Record<string, unknown> | null, Record<string, unknown>]> = [
      ['nothing changed', { name: 'a', tags: [1, 2] }, { name: 'a', tags: [1, 2] }, {}],
      ['a field changed', { name: 'a', color: 'red' }, { name: 'b', color: 'red' }, { name: ['a', 'b'] }],
      ['created', null, { name: 'a', id: 4 }, { name: [null, 'a'] }],
      ['deleted', { name: 'a' }, null, { name: ['a', null] }],
      ['key order is not a change', { config: { a: 1, b: 2 } }, { config: { b: 2, a: 1 } }, {}],
      ['timestamps of the row are ignored', { updated_at: 'x', name: 'a' }, { updated_at: 'y', name: 'a' }, {}],
    ];
    for (const [label, before, after, expected] of cases) assert.deepEqual(changesBetween(before, after), expected, label);
    assert.deepEqual(changesBetween({ a: 1, b: 1 }, { a: 2, b: 2 }, ['b']), { b: [1, 2] }, 'only the fields named');
  });

  it('maskSecrets masks every secret-looking key at any depth, and nothing else', () => {
    const masked = maskSecrets({
      name: 'Support',
      password: 'hunter2hunter2',
      config: { imap: { host: 'mail', password: 'p' }, client_secret: 's', api_key: 'k' },
      secret: ['a', 'b'],
      webhook_token: '',
      totp_secret: null,
    });
    assert.deepEqual(masked, {
      name: 'Support',
      password: MASKED,
      config: { imap: { host: 'mail', password: MASKED }, client_secret: MASKED, api_key: MASKED },
      secret: MASKED,
      webhook_token: '',
      totp_secret: null,
    });
    assert.equal(String(maskSecrets('x'.repeat(5000))).length, 1001, 'long text is cut');
  });
});

describe('the audit log table', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  const count = async () => (await sql<{ n: number }>`select count(*)::int as n from audit_log`.execute(t.deps.db)).rows[0]!.n;

  it('writes an entry with its secrets masked', async () => {
    await recordAudit(
      t.deps.db,
      { ...SYSTEM_ACTOR, ip: '203.0.113.9', requestId: 'req-1' },
      {
        action: 'webhook.updated',
        resource: { type: 'webhook', id: 7, name: 'Hook' },
        changes: { secret: ['old-secret', 'new-secret'], url: ['a', 'b'] },
      },
      new Date('2026-01-15T10:00:00Z'),
    );
    const row = await t.deps.db.selectFrom('audit_log').selectAll().where('request_id', '=', 'req-1').executeTakeFirstOrThrow();
    assert.equal(row.actor_type, 'system');
    assert.equal(row.resource_id, '7');
    assert.deepEqual(row.changes, { secret: [MASKED, MASKED], url: ['a', 'b'] });
    assert.doesNotMatch(JSON.stringify(row), /old-secret|new-secret/);
  });

  it('the database refuses to update, delete or truncate entries', async () => {
    const before = await count();
    assert.ok(before > 0);
    for (const statement of [sql`update audit_log set action = 'auth.login'`, sql`delete from audit_log`, sql`truncate audit_log`]) {
      await assert.rejects(statement.execute(t.deps.db), /append-only/);
    }
    assert.equal(await count(), before);
  });

  it('the retention purge deletes only entries older than its cutoff', async () => {
    const old = new Date('2020-01-01T00:00:00Z');
    await recordAudit(t.deps.db, SYSTEM_ACTOR, { action: 'settings.updated', resource: { type: 'settings', id: null } }, old);
    const before = await count();
    assert.equal(await purgeAuditLog(t.deps.db, new Date('2021-01-01T00:00:00Z')), 1);
    assert.equal(await count(), before - 1);
    // The cutoff lived only in the purge's transaction.
    await assert.rejects(sql`delete from audit_log`.execute(t.deps.db), /append-only/);
  });
});
