// The navigation's view counts (GET /conversations/counts): which views the caller may read is
// the access rule's (conversations.access.ts, viewAccess); the counting is views.queries.ts's.
import type { Principal } from '../auth/credential-cache.ts';
import type { AppDeps } from '../deps.ts';
import { viewAccess } from './conversations.access.ts';
import { findViewCounts } from './views.queries.ts';

/** Counts stop at VIEW_COUNT_CAP + 1: the web app shows "99+" above the cap. */
export const VIEW_COUNT_CAP = 99;

export async function viewCounts(deps: AppDeps, principal: Principal) {
  const counts = await findViewCounts(deps.db, viewAccess(principal), principal.userId, VIEW_COUNT_CAP);
  return { cap: VIEW_COUNT_CAP, ...counts };
}
