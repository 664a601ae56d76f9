import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { keys } from '../../api/keys';
import { can, useAgent } from '../auth/session';
import { type ConversationFilters, fetchConversations, type ListAccess, type ListView } from './views';

export function useListAccess(): ListAccess {
  const agent = useAgent();
  return { readAll: can(agent, 'conversations:read_all'), readUnassigned: can(agent, 'conversations:read_unassigned') };
}

export function useConversationList(view: ListView, filters: ConversationFilters) {
  const access = useListAccess();
  return useQuery({
    queryKey: keys.conversations.list(view, filters),
    queryFn: () => fetchConversations(view, filters, access),
    placeholderData: keepPreviousData,
  });
}

export type ViewCounts = Awaited<ReturnType<typeof fetchViewCounts>>;
export type ViewCount = { open: number; unread: number };

async function fetchViewCounts() {
  return unwrap(api.GET('/api/v1/conversations/counts'));
}

/**
 * The open and unread conversations of a view, for the navigation (one request for every view,
 * GET /conversations/counts; undefined while it loads or for a view the agent may not read).
 * Its key is under the lists': socket frames and marking a conversation seen re-read it
 * (realtime/cache.ts coalesces them).
 */
export function useViewCount(view: ListView): { count: ViewCount | undefined; cap: number } {
  const query = useQuery({ queryKey: keys.conversations.counts, queryFn: fetchViewCounts, staleTime: 60_000 });
  const data = query.data;
  return { count: data ? countOf(data, view) : undefined, cap: data?.cap ?? 99 };
}

function countOf(counts: ViewCounts, view: ListView): ViewCount | undefined {
  switch (view.kind) {
    case 'mine':
      return counts.mine ?? undefined;
    case 'unassigned':
      return counts.unassigned ?? undefined;
    case 'all':
      return counts.all ?? undefined;
    case 'mentioned':
      return undefined;
    case 'team':
      return counts.teams.find((team) => team.id === view.id);
    case 'inbox':
      return counts.inboxes.find((inbox) => inbox.id === view.id);
  }
}

/** A count as the badge shows it: "99+" above the cap. */
export function capped(n: number, cap: number): string {
  return n > cap ? `${cap}+` : String(n);
}
