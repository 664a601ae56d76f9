// Conversation access (docs/api.md, Permissions and access): `conversations:read` plus one of
//   read_all; read_assigned and assigned to me; read_team_inbox and its team is mine;
//   read_unassigned and no agent assigned.
// The same rule exists twice, as a predicate on one row and as SQL for lists and search,
// and both are built from accessScope() so they cannot drift apart. Which lists (views) a
// caller may read is decided here too (listDenial), for the lists and their counts alike.
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { Principal } from '../auth/credential-cache.ts';
import type { Database } from '../db/types.ts';

export interface AccessScope {
  all: boolean;
  assignedTo: number | null;
  teams: readonly number[];
  unassigned: boolean;
}

/** Principals are built once per authentication and never changed: each one's scope is worked out once (the sockets ask per event). */
const scopes = new WeakMap<Principal, AccessScope | null>();

/** What the caller may read, or null when they may read no conversation at all. */
export function accessScope(principal: Principal): AccessScope | null {
  const known = scopes.get(principal);
  if (known !== undefined) return known;
  const scope = scopeOf(principal);
  scopes.set(principal, scope);
  return scope;
}

function scopeOf(principal: Principal): AccessScope | null {
  const p = principal.permissions;
  if (!p.has('conversations:read')) return null;
  const scope: AccessScope = {
    all: p.has('conversations:read_all'),
    assignedTo: p.has('conversations:read_assigned') ? principal.userId : null,
    teams: p.has('conversations:read_team_inbox') ? principal.teamIds : [],
    unassigned: p.has('conversations:read_unassigned'),
  };
  if (!scope.all && scope.assignedTo === null && scope.teams.length === 0 && !scope.unassigned) return null;
  return scope;
}

export function canReadConversation(
  principal: Principal,
  conversation: { assigned_user_id: number | null; assigned_team_id: number | null },
): boolean {
  const scope = accessScope(principal);
  if (!scope) return false;
  if (scope.all) return true;
  if (scope.assignedTo !== null && conversation.assigned_user_id === scope.assignedTo) return true;
  if (conversation.assigned_team_id !== null && scope.teams.includes(conversation.assigned_team_id)) return true;
  if (scope.unassigned && conversation.assigned_user_id === null) return true;
  return false;
}

type WithC = Database & { c: Database['conversations'] };

/**
 * The same rule as SQL over a conversations table aliased `c`. Returns null when the
 * caller may read nothing (callers answer with an empty result without querying).
 */
export function accessFilter<DB extends WithC, TB extends 'c' & keyof DB>(principal: Principal) {
  const scope = accessScope(principal);
  return scope ? scopeFilter<DB, TB>(scope) : null;
}

/**
 * A scope as SQL. Its ids are only used as query values, so that a statement compiled once
 * (db/statement.ts) can be built from a scope whose ids are placeholders: `scopeShape` names
 * what changes the SQL text.
 */
export function scopeFilter<DB extends WithC, TB extends 'c' & keyof DB>(scope: AccessScope) {
  return (eb: ExpressionBuilder<DB, TB>): Expression<SqlBool> => {
    if (scope.all) return sql<SqlBool>`true`;
    const e = eb as unknown as ExpressionBuilder<WithC, 'c'>;
    const ors: Expression<SqlBool>[] = [];
    if (scope.assignedTo !== null) ors.push(e('c.assigned_user_id', '=', scope.assignedTo));
    // = any(array): one statement text whatever the number of teams (prepared statements).
    if (scope.teams.length > 0) ors.push(e('c.assigned_team_id', '=', sql<number>`any(${scope.teams}::int[])`));
    if (scope.unassigned) ors.push(e('c.assigned_user_id', 'is', null));
    return e.or(ors);
  };
}

/** What of a scope shapes scopeFilter's SQL (the ids are values). */
export function scopeShape(scope: AccessScope): string {
  return scope.all ? 'all' : `${scope.assignedTo !== null ? 'a' : ''}${scope.teams.length > 0 ? 't' : ''}${scope.unassigned ? 'u' : ''}`;
}

// Lists (views)

/** The lists: each is one of the access rules above, so every item of a list is readable. */
export type ListKind = { kind: 'all' } | { kind: 'assigned' } | { kind: 'unassigned' } | { kind: 'team_unassigned'; teamId: number };

/**
 * Why the caller may not read a list, or null when they may: each list needs `conversations:read`
 * and its own permission; a team's unassigned queue needs `read_team_inbox` and membership of the
 * team, or `read_all`. The list endpoints answer 403 with this reason; the view counts leave the
 * view out (null).
 */
export function listDenial(principal: Principal, list: ListKind): string | null {
  const p = principal.permissions;
  const needs = (permission: string) => (p.has(permission) ? null : `Permission denied: requires ${permission}`);
  const own =
    list.kind === 'all'
      ? needs('conversations:read_all')
      : list.kind === 'assigned'
        ? needs('conversations:read_assigned')
        : list.kind === 'unassigned'
          ? needs('conversations:read_unassigned')
          : (principal.teamIds.includes(list.teamId) && p.has('conversations:read_team_inbox')) || p.has('conversations:read_all')
            ? null
            : 'Permission denied: requires conversations:read_team_inbox and membership of the team';
  return own ?? needs('conversations:read');
}

/**
 * The views the web app's navigation lists, as the caller may read them (listDenial): a team's
 * view holds every conversation of the team for a caller who may read all (`teams: 'every'`), else
 * the unassigned queue of each of their teams they may read; inbox views need `read_all`.
 */
export interface ViewAccess {
  mine: boolean;
  unassigned: boolean;
  all: boolean;
  teams: 'every' | readonly number[];
  inboxes: boolean;
}

export function viewAccess(principal: Principal): ViewAccess {
  const all = listDenial(principal, { kind: 'all' }) === null;
  return {
    mine: listDenial(principal, { kind: 'assigned' }) === null,
    unassigned: listDenial(principal, { kind: 'unassigned' }) === null,
    all,
    teams: all ? 'every' : principal.teamIds.filter((teamId) => listDenial(principal, { kind: 'team_unassigned', teamId }) === null),
    inboxes: all,
  };
}
