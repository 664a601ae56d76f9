// Shared by the tests that check what a change wrote to the audit log: the entries read straight
// from the table (not through the API), and the assertions every audited route repeats (one entry
// for the request, its actor and origin, its resource, its changes, no secret in it; none for a
// refused request).
import assert from 'node:assert/strict';
import type { Caller, TestApp } from './helpers.ts';

export interface AuditRow {
  id: string;
  created_at: Date;
  actor_type: string;
  actor_id: number | null;
  actor_name: string;
  ip: string | null;
  user_agent: string | null;
  request_id: string | null;
  action: string;
  resource_type: string;
  resource_id: string | null;
  resource_name: string;
  changes: Record<string, [unknown, unknown]>;
}

type Response = { statusCode: number; headers: Record<string, unknown> };

/** The entries matching every given column, oldest first. */
export async function auditEntries(
  t: Pick<TestApp, 'deps'>,
  filter: { action?: string; resource_type?: string; resource_id?: string | number; request_id?: string } = {},
): Promise<AuditRow[]> {
  let query = t.deps.db.selectFrom('audit_log').selectAll();
  if (filter.action !== undefined) query = query.where('action', '=', filter.action);
  if (filter.resource_type !== undefined) query = query.where('resource_type', '=', filter.resource_type);
  if (filter.resource_id !== undefined) query = query.where('resource_id', '=', String(filter.resource_id));
  if (filter.request_id !== undefined) query = query.where('request_id', '=', filter.request_id);
  return (await query.orderBy('id').execute()) as AuditRow[];
}

export function requestIdOf(res: Response): string {
  const id = res.headers['x-request-id'];
  assert.equal(typeof id, 'string', 'the response names its request');
  return id as string;
}

/** The entries a request wrote. */
export async function auditEntriesOf(t: Pick<TestApp, 'deps'>, res: Response): Promise<AuditRow[]> {
  return auditEntries(t, { request_id: requestIdOf(res) });
}

export interface ExpectedEntry {
  action: string;
  /** Default: the test app's admin through its API credentials. `session` = the agent logged in. */
  actor?: { caller: Pick<Caller, 'id'>; via: 'api_key' | 'session' };
  resource: { type: string; id: string | number; name: string };
  /** The entry's changes, exactly (secrets as MASKED). */
  changes?: Record<string, [unknown, unknown]>;
  /** Only these fields of the changes, exactly; other fields may be there too. */
  changesInclude?: Record<string, [unknown, unknown]>;
  /** Texts that must appear nowhere in the entry (the secrets the request carried). */
  secrets?: string[];
}

/**
 * Asserts the request wrote exactly one entry, the one expected, with the request's id and the
 * caller's address, and returns it.
 */
export async function assertAudited(t: TestApp, res: Response, expected: ExpectedEntry): Promise<AuditRow> {
  const entries = await auditEntriesOf(t, res);
  assert.equal(entries.length, 1, `one audit entry for the request (${expected.action}), got ${entries.map((e) => e.action).join(', ')}`);
  const entry = entries[0]!;
  const actor = expected.actor ?? { caller: t.admin, via: 'api_key' };
  assert.equal(entry.action, expected.action);
  assert.equal(entry.actor_type, actor.via === 'api_key' ? 'api_key' : 'agent', 'actor type');
  assert.equal(entry.actor_id, actor.caller.id, 'actor id');
  assert.ok(entry.actor_name.length > 0, 'the actor is named');
  assert.equal(entry.ip, '127.0.0.1', 'the caller address');
  assert.equal(entry.request_id, requestIdOf(res));
  assert.deepEqual(
    { type: entry.resource_type, id: entry.resource_id, name: entry.resource_name },
    { type: expected.resource.type, id: String(expected.resource.id), name: expected.resource.name },
    'resource',
  );
  if (expected.changes) assert.deepEqual(entry.changes, expected.changes, 'changes');
  if (expected.changesInclude) {
    for (const [field, pair] of Object.entries(expected.changesInclude)) assert.deepEqual(entry.changes[field], pair, `changes.${field}`);
  }
  const text = JSON.stringify(entry);
  for (const secret of expected.secrets ?? [])
    assert.ok(!text.includes(secret), `the secret ${secret.slice(0, 4)}… stays out of the entry`);
  return entry;
}

/** Asserts the request (a refused one, typically) wrote no entry. */
export async function assertNotAudited(t: Pick<TestApp, 'deps'>, res: Response, label = ''): Promise<void> {
  const entries = await auditEntriesOf(t, res);
  assert.deepEqual(
    entries.map((e) => e.action),
    [],
    `no audit entry for a ${res.statusCode} ${label}`.trim(),
  );
}
