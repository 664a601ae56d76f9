// Page visits of contacts (docs/api.md, "Realtime"): sent by the widget socket, the last
// PAGE_VISITS_KEPT kept per contact, read by agents with GET /api/v1/contacts/{id}/page-visits.
import type { Principal } from '../auth/credential-cache.ts';
import { assertContactReadable } from '../conversations/contacts.access.ts';
import { noteContactActive, PAGE_VISITS_KEPT } from '../contacts/contacts.service.ts';
import type { AppDeps } from '../deps.ts';
import { insertPageVisit, pageVisitsOf } from './realtime.queries.ts';

export interface PageVisit {
  url: string;
  title: string;
  visited_at: Date;
}

/** Records a visit and returns the contact's last visits, newest first. */
export async function recordPageVisit(deps: AppDeps, contactId: number, url: string, title: string): Promise<PageVisit[]> {
  return deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    await insertPageVisit(trx, { contactId, url, title, at: now }, PAGE_VISITS_KEPT);
    await noteContactActive(trx, contactId, now);
    return pageVisitsOf(trx, contactId, PAGE_VISITS_KEPT);
  });
}

/** The contact's last visits, newest first; 404 for an unknown contact, 403 for one the caller may not read. */
export async function listPageVisits(deps: AppDeps, principal: Principal, contactId: number): Promise<PageVisit[]> {
  await assertContactReadable(deps.db, principal, contactId);
  return pageVisitsOf(deps.db, contactId, PAGE_VISITS_KEPT);
}
