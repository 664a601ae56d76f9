// The caller's notifications in the TanStack cache: the unread count (the bell's badge), the
// list in its two filters (unread, all), the preferences; and what a `notification` socket
// frame does to them (realtime/cache.ts calls applyNotificationFrame). A frame seen twice, or
// one whose notification is already listed, changes nothing.
import { type InfiniteData, type QueryClient, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Schemas, unwrap } from '../../api/client';

export type Notification = Schemas['Notification'];
export type NotificationSettings = Schemas['NotificationSettings'];
export type NotificationFilter = 'unread' | 'all';

interface NotificationPage {
  results: Notification[];
  total: number;
  per_page: number;
  total_pages: number;
  page: number;
}

const PAGE_SIZE = 20;

export const notificationKeys = {
  all: ['notifications'] as const,
  lists: ['notifications', 'list'] as const,
  list: (filter: NotificationFilter) => ['notifications', 'list', filter] as const,
  unreadCount: ['notifications', 'unread-count'] as const,
  settings: ['notifications', 'settings'] as const,
};

export function useUnreadCount() {
  return useQuery({
    queryKey: notificationKeys.unreadCount,
    queryFn: () => unwrap(api.GET('/api/v1/notifications/unread-count')),
    select: (data) => data.count,
    // Another tab of the same agent may have read some: the count is asked again on return.
    refetchOnWindowFocus: true,
  });
}

export function useNotificationList(filter: NotificationFilter, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: notificationKeys.list(filter),
    enabled,
    // Read again each time the panel opens: the unread filter keeps what was read while it was open.
    staleTime: 0,
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      unwrap(
        api.GET('/api/v1/notifications', {
          params: { query: { page: pageParam, page_size: PAGE_SIZE, ...(filter === 'unread' ? { unread: true } : {}) } },
        }),
      ),
    getNextPageParam: (last: NotificationPage) => (last.page < last.total_pages ? last.page + 1 : undefined),
  });
}

export function useNotificationSettings() {
  return useQuery({
    queryKey: notificationKeys.settings,
    queryFn: () => unwrap(api.GET('/api/v1/agents/me/notification-settings')),
  });
}

export function useSaveNotificationSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: NotificationSettings) => unwrap(api.PUT('/api/v1/agents/me/notification-settings', { body: settings })),
    onSuccess: (saved) => client.setQueryData(notificationKeys.settings, saved),
  });
}

type Lists = InfiniteData<NotificationPage>;

function forEachList(client: QueryClient, change: (filter: NotificationFilter, data: Lists) => Lists) {
  for (const filter of ['unread', 'all'] as const) {
    client.setQueryData<Lists>(notificationKeys.list(filter), (data) => (data ? change(filter, data) : data));
  }
}

function listed(client: QueryClient, id: number): Notification | undefined {
  for (const filter of ['all', 'unread'] as const) {
    const data = client.getQueryData<Lists>(notificationKeys.list(filter));
    const found = data?.pages.flatMap((page) => page.results).find((n) => n.id === id);
    if (found) return found;
  }
  return undefined;
}

/** Ids of the notifications frames brought: a frame seen twice counts once. */
const arrived = new Set<number>();
const listeners = new Set<(notification: Notification) => void>();

/** Called for each new notification a frame brings (the bell plays its sound). */
export function onNewNotification(listener: (notification: Notification) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function applyNotificationFrame(client: QueryClient, notification: Notification): void {
  if (arrived.has(notification.id) || listed(client, notification.id)) return;
  arrived.add(notification.id);
  if (notification.read_at === null)
    client.setQueryData<{ count: number }>(notificationKeys.unreadCount, (c) => (c ? { count: c.count + 1 } : c));
  forEachList(client, (filter, data) => {
    if (filter === 'unread' && notification.read_at !== null) return data;
    const [first, ...rest] = data.pages;
    if (!first) return data;
    return { ...data, pages: [{ ...first, results: [notification, ...first.results], total: first.total + 1 }, ...rest] };
  });
  for (const listener of listeners) listener(notification);
}

/** The notification changed in every cached list (the unread filter keeps it until re-read, so it does not jump away). */
function replaceListed(client: QueryClient, next: Notification) {
  forEachList(client, (_filter, data) => ({
    ...data,
    pages: data.pages.map((page) => ({ ...page, results: page.results.map((n) => (n.id === next.id ? next : n)) })),
  }));
}

function adjustCount(client: QueryClient, by: number) {
  client.setQueryData<{ count: number }>(notificationKeys.unreadCount, (c) => (c ? { count: Math.max(0, c.count + by) } : c));
}

// Marks made in one tab reach the agent's other tabs of this browser: the server sends no frame
// for a read, so the tab that made it tells the others, which read their notifications again.
const CHANNEL = 'parley-notifications';

function announceChange(agentId: number): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage({ agent_id: agentId });
  channel.close();
}

/** Re-reads the notifications when another tab of the agent changed them; answers the function that stops listening. */
export function listenForNotificationChanges(client: QueryClient, agentId: number): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {};
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent) => {
    const data = event.data as { agent_id?: unknown } | null;
    if (data?.agent_id === agentId) void client.invalidateQueries({ queryKey: notificationKeys.all });
  };
  return () => channel.close();
}

export function useNotificationActions(agentId: number) {
  const client = useQueryClient();
  const settle = () => {
    announceChange(agentId);
    return client.invalidateQueries({ queryKey: notificationKeys.unreadCount });
  };
  const mark = useMutation({
    mutationFn: ({ id, read }: { id: number; read: boolean }) =>
      read
        ? unwrap(api.PUT('/api/v1/notifications/{id}/read', { params: { path: { id } } }))
        : unwrap(api.PUT('/api/v1/notifications/{id}/unread', { params: { path: { id } } })),
    onSuccess: (next, { id }) => {
      const before = listed(client, id);
      if (before && (before.read_at === null) !== (next.read_at === null)) adjustCount(client, next.read_at === null ? 1 : -1);
      replaceListed(client, next);
    },
    onSettled: settle,
  });
  const remove = useMutation({
    mutationFn: (id: number) => unwrap(api.DELETE('/api/v1/notifications/{id}', { params: { path: { id } } })),
    onSuccess: (_done, id) => {
      if (listed(client, id)?.read_at === null) adjustCount(client, -1);
      forEachList(client, (_filter, data) => ({
        ...data,
        pages: data.pages.map((page) => {
          const results = page.results.filter((n) => n.id !== id);
          return { ...page, results, total: page.total - (page.results.length - results.length) };
        }),
      }));
    },
    onSettled: settle,
  });
  const readAll = useMutation({
    mutationFn: () => unwrap(api.POST('/api/v1/notifications/read-all')),
    onSuccess: () => {
      const now = new Date().toISOString();
      client.setQueryData(notificationKeys.unreadCount, { count: 0 });
      forEachList(client, (_filter, data) => ({
        ...data,
        pages: data.pages.map((page) => ({ ...page, results: page.results.map((n) => (n.read_at ? n : { ...n, read_at: now })) })),
      }));
    },
    onSettled: () => {
      announceChange(agentId);
      return client.invalidateQueries({ queryKey: notificationKeys.all });
    },
  });
  return { mark, remove, readAll };
}
