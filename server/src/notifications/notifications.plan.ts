// What a domain event notifies, decided without I/O (notifications.fanout.ts loads what a batch
// of events needs, in a few set-based statements, then asks here, event by event):
//
// - conversation.assigned: the assignee (type assigned); or, assigned to a team while nobody
//   has it, the team's members (team_assigned);
// - message.created: a contact's reply, to who followed before it came (reply); an agent's
//   private note, to the agents it mentions (mentioned);
// - conversation.sla_warning / sla_breached: the assignee, else the team's members.
//
// The actor is left out of the recipients afterwards, and so is every agent who may not read
// the conversation (readersOfEach).
import type { NotificationType } from '../db/types.ts';
import { PermanentJobError } from '../jobs/jobs.runner.ts';

/** A message's excerpt: its first characters, as plain text. */
export const EXCERPT_LENGTH = 200;

export type Actor = { type: 'agent' | 'contact' | 'automation' | 'system'; id: number | null; name: string };

const SYSTEM: Actor = { type: 'system', id: null, name: 'Parley' };

/** A domain event, as the trigger wrote it into the job's payload. */
export interface Cause {
  eventId: number;
  type: string;
  payload: Record<string, unknown>;
  createdAt: Date;
}

/** What one cause notifies: who (before the access and settings checks), as what, with which words. */
export interface Plan {
  type: NotificationType;
  recipients: number[];
  actor: Actor;
  /** The agent who acted (left out of the recipients). */
  actorAgentId: number | null;
  title: string;
  excerpt: string;
  messageId: number | null;
  messageUuid: string | null;
}

export interface PlanConversation {
  id: number;
  reference_number: number | string;
  subject: string;
  assigned_user_id: number | null;
  assigned_team_id: number | null;
}

export interface Person {
  id: number;
  type: string;
  first_name: string;
  last_name: string;
  email: string | null;
}

/** What a batch of causes was found to be about, loaded once for all of them. */
export interface PlanFacts {
  /** Follows of the conversations with a contact reply: who, since when. */
  follows: ReadonlyMap<number, ReadonlyArray<{ agent_id: number; created_at: Date }>>;
  /** The agents each note mentions. */
  mentions: ReadonlyMap<number, readonly number[]>;
  messages: ReadonlyMap<number, { uuid: string; text_content: string }>;
  people: ReadonlyMap<number, Person>;
  teamNames: ReadonlyMap<number, string>;
  teamMembers: Map<number, readonly number[]>;
}

export function parseCause(payload: Record<string, unknown>): Cause {
  const { event_id: eventId, type, payload: eventPayload, created_at: createdAt } = payload;
  const id = typeof eventId === 'number' ? eventId : typeof eventId === 'string' ? Number(eventId) : Number.NaN;
  if (!Number.isSafeInteger(id) || id < 1) throw new PermanentJobError('notifications.fan_out job without an event id');
  if (typeof type !== 'string') throw new PermanentJobError('notifications.fan_out job without an event type');
  if (typeof eventPayload !== 'object' || eventPayload === null || Array.isArray(eventPayload)) {
    throw new PermanentJobError('notifications.fan_out job without an event payload');
  }
  const at = typeof createdAt === 'string' ? new Date(createdAt) : new Date(Number.NaN);
  if (Number.isNaN(at.getTime())) throw new PermanentJobError('notifications.fan_out job without the event time');
  return { eventId: id, type, payload: eventPayload as Record<string, unknown>, createdAt: at };
}

export const idOf = (value: unknown): number | null =>
  typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null;

/** Plain text on one line, at most `max` characters (an ellipsis marks a cut). */
export function plainExcerpt(text: string, max = EXCERPT_LENGTH): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}

export function nameOf(person: { first_name: string; last_name: string; email: string | null }): string {
  return `${person.first_name} ${person.last_name}`.trim() || person.email || '';
}

function label(conversation: PlanConversation): string {
  return plainExcerpt(`#${conversation.reference_number} ${conversation.subject}`, 300);
}

function actorOf(facts: PlanFacts, userId: number | null): Actor {
  const person = userId === null ? undefined : facts.people.get(userId);
  if (!person) return SYSTEM;
  return { type: person.type === 'agent' ? 'agent' : 'contact', id: person.id, name: nameOf(person) };
}

const METRIC_WORDS: Record<string, string> = {
  first_response: 'first response',
  next_response: 'next response',
  resolution: 'resolution',
};

/** What the facts must hold for these causes, read from the events alone: the ids to load, by kind. */
export function factsNeeded(causes: readonly Cause[]) {
  const need = {
    conversations: new Set<number>(),
    replyConversations: new Set<number>(),
    notes: new Set<number>(),
    messages: new Set<number>(),
    people: new Set<number>(),
    teams: new Set<number>(),
  };
  for (const cause of causes) {
    const p = cause.payload;
    const conversationId = idOf(p['conversation_id']);
    if (conversationId === null) continue;
    need.conversations.add(conversationId);
    if (cause.type === 'conversation.assigned') {
      const actorId = idOf(p['actor_id']);
      if (actorId !== null) need.people.add(actorId);
      const teamId = idOf(p['team_id']);
      if (p['assignee_type'] !== 'user' && teamId !== null) need.teams.add(teamId);
    } else if (cause.type === 'message.created') {
      const messageId = idOf(p['message_id']);
      const senderId = idOf(p['sender_id']);
      if (messageId === null) continue;
      need.messages.add(messageId);
      if (senderId !== null) need.people.add(senderId);
      if (isReply(p)) need.replyConversations.add(conversationId);
      else if (isNote(p)) need.notes.add(messageId);
    }
  }
  return need;
}

/** The teams whose members an SLA alert goes to (its conversation has a team and nobody assigned): known once the conversations are. */
export function slaTeamsOf(causes: readonly Cause[], conversations: ReadonlyMap<number, PlanConversation>): Set<number> {
  const teams = new Set<number>();
  for (const cause of causes) {
    if (cause.type !== 'conversation.sla_warning' && cause.type !== 'conversation.sla_breached') continue;
    const conversation = conversations.get(idOf(cause.payload['conversation_id']) ?? 0);
    if (conversation?.assigned_user_id === null && conversation.assigned_team_id !== null) teams.add(conversation.assigned_team_id);
  }
  return teams;
}

const isReply = (p: Record<string, unknown>) => p['sender_type'] === 'contact' && p['type'] === 'incoming' && p['private'] !== true;
const isNote = (p: Record<string, unknown>) => p['sender_type'] === 'agent' && p['private'] === true;

export function planOf(cause: Cause, conversation: PlanConversation, facts: PlanFacts): Plan | null {
  const p = cause.payload;
  const about = label(conversation);
  const none = { excerpt: '', messageId: null, messageUuid: null };
  switch (cause.type) {
    case 'conversation.assigned': {
      const actorId = idOf(p['actor_id']);
      const actor = actorOf(facts, actorId);
      const by = actorId === null ? '' : `${actor.name} `;
      if (p['assignee_type'] === 'user') {
        const assignee = idOf(p['assignee_id']);
        if (assignee === null) return null;
        const title = by ? `${by}assigned you ${about}` : `${about} was assigned to you`;
        return { type: 'assigned', recipients: [assignee], actor, actorAgentId: actorId, title, ...none };
      }
      const teamId = idOf(p['team_id']);
      // To the team and to nobody: once someone has it, the team is not asked to pick it up.
      if (teamId === null || conversation.assigned_user_id !== null || conversation.assigned_team_id !== teamId) return null;
      const team = facts.teamNames.get(teamId) ?? 'your team';
      const title = by ? `${by}assigned ${about} to ${team}` : `${about} was assigned to ${team}`;
      const recipients = [...(facts.teamMembers.get(teamId) ?? [])];
      return { type: 'team_assigned', recipients, actor, actorAgentId: actorId, title, ...none };
    }
    case 'message.created': {
      const messageId = idOf(p['message_id']);
      if (messageId === null) return null;
      const reply = isReply(p);
      if (!reply && !isNote(p)) return null;
      // A reply: who followed before the message came (not an agent assigned with the conversation's first message).
      const recipients = reply
        ? (facts.follows.get(conversation.id) ?? []).filter((f) => f.created_at < cause.createdAt).map((f) => f.agent_id)
        : [...(facts.mentions.get(messageId) ?? [])];
      const message = facts.messages.get(messageId);
      if (recipients.length === 0 || !message) return null;
      const senderId = idOf(p['sender_id']);
      const actor = actorOf(facts, senderId);
      const text = { excerpt: plainExcerpt(message.text_content), messageId, messageUuid: message.uuid };
      if (reply) return { type: 'reply', recipients, actor, actorAgentId: null, title: `${actor.name} replied in ${about}`, ...text };
      return { type: 'mentioned', recipients, actor, actorAgentId: senderId, title: `${actor.name} mentioned you in ${about}`, ...text };
    }
    case 'conversation.sla_warning':
    case 'conversation.sla_breached': {
      const metric = METRIC_WORDS[String(p['metric'])] ?? 'service level';
      const warning = cause.type === 'conversation.sla_warning';
      const title = warning ? `The ${metric} of ${about} is due soon` : `The ${metric} target of ${about} was missed`;
      let recipients: number[] = [];
      if (conversation.assigned_user_id !== null) recipients = [conversation.assigned_user_id];
      else if (conversation.assigned_team_id !== null) recipients = [...(facts.teamMembers.get(conversation.assigned_team_id) ?? [])];
      return { type: warning ? 'sla_warning' : 'sla_breached', recipients, actor: SYSTEM, actorAgentId: null, title, ...none };
    }
    default:
      return null;
  }
}
