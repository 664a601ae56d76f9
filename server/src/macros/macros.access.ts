// Who sees and who manages a macro. Seeing: `macros:manage` sees every macro; any other agent
// the global ones, the team macros of their teams and their own user macros. The rule exists
// twice, as a predicate on one row and as SQL for the list, and both are built from
// macroScope() so they cannot drift apart (as conversations.access.ts does for conversations).
// Managing: global and team macros need `macros:manage`; an agent manages their own user macros.
import { type Expression, type SqlBool, sql } from 'kysely';
import type { Principal } from '../auth/credential-cache.ts';
import type { MacroVisibility } from '../db/types.ts';
import { PermissionError } from '../errors.ts';
import type { MacroFilter } from './macros.queries.ts';

export interface OwnedMacro {
  visibility: MacroVisibility;
  user_id: number | null;
  team_id: number | null;
}

export interface MacroScope {
  all: boolean;
  userId: number;
  teamIds: readonly number[];
}

function manages(principal: Principal): boolean {
  return principal.permissions.has('macros:manage');
}

export function macroScope(principal: Principal): MacroScope {
  return { all: manages(principal), userId: principal.userId, teamIds: principal.teamIds };
}

export function canSeeMacro(principal: Principal, macro: OwnedMacro): boolean {
  const scope = macroScope(principal);
  if (scope.all) return true;
  switch (macro.visibility) {
    case 'global':
      return true;
    case 'team':
      return macro.team_id !== null && scope.teamIds.includes(macro.team_id);
    case 'user':
      return macro.user_id === scope.userId;
  }
}

/** The same rule as SQL over the macros table; null when the caller sees every macro. */
export function macroVisibilityFilter(principal: Principal): MacroFilter | null {
  const scope = macroScope(principal);
  if (scope.all) return null;
  return (eb) => {
    const ors: Expression<SqlBool>[] = [
      eb('visibility', '=', 'global'),
      eb.and([eb('visibility', '=', 'user'), eb('user_id', '=', scope.userId)]),
    ];
    // = any(array): one statement text whatever the number of teams (prepared statements).
    if (scope.teamIds.length > 0)
      ors.push(eb.and([eb('visibility', '=', 'team'), eb('team_id', '=', sql<number>`any(${[...scope.teamIds]}::int[])`)]));
    return eb.or(ors);
  };
}

export function canManageMacro(principal: Principal, macro: OwnedMacro): boolean {
  return manages(principal) || (macro.visibility === 'user' && macro.user_id === principal.userId);
}

export function assertCanManageMacro(principal: Principal, macro: OwnedMacro): void {
  if (canManageMacro(principal, macro)) return;
  throw new PermissionError(
    macro.visibility === 'user'
      ? "Permission denied: another agent's user macro requires macros:manage"
      : `Permission denied: a ${macro.visibility} macro requires macros:manage`,
  );
}
