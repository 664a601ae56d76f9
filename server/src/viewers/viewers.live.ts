// This instance's viewers (docs/api.md, "Presence"): the agent socket hands it `viewing`,
// `viewing_stopped` and typing frames (wired in app.ts, so realtime never imports this domain).
// Each socket's conversations are kept here and written as rows (viewers.queries.ts), so every
// instance can read the lists; changes are announced on the bus and every instance sends the
// new list to its sockets that may read the conversation.
//
// Cheap per frame: a typing frame costs a write only when it changes `replying`; the 8 s
// timeout of a reply nobody ended is kept in memory. A socket's writes run one after another,
// so its close (which deletes its rows) never overtakes the insert of a `viewing` before it.
import { randomUUID } from 'node:crypto';
import { conversationFacts } from '../conversations/conversations.read.ts';
import type { AppDeps } from '../deps.ts';
import type { ViewingHooks } from '../realtime/agent-socket.ts';
import { frame } from '../realtime/frames.ts';
import type { AgentConn, Hub } from '../realtime/hub.ts';
import { announceViewers, VIEWERS_CHANNEL, viewersOf } from './viewers.service.ts';
import { deleteInstanceViewers, deleteViewers, setReplying, upsertViewers, type ViewerRow } from './viewers.queries.ts';

/** Conversations one socket may view at once (a tab shows one; a few tabs' worth of slack). */
export const MAX_VIEWING_PER_SOCKET = 20;
/** A reply is still being written this long after its last typing frame (the web app repeats them every 2 s). */
export const REPLYING_TTL_MS = 8_000;
/** How often this instance refreshes its rows (they expire after 60 s: viewers.service.ts). */
const HEARTBEAT_MS = 20_000;
const TICK_MS = 1_000;
const OPEN = 1;

interface Viewing {
  conversationId: number;
  replying: boolean;
  replyingUntil: number;
}

interface SocketViewing {
  key: string;
  conn: AgentConn;
  /** Conversation uuid → what this socket does there. */
  viewing: Map<string, Viewing>;
  closed: boolean;
  chain: Promise<void>;
}

export type LiveViewers = ViewingHooks & { stop(): Promise<void> };

export async function startViewers(deps: AppDeps, hub: Hub): Promise<LiveViewers> {
  const instance = randomUUID();
  const log = deps.log.child({ component: 'viewers' });
  const sockets = new Map<AgentConn, SocketViewing>();
  /** Deletes of closed sockets still running (the stop waits for them). */
  const closing = new Set<Promise<void>>();
  let counter = 0;
  const nowMs = () => deps.clock.now().getTime();
  const warn = (what: string) => (error: unknown) =>
    log.warn({ err: error instanceof Error ? error.message : String(error) }, `viewers: could not ${what}`);

  /** Runs a socket's writes one at a time, in order; a failure is logged and the next one runs. */
  function run(state: SocketViewing, what: string, task: () => Promise<void>): Promise<void> {
    state.chain = state.chain.then(task).catch(warn(what));
    return state.chain;
  }

  async function change(conversationIds: number[]): Promise<void> {
    await announceViewers(deps, conversationIds);
  }

  // Reads of a list, coalesced per conversation: one in flight, and one more after it when
  // another change came meanwhile (so the last read follows the last change).
  const reading = new Map<number, boolean>();
  function refresh(conversationId: number): void {
    if (reading.has(conversationId)) {
      reading.set(conversationId, true);
      return;
    }
    reading.set(conversationId, false);
    const loop = async () => {
      do {
        reading.set(conversationId, false);
        await pushList(conversationId).catch(warn('send a list of viewers'));
      } while (reading.get(conversationId));
      reading.delete(conversationId);
    };
    loop().catch(warn('send a list of viewers'));
  }

  async function listFrame(conversationId: number) {
    const [facts] = await conversationFacts(deps.db, { ids: [conversationId] });
    if (!facts) return null;
    const viewers = await viewersOf(deps.db, conversationId);
    return { facts, data: frame('conversation_viewers', { conversation_uuid: facts.uuid, viewers }) };
  }

  async function pushList(conversationId: number): Promise<void> {
    if (!hub.hasAgents()) return;
    const list = await listFrame(conversationId);
    if (list) hub.toReaders(list.facts, list.data);
  }

  const unsubscribe = await deps.bus.subscribe(VIEWERS_CHANNEL, (message) => {
    const ids = message['conversation_ids'];
    if (!Array.isArray(ids)) return;
    for (const id of ids) if (Number.isInteger(id) && id > 0) refresh(id as number);
  });

  function rowOf(state: SocketViewing, viewing: Viewing): ViewerRow {
    return {
      conversation_id: viewing.conversationId,
      socket_key: state.key,
      agent_id: state.conn.agentId,
      instance,
      replying: viewing.replying,
    };
  }

  function stateOf(conn: AgentConn): SocketViewing {
    let state = sockets.get(conn);
    if (!state) {
      counter += 1;
      const created: SocketViewing = { key: `${instance}:${counter}`, conn, viewing: new Map(), closed: false, chain: Promise.resolve() };
      sockets.set(conn, created);
      // Closed (by the client, or by the hub after 60 s of silence): the socket views nothing more.
      conn.socket.on('close', () => {
        created.closed = true;
        sockets.delete(conn);
        const dropped = run(created, 'drop a closed socket', async () => change(await deleteViewers(deps.db, created.key)));
        closing.add(dropped);
        void dropped.finally(() => closing.delete(dropped));
      });
      state = created;
    }
    return state;
  }

  function setReply(state: SocketViewing, viewing: Viewing, replying: boolean): Promise<void> {
    viewing.replying = replying;
    return run(state, 'record a reply', async () => {
      if (state.closed) return;
      if (await setReplying(deps.db, viewing.conversationId, state.key, replying, deps.clock.now())) await change([viewing.conversationId]);
    });
  }

  // A reply whose typing stopped without a `false` (a closed lid, a lost frame) ends by itself.
  const tick = setInterval(() => {
    const t = nowMs();
    for (const state of sockets.values()) {
      for (const viewing of state.viewing.values()) {
        if (viewing.replying && viewing.replyingUntil <= t) void setReply(state, viewing, false);
      }
    }
  }, TICK_MS);
  tick.unref();

  // Keeps this instance's rows from expiring; one statement for all of them. A row the sweep took
  // meanwhile (the database was out of reach for a minute) is written again and announced.
  const heartbeat = setInterval(() => {
    const rows = [...sockets.values()].filter((s) => !s.closed).flatMap((s) => [...s.viewing.values()].map((v) => rowOf(s, v)));
    upsertViewers(deps.db, rows, deps.clock.now()).then(change).catch(warn('refresh this instance’s viewers'));
  }, HEARTBEAT_MS);
  heartbeat.unref();

  return {
    async viewing(conn, facts) {
      // A frame handled after its socket closed: its close (which drops the rows) has come and gone.
      if (conn.socket.readyState !== OPEN) return null;
      const state = stateOf(conn);
      if (state.viewing.has(facts.uuid)) {
        // Already viewing (a screen opened twice): this socket gets the list again, nothing changes.
        await state.chain;
        const list = await listFrame(facts.id);
        if (list && conn.socket.readyState === OPEN) conn.socket.send(list.data);
        return null;
      }
      if (state.viewing.size >= MAX_VIEWING_PER_SOCKET) {
        return `Too many conversations viewed on this socket (${MAX_VIEWING_PER_SOCKET}): send viewing_stopped for one first`;
      }
      const viewing: Viewing = { conversationId: facts.id, replying: false, replyingUntil: 0 };
      state.viewing.set(facts.uuid, viewing);
      await run(state, 'record a viewer', async () => {
        if (state.closed) return;
        await upsertViewers(deps.db, [rowOf(state, viewing)], deps.clock.now());
        await change([facts.id]);
      });
      return null;
    },
    async viewingStopped(conn, uuid) {
      const state = sockets.get(conn);
      const viewing = state?.viewing.get(uuid);
      if (!state || !viewing) return;
      state.viewing.delete(uuid);
      await run(state, 'drop a viewer', async () => change(await deleteViewers(deps.db, state.key, viewing.conversationId)));
    },
    async typing(conn, facts, replying) {
      const state = sockets.get(conn);
      const viewing = state?.viewing.get(facts.uuid);
      if (!state || !viewing) return;
      if (replying) viewing.replyingUntil = nowMs() + REPLYING_TTL_MS;
      if (viewing.replying !== replying) await setReply(state, viewing, replying);
    },
    async stop() {
      clearInterval(tick);
      clearInterval(heartbeat);
      await unsubscribe();
      await Promise.all([...[...sockets.values()].map((state) => state.chain), ...closing]);
      // A clean stop leaves no rows for the sweep: the other instances hear of it at once.
      await change(await deleteInstanceViewers(deps.db, instance)).catch(warn('drop this instance’s viewers'));
    },
  };
}
