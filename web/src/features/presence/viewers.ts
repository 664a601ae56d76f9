// Who is viewing a conversation, and who is replying (docs/api.md, "Presence"). The lists live in
// the TanStack cache under ['viewers', uuid]: the conversation screen reads its list once
// (GET …/viewers) and every `conversation_viewers` frame writes the new one (realtime/cache.ts).
// The inbox rows read the cache only: they show what the frames have brought since the tab opened.
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { api, unwrap } from '../../api/client';
import { useRealtime } from '../../realtime/RealtimeProvider';
import { useAgent } from '../auth/session';
import { type Viewer, viewersKey } from './cache';

/** The other agents viewing the conversation; `read`: ask the server first (the open conversation), else the frames only. */
export function useOtherViewers(uuid: string, read: boolean): Viewer[] {
  const me = useAgent();
  const query = useQuery({
    queryKey: viewersKey(uuid),
    queryFn: () => unwrap(api.GET('/api/v1/conversations/{cuuid}/viewers', { params: { path: { cuuid: uuid } } })),
    enabled: read && uuid !== '',
    // Frames keep it current; a reconnect re-reads it (RealtimeProvider invalidates every query).
    staleTime: Number.POSITIVE_INFINITY,
  });
  return (query.data ?? []).filter((viewer) => viewer.agent_id !== me.id);
}

/** Tells the server this tab views the conversation while the screen is open (again after a reconnect: socket.ts). */
export function useViewing(uuid: string): void {
  const { socket } = useRealtime();
  useEffect(() => (uuid && socket ? socket.view(uuid) : undefined), [socket, uuid]);
}
