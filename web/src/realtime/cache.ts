// Socket frames → the TanStack Query cache (docs/web.md, "Live updates"). A frame that carries
// the new state is written into the cached records it concerns (setQueryData); lists, whose
// order, membership and counts the frame cannot settle alone, are invalidated (refetched once,
// coalesced over 300 ms). Records are merged by uuid, so a frame seen twice changes nothing.
import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { Agent, Conversation, Message } from '../api/client';
import { keys } from '../api/keys';
import { applyNotificationFrame } from '../features/notifications/queries';
import { applyViewers } from '../features/presence/cache';
import type { ServerFrame, ServerFrameOf } from './frames.gen';

export interface MessagePage {
  results: Message[];
  total: number;
  per_page: number;
  total_pages: number;
  page: number;
}

/** The conversation fields a conversation_update may carry, copied as they come. */
const CONVERSATION_FIELDS = [
  'status',
  'status_category',
  'snoozed_until',
  'priority',
  'tags',
  'assigned_user_id',
  'assigned_team_id',
] as const;

type ContactUpdate = ServerFrameOf<'contact_update'>['data'];

export interface Live {
  typing(frame: ServerFrameOf<'typing'>['data']): void;
  presence(contactId: number, presence: Extract<ContactUpdate, { presence: unknown }>['presence']): void;
}

/** Reads of a thread already followed by another one (addMessageToCache). */
const followed = new WeakSet<Promise<unknown>>();

/**
 * Adds a message to its conversation's cached thread, once (the socket may bring it after the
 * POST answered it). A read of the thread on its way (the first, a refetch, older pages) answers
 * what the server held before this message and would land without it, or the message had no
 * thread to go into: once that read settles the thread is read again, one more read however
 * many messages came meanwhile. The read in flight is not cancelled: under a steady stream of
 * messages, cancelling each time could keep a first read from ever landing.
 */
export function addMessageToCache(client: QueryClient, message: Message): void {
  const key = keys.conversations.messages(message.conversation_uuid);
  const query = client.getQueryCache().find({ queryKey: key, exact: true });
  const reading = query?.state.fetchStatus === 'fetching' ? query.promise : undefined;
  if (reading && !followed.has(reading)) {
    followed.add(reading);
    const again = () => void client.invalidateQueries({ queryKey: key, exact: true });
    reading.then(again, again);
  }
  client.setQueryData<InfiniteData<MessagePage>>(key, (data) => {
    if (!data) return data;
    if (data.pages.some((page) => page.results.some((m) => m.uuid === message.uuid))) return data;
    const [first, ...rest] = data.pages;
    if (!first) return data;
    return { ...data, pages: [{ ...first, results: [message, ...first.results], total: first.total + 1 }, ...rest] };
  });
}

/**
 * The navigation's counts, re-read for others' changes at most this often: every open tab of every
 * agent asks for them, and a busy installation changes something every second. The agent's own
 * changes re-read them at once (they invalidate the lists, counts included).
 */
const COUNTS_EVERY_MS = 3000;
const isCounts = (key: readonly unknown[]) => keys.conversations.counts.every((part, i) => key[i] === part);

export function frameApplier(client: QueryClient, live: Live, meId: () => number | null) {
  let timer = 0;
  let countsRead = 0;
  let countsTimer = 0;
  const rereadCounts = () => {
    if (countsTimer) return;
    countsTimer = window.setTimeout(
      () => {
        countsTimer = 0;
        countsRead = Date.now();
        void client.invalidateQueries({ queryKey: keys.conversations.counts, exact: true });
      },
      Math.max(0, countsRead + COUNTS_EVERY_MS - Date.now()),
    );
  };
  const invalidateLists = () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => {
      void client.invalidateQueries({ queryKey: keys.conversations.lists, predicate: (query) => !isCounts(query.queryKey) });
      rereadCounts();
    }, 300);
  };
  const addMessage = (message: Message) => addMessageToCache(client, message);
  // One re-read of a thread for a burst of changes (a macro's several), never cancelling a read
  // in flight (a first read, or older pages being loaded).
  const rereads = new Map<string, number>();
  const rereadThread = (uuid: string) => {
    window.clearTimeout(rereads.get(uuid));
    rereads.set(
      uuid,
      window.setTimeout(() => {
        rereads.delete(uuid);
        void client.invalidateQueries({ queryKey: keys.conversations.messages(uuid), exact: true }, { cancelRefetch: false });
      }, 300),
    );
  };

  return function apply(frame: ServerFrame): void {
    switch (frame.type) {
      case 'new_message': {
        const message = frame.data;
        addMessage(message);
        if (message.type !== 'activity' && !message.private) {
          // A message from the contact is unread for this agent until they mark the conversation
          // seen: an open conversation does so at once (ConversationView), which needs the count.
          const unread = message.type === 'incoming' ? 1 : 0;
          client.setQueryData<Conversation>(keys.conversations.detail(message.conversation_uuid), (c) =>
            c
              ? {
                  ...c,
                  last_message: message.text_content,
                  last_message_at: message.created_at,
                  unread_message_count: c.unread_message_count + unread,
                }
              : c,
          );
        }
        invalidateLists();
        return;
      }
      case 'message_update': {
        const { uuid, status, conversation_uuid } = frame.data;
        client.setQueryData<InfiniteData<MessagePage>>(keys.conversations.messages(conversation_uuid), (pages) =>
          pages
            ? {
                ...pages,
                pages: pages.pages.map((page) => ({ ...page, results: page.results.map((m) => (m.uuid === uuid ? { ...m, status } : m)) })),
              }
            : pages,
        );
        return;
      }
      case 'conversation_update': {
        const data = frame.data;
        const uuid = data.uuid;
        const changed: Partial<Conversation> = {};
        for (const field of CONVERSATION_FIELDS) if (field in data) Object.assign(changed, { [field]: data[field as keyof typeof data] });
        client.setQueryData<Conversation>(keys.conversations.detail(uuid), (c) => (c ? { ...c, ...changed } : c));
        // The contact's CSAT answer: merged into the survey the record holds (or, if it holds none yet, read again).
        if ('csat' in data) {
          const cached = client.getQueryData<Conversation>(keys.conversations.detail(uuid));
          if (cached?.csat?.uuid === data.csat.uuid) {
            const { rating, feedback, submitted_at } = data.csat;
            client.setQueryData<Conversation>(keys.conversations.detail(uuid), {
              ...cached,
              csat: { ...cached.csat, rating, feedback, submitted_at },
            });
          } else if (cached) void client.invalidateQueries({ queryKey: keys.conversations.detail(uuid), exact: true });
          return;
        }
        // SLA events and anything this frame does not carry whole (deadlines) are read again.
        if ('sla' in data || 'status' in data) void client.invalidateQueries({ queryKey: keys.conversations.sla(uuid) });
        if ('sla' in data) void client.invalidateQueries({ queryKey: keys.conversations.detail(uuid), exact: true });
        // A change (status, priority, assignee, tags, SLA) wrote its activity line in the thread, which no
        // frame carries: an open thread is read again. The contact's last look is no change of that kind.
        if (Object.keys(data).some((field) => field !== 'uuid' && field !== 'contact_last_seen_at')) rereadThread(uuid);
        invalidateLists();
        return;
      }
      case 'new_conversation':
        invalidateLists();
        return;
      case 'contact_update': {
        const data = frame.data;
        if ('page_visits' in data) client.setQueryData(keys.contacts.pageVisits(data.contact_id), data.page_visits);
        else live.presence(data.contact_id, data.presence);
        return;
      }
      case 'typing':
        live.typing(frame.data);
        return;
      case 'notification':
        applyNotificationFrame(client, frame.data);
        return;
      case 'conversation_viewers':
        applyViewers(client, frame.data);
        return;
      case 'agent_availability_update': {
        const { agent_id, availability_status } = frame.data;
        if (agent_id === meId()) client.setQueryData<Agent | null>(keys.me, (me) => (me ? { ...me, availability_status } : me));
        client.setQueryData<Array<{ id: number; availability_status: string }>>(keys.agents, (agents) =>
          agents?.map((a) => (a.id === agent_id ? { ...a, availability_status } : a)),
        );
        return;
      }
      default:
        return;
    }
  };
}
