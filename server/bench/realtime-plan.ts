// Who holds which socket, on which instance, watching which conversation; and the stream of
// messages with the sockets each must reach. Pure: built from the seeded ids and a seed, so the
// same sizes give the same plan, and tests can check it.
import { seededRandom } from './realtime-stats.ts';

export interface RealtimeAgent {
  /** `Authorization` header value (API credentials). */
  authorization: string;
  team: number;
}

export interface RealtimeConversation {
  uuid: string;
  /** Its assignee (index into agents); the conversation is assigned to the agent's team too. */
  agent: number;
  /** Its visitor's widget session token. */
  token: string;
}

export interface RealtimeFixtures {
  /** The live-chat inbox's uuid (`X-Service-Inbox-ID`). */
  inboxUuid: string;
  agents: RealtimeAgent[];
  /** One visitor each, with one widget socket each. */
  conversations: RealtimeConversation[];
}

export interface AgentSocketPlan {
  agent: number;
  instance: number;
  /** Conversations (indexes) it subscribes to, as an agent's open tab would. */
  subscribe: number[];
}

export interface WidgetSocketPlan {
  conversation: number;
  instance: number;
}

export interface RealtimePlan {
  /** Base URLs (http://host:port) of the Parley instances; sockets and requests alternate between them. */
  instances: string[];
  inboxUuid: string;
  agents: Array<{ authorization: string }>;
  /**
   * `watchers`: the agent sockets subscribed to it (an open conversation view); `recipients`: the
   * agent sockets whose agent may read it (its team: the assignee and teammates), which all get
   * its conversation events, subscribed or not (docs/api.md, Realtime).
   */
  conversations: Array<RealtimeConversation & { watchers: number[]; recipients: number[] }>;
  agentSockets: AgentSocketPlan[];
  widgetSockets: WidgetSocketPlan[];
}

export interface PlanSizes {
  agentSockets: number;
  /** Conversations each agent socket subscribes to; the first `OWN_SUBSCRIPTIONS` of the agent's own, the rest its team's. */
  subscriptionsPerSocket: number;
  seed: number;
}

const OWN_SUBSCRIPTIONS = 2;

function pick<T>(items: readonly T[], random: () => number): T {
  return items[Math.floor(random() * items.length)] as T;
}

/**
 * Agent sockets go round the agents (socket i is a tab of agent i mod agents), widget sockets one
 * per conversation; both alternate over the instances. Each agent socket subscribes to a few of
 * its own conversations and a few of its team's.
 */
export function buildPlan(fixtures: RealtimeFixtures, instances: readonly string[], sizes: PlanSizes): RealtimePlan {
  if (fixtures.agents.length === 0 || fixtures.conversations.length === 0)
    throw new Error('the realtime plan needs agents and conversations');
  const random = seededRandom(sizes.seed);
  const own = new Map<number, number[]>();
  const ofTeam = new Map<number, number[]>();
  fixtures.conversations.forEach((conversation, index) => {
    const agent = fixtures.agents[conversation.agent];
    if (!agent) throw new Error(`conversation ${conversation.uuid} names an unknown agent`);
    own.set(conversation.agent, [...(own.get(conversation.agent) ?? []), index]);
    ofTeam.set(agent.team, [...(ofTeam.get(agent.team) ?? []), index]);
  });
  const watchers = fixtures.conversations.map(() => new Set<number>());
  const teamSockets = new Map<number, number[]>();
  const agentSockets: AgentSocketPlan[] = [];
  for (let socket = 0; socket < sizes.agentSockets; socket++) {
    const agent = socket % fixtures.agents.length;
    const mine = own.get(agent) ?? [];
    const team = ofTeam.get((fixtures.agents[agent] as RealtimeAgent).team) ?? [];
    const subscribe = new Set<number>();
    for (let k = 0; k < sizes.subscriptionsPerSocket; k++) {
      const pool = k < OWN_SUBSCRIPTIONS && mine.length > 0 ? mine : team;
      if (pool.length > 0) subscribe.add(pick(pool, random));
    }
    for (const conversation of subscribe) watchers[conversation]?.add(socket);
    const teamId = (fixtures.agents[agent] as RealtimeAgent).team;
    teamSockets.set(teamId, [...(teamSockets.get(teamId) ?? []), socket]);
    agentSockets.push({ agent, instance: socket % instances.length, subscribe: [...subscribe] });
  }
  return {
    instances: [...instances],
    inboxUuid: fixtures.inboxUuid,
    agents: fixtures.agents.map((a) => ({ authorization: a.authorization })),
    conversations: fixtures.conversations.map((c, i) => ({
      ...c,
      watchers: [...(watchers[i] ?? [])],
      recipients: teamSockets.get((fixtures.agents[c.agent] as RealtimeAgent).team) ?? [],
    })),
    agentSockets,
    widgetSockets: fixtures.conversations.map((_, conversation) => ({ conversation, instance: conversation % instances.length })),
  };
}

export interface PlannedMessage {
  kind: 'reply' | 'visitor';
  conversation: number;
  /** The instance the request goes to. */
  instance: number;
}

/**
 * The message stream, half agent replies and half visitor messages, each to a random
 * conversation with at least one agent socket to tell when there is one (so that both
 * latencies are measured on every message), requests alternating over the instances.
 */
export function planMessages(plan: RealtimePlan, count: number, seed: number): PlannedMessage[] {
  const random = seededRandom(seed);
  const watched = plan.conversations.flatMap((c, i) => (c.recipients.length > 0 ? [i] : []));
  const pool = watched.length > 0 ? watched : plan.conversations.map((_, i) => i);
  return Array.from({ length: count }, (_, i) => ({
    kind: i % 2 === 0 ? 'reply' : 'visitor',
    conversation: pick(pool, random),
    instance: Math.floor(i / 2) % plan.instances.length,
  }));
}

/** The sockets a message's `new_message` frame must reach: the visitor's widget for a public reply (never for the visitor's own message), and every socket of the agents who may read the conversation. */
export function expectedRecipients(plan: RealtimePlan, message: PlannedMessage): { widgets: number[]; agents: number[] } {
  const conversation = plan.conversations[message.conversation];
  if (!conversation) throw new Error(`no conversation ${message.conversation}`);
  return { widgets: message.kind === 'reply' ? [message.conversation] : [], agents: conversation.recipients };
}

/** Visitors per client address: the widget's per-address limits are meant for an office or a mobile NAT, not for one address holding every visitor. */
export const VISITORS_PER_ADDRESS = 20;

/** The loopback address visitor n connects from (127.1.x.y; all of 127/8 reaches the server on Linux). */
export function visitorAddress(visitor: number): string {
  const n = Math.floor(visitor / VISITORS_PER_ADDRESS);
  return `127.1.${Math.floor(n / 250)}.${(n % 250) + 1}`;
}

/**
 * The loopback address agent n works from (127.2.x.y): each agent its own, as at their own
 * desk. From one address, a hundred agents' first authentications at the same moment meet the
 * per-address limit on authentications in progress (AUTH_FAILURE_LIMIT_PER_MINUTE) and get 429.
 */
export function agentAddress(agent: number): string {
  return `127.2.${Math.floor(agent / 250)}.${(agent % 250) + 1}`;
}
