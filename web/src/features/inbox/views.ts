// The conversation lists an agent works from, and how each maps onto the API
// (docs/api.md, "Pagination and lists").
import { api, type ConversationListItem, unwrap } from '../../api/client';

export type ListView =
  | { kind: 'mine' }
  | { kind: 'unassigned' }
  | { kind: 'all' }
  /** The conversations the agent was mentioned in (newest mention first; no filters). */
  | { kind: 'mentioned' }
  | { kind: 'team'; id: number }
  | { kind: 'inbox'; id: number };

export const ORDER_BY = ['last_message_at', 'created_at', 'updated_at', 'waiting_since', 'next_sla_deadline_at'] as const;
export type OrderBy = (typeof ORDER_BY)[number];

/**
 * A list's filters, as the URL holds them (`?status=Open&status=Snoozed&assignee=3`): several
 * values of one filter match any of them. `assignee` holds agent ids, or only `none` (no agent:
 * the API's unassigned lists, since `assignee_id` takes ids only).
 */
export interface ConversationFilters {
  status: string[];
  priority: string[];
  tag: string[];
  assignee: string[];
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

export const UNASSIGNED = 'none';
/** The filters that take several values, each a repeated URL parameter of that name. */
export type MultiFilter = 'status' | 'priority' | 'tag' | 'assignee';

const isId = (value: string) => /^[1-9]\d{0,9}$/.test(value) && Number(value) <= 2147483647;
const distinct = (values: string[]) => [...new Set(values.filter((value) => value.trim() !== ''))];

/** Agent ids, or `none` alone (a URL naming both keeps `none`). */
function assigneesFrom(values: string[]): string[] {
  return values.includes(UNASSIGNED) ? [UNASSIGNED] : distinct(values.filter(isId));
}

/** Whether a view offers the assignee filter: the lists that hold several agents' conversations. */
export function hasAssigneeFilter(view: ListView, readAll: boolean): boolean {
  return view.kind === 'all' || view.kind === 'inbox' || (view.kind === 'team' && readAll);
}

/** What the agent may read of the lists (their permissions `conversations:read_all` and `read_unassigned`). */
export interface ListAccess {
  readAll: boolean;
  readUnassigned: boolean;
}

/**
 * Whether a view offers "no agent" among its assignees: it reads an unassigned list, a team's
 * (readable with read_all) or the workspace's (read_unassigned). A URL naming it where it is not
 * offered has it ignored (fetchConversations), not refused with a 403.
 */
export function hasNoAgentFilter(view: ListView, access: ListAccess): boolean {
  return view.kind === 'team' || access.readUnassigned;
}

export function filtersFrom(params: URLSearchParams): ConversationFilters {
  const orderBy = params.get('order_by');
  const page = Number(params.get('page'));
  return {
    status: distinct(params.getAll('status')),
    priority: distinct(params.getAll('priority')),
    tag: distinct(params.getAll('tag')),
    assignee: assigneesFrom(params.getAll('assignee')),
    order_by: ORDER_BY.find((o) => o === orderBy) ?? 'last_message_at',
    order: params.get('order') === 'asc' ? 'asc' : 'desc',
    page: Number.isInteger(page) && page > 0 ? page : 1,
  };
}

/**
 * One page of a view. A team view reads every conversation of the team for an agent who may read
 * them all, else the team's unassigned queue (what `read_team_inbox` shows). The assignee filter
 * applies to the views that offer it (`hasAssigneeFilter`); "no agent" reads the unassigned list
 * narrowed to the view's inbox or team, and is ignored where the agent may not read that list.
 */
export async function fetchConversations(
  view: ListView,
  filters: ConversationFilters,
  access: ListAccess,
  pageSize = PAGE_SIZE,
): Promise<ConversationPage> {
  const { readAll } = access;
  const offered = hasAssigneeFilter(view, readAll) ? filters.assignee : [];
  const assignee = offered[0] === UNASSIGNED && !hasNoAgentFilter(view, access) ? [] : offered;
  const query = {
    page: filters.page,
    page_size: pageSize,
    order_by: filters.order_by,
    order: filters.order,
    ...(filters.status.length ? { status: filters.status } : {}),
    ...(filters.priority.length ? { priority: filters.priority } : {}),
    ...(filters.tag.length ? { tag: filters.tag } : {}),
    ...(assignee.length && assignee[0] !== UNASSIGNED ? { assignee_id: assignee.map(Number) } : {}),
  };
  if (assignee[0] === UNASSIGNED) {
    if (view.kind === 'team')
      return unwrap(api.GET('/api/v1/teams/{id}/conversations/unassigned', { params: { path: { id: view.id }, query } }));
    const inbox = view.kind === 'inbox' ? { inbox_id: [view.id] } : {};
    return unwrap(api.GET('/api/v1/conversations/unassigned', { params: { query: { ...query, ...inbox } } }));
  }
  switch (view.kind) {
    case 'mentioned':
      return unwrap(api.GET('/api/v1/conversations/mentioned', { params: { query: { page: filters.page, page_size: pageSize } } }));
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
