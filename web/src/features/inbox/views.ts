// The conversation lists an agent works from, and how each maps onto the API
// (docs/api.md, "Pagination and lists").
import { api, type ConversationListItem, unwrap } from '../../api/client';

export type ListView =
  | { kind: 'mine' }
  | { kind: 'unassigned' }
  | { kind: 'all' }
  | { kind: 'team'; id: number }
  | { kind: 'inbox'; id: number };

export const ORDER_BY = ['last_message_at', 'created_at', 'updated_at', 'waiting_since', 'next_sla_deadline_at'] as const;
export type OrderBy = (typeof ORDER_BY)[number];

export interface ConversationFilters {
  status: string | null;
  priority: string | null;
  tag: string | null;
  order_by: OrderBy;
  order: 'asc' | 'desc';
  page: number;
}

export const PAGE_SIZE = 30;

export interface ConversationPage {
  results: ConversationListItem[];
  total: number;
  per_page: number;
  total_pages: number;
  page: number;
}

/** The URL path of a view (routes.tsx declares the same shapes). */
export function viewPath(view: ListView): string {
  switch (view.kind) {
    case 'team':
      return `/inbox/team/${view.id}`;
    case 'inbox':
      return `/inbox/channel/${view.id}`;
    default:
      return `/inbox/${view.kind}`;
  }
}

export function filtersFrom(params: URLSearchParams): ConversationFilters {
  const orderBy = params.get('order_by');
  const page = Number(params.get('page'));
  return {
    status: params.get('status'),
    priority: params.get('priority'),
    tag: params.get('tag'),
    order_by: ORDER_BY.find((o) => o === orderBy) ?? 'last_message_at',
    order: params.get('order') === 'asc' ? 'asc' : 'desc',
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

/**
 * One page of a view. A team view reads every conversation of the team for an agent who may read
 * them all, else the team's unassigned queue (what `read_team_inbox` shows).
 */
export async function fetchConversations(
  view: ListView,
  filters: ConversationFilters,
  readAll: boolean,
  pageSize = PAGE_SIZE,
): Promise<ConversationPage> {
  const query = {
    page: filters.page,
    page_size: pageSize,
    order_by: filters.order_by,
    order: filters.order,
    ...(filters.status ? { status: [filters.status] } : {}),
    ...(filters.priority ? { priority: [filters.priority] } : {}),
    ...(filters.tag ? { tag: [filters.tag] } : {}),
  };
  switch (view.kind) {
    case 'mine':
      return unwrap(api.GET('/api/v1/conversations/assigned', { params: { query } }));
    case 'unassigned':
      return unwrap(api.GET('/api/v1/conversations/unassigned', { params: { query } }));
    case 'all':
      return unwrap(api.GET('/api/v1/conversations/all', { params: { query } }));
    case 'inbox':
      return unwrap(api.GET('/api/v1/conversations/all', { params: { query: { ...query, inbox_id: [view.id] } } }));
    case 'team':
      return readAll
        ? unwrap(api.GET('/api/v1/conversations/all', { params: { query: { ...query, team_id: [view.id] } } }))
        : unwrap(api.GET('/api/v1/teams/{id}/conversations/unassigned', { params: { path: { id: view.id }, query } }));
  }
}
