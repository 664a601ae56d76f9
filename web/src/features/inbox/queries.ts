import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { keys } from '../../api/keys';
import { can, useAgent } from '../auth/session';
import { type ConversationFilters, fetchConversations, type ListView } from './views';

export function useConversationList(view: ListView, filters: ConversationFilters) {
  const readAll = can(useAgent(), 'conversations:read_all');
  return useQuery({
    queryKey: keys.conversations.list(view, filters),
    queryFn: () => fetchConversations(view, filters, readAll),
    placeholderData: keepPreviousData,
  });
}

const TOTAL_FILTERS: ConversationFilters = {
  status: ['Open'],
  priority: [],
  tag: [],
  assignee: [],
  order_by: 'last_message_at',
  order: 'desc',
  page: 1,
};

/** How many open conversations a view holds, for the navigation: one row read, its `total` kept. */
export function useViewTotal(view: ListView): number | undefined {
  const readAll = can(useAgent(), 'conversations:read_all');
  const query = useQuery({
    queryKey: [...keys.conversations.list(view, TOTAL_FILTERS), 'total'],
    queryFn: async () => (await fetchConversations(view, TOTAL_FILTERS, readAll, 1)).total,
    staleTime: 60_000,
  });
  return query.data;
}
