// The audit screen's filters as the address keeps them (`?action=…&actor=…&from=2026-11-01`)
// and as the API takes them: an actor is an agent's id, `system` or `automation`; days are the
// reader's local days, `to` included (the API's `to` is the next local midnight, excluded).
export const FILTER_NAMES = ['action', 'actor', 'resource_type', 'from', 'to'] as const;
export type AuditFilters = Record<(typeof FILTER_NAMES)[number], string>;

import type { paths } from '../../../api/schema';

type AuditQuery = Omit<NonNullable<paths['/api/v1/audit-log']['get']['parameters']['query']>, 'page' | 'page_size'>;
type Action = NonNullable<AuditQuery['action']>;

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** The instant a local day starts, `days` after the given one; undefined for what is not a date. */
function localMidnight(day: string, days = 0): string | undefined {
  const match = DAY.exec(day);
  if (!match) return undefined;
  const date = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + days);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The actions the screen offers come from the API (GET /audit-log/actions): an address can still hold any text. */
export function listQuery(filters: AuditFilters, actions: readonly string[] = []): AuditQuery {
  const query: AuditQuery = {};
  if (filters.action && actions.includes(filters.action)) query.action = filters.action as Action;
  if (filters.actor === 'system' || filters.actor === 'automation') query.actor_type = filters.actor;
  else if (/^[1-9]\d{0,9}$/.test(filters.actor)) query.actor_id = Number(filters.actor);
  if (filters.resource_type) query.resource_type = filters.resource_type;
  const from = localMidnight(filters.from);
  const to = localMidnight(filters.to, 1);
  if (from) query.from = from;
  if (to) query.to = to;
  return query;
}

/** The export's address for these filters (a plain link: the session cookie goes with it). */
export function exportUrl(filters: AuditFilters, actions: readonly string[] = []): string {
  const params = new URLSearchParams({ format: 'csv' });
  for (const [name, value] of Object.entries(listQuery(filters, actions))) params.set(name, String(value));
  return `/api/v1/audit-log/export?${params}`;
}
