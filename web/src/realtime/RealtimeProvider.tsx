// One agent socket for the signed-in app, its state, and the short-lived facts it brings that no
// API record holds: who is typing where, which contacts are on the site now.
import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { keys } from '../api/keys';
import { useAgent } from '../features/auth/session';
import { frameApplier, type Live } from './cache';
import { listenForSeen } from './seen';
import { AgentSocket, type SocketState } from './socket';

/** A typing indicator lasts this long without a new frame (the server repeats one every 2 s while typing). */
const TYPING_TTL_MS = 6000;

export interface Typist {
  key: string;
  agentId?: number;
  contactId?: number;
  isPrivate: boolean;
  until: number;
}

class LiveStore implements Live {
  typists = new Map<string, Typist[]>();
  online = new Map<number, 'online' | 'offline'>();
  #listeners = new Set<() => void>();
  #version = 0;

  subscribe = (listener: () => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };
  version = () => this.#version;
  #emit() {
    this.#version += 1;
    for (const listener of this.#listeners) listener();
  }

  typing(frame: Parameters<Live['typing']>[0]): void {
    const key = 'agent_id' in frame ? `a${frame.agent_id}` : `c${frame.contact_id}`;
    const others = (this.typists.get(frame.conversation_uuid) ?? []).filter((t) => t.key !== key && t.until > Date.now());
    if (frame.is_typing) {
      others.push({
        key,
        ...('agent_id' in frame
          ? { agentId: frame.agent_id, isPrivate: frame.is_private }
          : { contactId: frame.contact_id, isPrivate: false }),
        until: Date.now() + TYPING_TTL_MS,
      });
      window.setTimeout(() => this.#emit(), TYPING_TTL_MS + 50);
    }
    this.typists.set(frame.conversation_uuid, others);
    this.#emit();
  }

  presence(contactId: number, presence: 'online' | 'offline'): void {
    this.online.set(contactId, presence);
    this.#emit();
  }
}

interface RealtimeValue {
  state: SocketState;
  socket: AgentSocket | null;
  live: LiveStore;
}

const Context = createContext<RealtimeValue>({ state: 'closed', socket: null, live: new LiveStore() });

export function RealtimeProvider({ children }: { children: ReactNode }) {
  const client = useQueryClient();
  const agent = useAgent();
  const [state, setState] = useState<SocketState>('connecting');
  const live = useMemo(() => new LiveStore(), []);
  const [socket, setSocket] = useState<AgentSocket | null>(null);
  const agentId = agent.id;

  useEffect(() => {
    const apply = frameApplier(client, live, () => agentId);
    const next = new AgentSocket({
      onFrame: apply,
      onState: setState,
      // Nothing is replayed after a gap: every cached server state is read again.
      onResync: () => void client.invalidateQueries({ predicate: (query) => query.queryKey[0] !== keys.me[0] }),
      // Signed out elsewhere (a session ended, a password changed)? Asking who we are finds out: a 401 goes to sign-in.
      onRefused: () => void client.invalidateQueries({ queryKey: keys.me }),
    });
    next.start();
    setSocket(next);
    const stopSeen = listenForSeen(client, agentId);
    return () => {
      stopSeen();
      next.stop();
    };
  }, [client, live, agentId]);

  const value = useMemo(() => ({ state, socket, live }), [state, socket, live]);
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

export function useRealtime(): RealtimeValue {
  return useContext(Context);
}

/** Receive typing frames for a conversation while a screen shows it. */
export function useConversationSubscription(uuid: string | undefined): void {
  const { socket } = useRealtime();
  useEffect(() => (uuid && socket ? socket.subscribe(uuid) : undefined), [socket, uuid]);
}

export function useTypists(uuid: string): Typist[] {
  const { live } = useRealtime();
  useSyncExternalStore(live.subscribe, live.version);
  return (live.typists.get(uuid) ?? []).filter((typist) => typist.until > Date.now());
}

export function usePresence(contactId: number | undefined): 'online' | 'offline' | undefined {
  const { live } = useRealtime();
  useSyncExternalStore(live.subscribe, live.version);
  return contactId === undefined ? undefined : live.online.get(contactId);
}
