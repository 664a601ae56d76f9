// The lists of viewers in the TanStack cache, under ['viewers', uuid] (docs/web.md, "Presence"):
// every `conversation_viewers` frame writes the conversation's whole list (realtime/cache.ts).
import type { QueryClient } from '@tanstack/react-query';
import type { ServerFrameOf } from '../../realtime/frames.gen';

export type Viewer = ServerFrameOf<'conversation_viewers'>['data']['viewers'][number];

export const viewersKey = (uuid: string) => ['viewers', uuid] as const;

export function applyViewers(client: QueryClient, data: ServerFrameOf<'conversation_viewers'>['data']): void {
  client.setQueryData<Viewer[]>(viewersKey(data.conversation_uuid), data.viewers);
}
