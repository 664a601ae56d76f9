// Shared by the agents tests (server/src/agents/agents.*.test.ts): the agent record and its
// shape, unique emails, the requests of an `agents` suite, and its caller, teams and roles.
import assert from 'node:assert/strict';
import { createTeam } from './factories.ts';
import { AGENT_RECORD_FIELDS, type Caller, dataOf, type TestApp } from './helpers.ts';

export type Team = { id: number; name: string; emoji: string };
export type Agent = {
  id: number;
  created_at: string;
  updated_at: string;
  first_name: string;
  last_name: string;
  email: string;
  type: string;
  availability_status: string;
  enabled: boolean;
  roles: string[];
  permissions: string[];
  teams: Team[];
  api_key: string | null;
  api_key_last_used_at: string | null;
  custom_attributes: Record<string, unknown>;
  [key: string]: unknown;
};
export type Paged<T> = { results: T[]; total: number; per_page: number; total_pages: number; page: number };

export const AGENT_FIELDS = AGENT_RECORD_FIELDS;
export const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/** `fields`: the record's (the caller's own, GET /agents/me, adds `mfa_setup_required`: MY_AGENT_RECORD_FIELDS). */
export function assertAgentShape(a: Agent, fields: readonly string[] = AGENT_FIELDS): void {
  assert.deepEqual(Object.keys(a).sort(), fields);
  assert.ok(Number.isInteger(a.id));
  assert.match(a.created_at, ISO);
  assert.match(a.updated_at, ISO);
  assert.equal(a.type, 'agent');
  assert.ok(['available', 'busy', 'away', 'offline'].includes(a.availability_status));
  assert.equal(typeof a.enabled, 'boolean');
  assert.ok(Array.isArray(a.roles));
  assert.deepEqual(a.permissions, [...a.permissions].sort(), 'permissions are sorted');
  assert.equal(new Set(a.permissions).size, a.permissions.length, 'permissions have no duplicates');
  for (const team of a.teams) assert.deepEqual(Object.keys(team).sort(), ['emoji', 'id', 'name']);
  assert.deepEqual(typeof a.custom_attributes, 'object');
}

let seq = 0;
export const uniqueEmail = (label = 'a') => `${label}-${process.pid}-${Date.now()}-${++seq}@example.com`;

/** The requests of an `agents` suite, against the app `app()` answers. */
export function agentCalls(app: () => TestApp) {
  const create = (payload: Record<string, unknown>, as?: Caller | null) =>
    app().call({ method: 'POST', url: '/api/v1/agents', payload, ...(as !== undefined ? { as } : {}) });
  const get = (id: number | string, as?: Caller | null) =>
    app().call({ method: 'GET', url: `/api/v1/agents/${id}`, ...(as !== undefined ? { as } : {}) });
  const update = (id: number, payload: Record<string, unknown>, as?: Caller | null) =>
    app().call({ method: 'PUT', url: `/api/v1/agents/${id}`, payload, ...(as !== undefined ? { as } : {}) });
  const list = (query: string) => app().call({ method: 'GET', url: `/api/v1/agents${query}` });
  const newAgent = async (extra: Record<string, unknown> = {}) =>
    dataOf<Agent>(await create({ first_name: 'New', email: uniqueEmail(), roles: ['Agent'], ...extra }));
  return { create, get, update, list, newAgent };
}

/** The caller, teams and roles of an `agents` suite. */
export async function agentsFixtures(t: TestApp) {
  const agent = await t.makeAgent();
  const teamA = await createTeam(t, { name: 'Alpha team', emoji: '🅰️' });
  const teamB = await createTeam(t, { name: 'Bravo team' });
  dataOf(
    await t.call({
      method: 'POST',
      url: '/api/v1/roles',
      payload: { name: 'Reporter', permissions: ['reports:manage', 'tags:manage', 'messages:read'] },
    }),
  );
  dataOf(await t.call({ method: 'POST', url: '/api/v1/roles', payload: { name: 'UserManager', permissions: ['users:manage'] } }));
  return { agent, teamA, teamB };
}
