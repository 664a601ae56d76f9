// A conversation read in one tab is read in the agent's other tabs of this browser too: the tab
// that marked it tells the others over a BroadcastChannel, and each applies what its own mark
// would have (the conversation's unread count to 0, the lists and the navigation's counts read
// again). Other devices learn it on their next re-read.
import type { QueryClient } from '@tanstack/react-query';
import type { Conversation } from '../api/client';
import { keys } from '../api/keys';

const CHANNEL = 'parley-seen';

type Seen = { agent_id: number; conversation_uuid: string };

function isSeen(value: unknown): value is Seen {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return typeof v['agent_id'] === 'number' && typeof v['conversation_uuid'] === 'string';
}

/** What marking `uuid` as seen changes in this tab's cache. */
export function applySeen(client: QueryClient, uuid: string): Promise<void> {
  // Read now: a later message from the contact counts from 0 (and marks it seen again).
  client.setQueryData<Conversation>(keys.conversations.detail(uuid), (c) => (c ? { ...c, unread_message_count: 0 } : c));
  return client.invalidateQueries({ queryKey: keys.conversations.lists });
}

/** Tells the agent's other tabs that `uuid` was just marked seen. */
export function announceSeen(agentId: number, uuid: string): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage({ agent_id: agentId, conversation_uuid: uuid } satisfies Seen);
  channel.close();
}

/** Applies the marks the agent's other tabs announce; answers the function that stops listening. */
export function listenForSeen(client: QueryClient, agentId: number): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => {};
  const channel = new BroadcastChannel(CHANNEL);
  channel.onmessage = (event: MessageEvent) => {
    if (isSeen(event.data) && event.data.agent_id === agentId) void applySeen(client, event.data.conversation_uuid);
  };
  return () => channel.close();
}
