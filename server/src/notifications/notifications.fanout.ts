// Notifications are made from domain events (docs/api.md, "Working together" → "Notifications").
// The domain_events_notifications trigger (migration 2026_12_01_0200) writes one
// `notifications.fan_out` job per event that may notify someone, in the event's transaction;
// this handler decides who gets what and writes it:
//
// - recipients per cause (assignee, team members, followers, mentioned agents), never the actor,
//   only agents who may read the conversation (readersAmong, the access rule), per their settings;
// - one statement inserts every notification with ON CONFLICT DO NOTHING on (agent, cause,
//   type): a retried job, or two instances running the same cause, make each exactly once; and
//   only for the rows this statement inserted, in the same transaction, the `notification.created`
//   events (the socket frame), the mail jobs and the push jobs. Nothing is announced twice.
import type { DB } from '../db/database.ts';
import type { NotificationType } from '../db/types.ts';
import type { AppDeps } from '../deps.ts';
import type { DomainEventPayload } from '../events/events.schema.ts';
import { readersAmong, teamMembers } from '../followers/followers.service.ts';
import { type JobContext, PermanentJobError } from '../jobs/jobs.runner.ts';
import { announceJob } from '../jobs/jobs.service.ts';
import { systemMailJob, systemMailStatus } from '../system-mail/system-mail.service.ts';
import { settingsOf } from './notification-settings.ts';
import {
  conversationOf,
  followersBefore,
  insertJobs,
  insertNotificationEvents,
  insertNotifications,
  mailboxesOf,
  mentionedAgentIds,
  messageOf,
  type NewNotification,
  personOf,
  teamNameOf,
} from './notifications.fanout.queries.ts';
import { notificationMail } from './notifications.mail.ts';
import { PUSH_NOTIFICATION_JOB } from './notifications.schema.ts';

export const FAN_OUT_JOB = 'notifications.fan_out';
/** At most one wake-up of the fan-out runners per this many ms from this process's commits. */
const WAKE_EVERY_MS = 25;
/** A message's excerpt: its first characters, as plain text. */
export const EXCERPT_LENGTH = 200;
const PUSH_MAX_ATTEMPTS = 8;

type Actor = { type: 'agent' | 'contact' | 'automation' | 'system'; id: number | null; name: string } | null;

interface Cause {
  eventId: number;
  type: string;
  payload: Record<string, unknown>;
  createdAt: Date;
}

/** What one cause notifies: who (before the access and settings checks), as what, with which words. */
interface Plan {
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

type Conversation = NonNullable<Awaited<ReturnType<typeof conversationOf>>>;

function parseCause(payload: Record<string, unknown>): Cause {
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

const idOf = (value: unknown): number | null => (typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : null);

/** Plain text on one line, at most `max` characters (an ellipsis marks a cut). */
export function plainExcerpt(text: string, max = EXCERPT_LENGTH): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1).trimEnd()}…` : flat;
}

function nameOf(person: { first_name: string; last_name: string; email: string | null }): string {
  return `${person.first_name} ${person.last_name}`.trim() || person.email || '';
}

function label(conversation: Conversation): string {
  return plainExcerpt(`#${conversation.reference_number} ${conversation.subject}`, 300);
}

async function actorOf(db: DB, userId: number | null): Promise<Actor> {
  if (userId === null) return { type: 'system', id: null, name: 'Parley' };
  const person = await personOf(db, userId);
  if (!person) return { type: 'system', id: null, name: 'Parley' };
  return { type: person.type === 'agent' ? 'agent' : 'contact', id: person.id, name: nameOf(person) };
}

const METRIC_WORDS: Record<string, string> = {
  first_response: 'first response',
  next_response: 'next response',
  resolution: 'resolution',
};

/** The SLA alerts: the assignee, else the team's members. */
async function assigneeOrTeam(db: DB, conversation: Conversation): Promise<number[]> {
  if (conversation.assigned_user_id !== null) return [conversation.assigned_user_id];
  if (conversation.assigned_team_id !== null) return teamMembers(db, [conversation.assigned_team_id]);
  return [];
}

async function planOf(db: DB, cause: Cause, conversation: Conversation): Promise<Plan | null> {
  const p = cause.payload;
  const about = label(conversation);
  const none = { excerpt: '', messageId: null, messageUuid: null };
  switch (cause.type) {
    case 'conversation.assigned': {
      const actorId = idOf(p['actor_id']);
      const actor = await actorOf(db, actorId);
      const by = actorId === null ? '' : `${actor?.name} `;
      if (p['assignee_type'] === 'user') {
        const assignee = idOf(p['assignee_id']);
        if (assignee === null) return null;
        const title = by ? `${by}assigned you ${about}` : `${about} was assigned to you`;
        return { type: 'assigned', recipients: [assignee], actor, actorAgentId: actorId, title, ...none };
      }
      const teamId = idOf(p['team_id']);
      // To the team and to nobody: once someone has it, the team is not asked to pick it up.
      if (teamId === null || conversation.assigned_user_id !== null || conversation.assigned_team_id !== teamId) return null;
      const team = (await teamNameOf(db, teamId)) ?? 'your team';
      const title = by ? `${by}assigned ${about} to ${team}` : `${about} was assigned to ${team}`;
      return { type: 'team_assigned', recipients: await teamMembers(db, [teamId]), actor, actorAgentId: actorId, title, ...none };
    }
    case 'message.created': {
      const messageId = idOf(p['message_id']);
      const senderId = idOf(p['sender_id']);
      if (messageId === null) return null;
      const reply = p['sender_type'] === 'contact' && p['type'] === 'incoming' && p['private'] !== true;
      const note = p['sender_type'] === 'agent' && p['private'] === true;
      if (!reply && !note) return null;
      // Who is told first: most notes mention nobody, and then nothing else is read.
      // A reply: who followed before the message came (not an agent assigned with the conversation's first message).
      const recipients = reply ? await followersBefore(db, conversation.id, cause.createdAt) : await mentionedAgentIds(db, messageId);
      if (recipients.length === 0) return null;
      const message = await messageOf(db, messageId);
      if (!message) return null;
      const actor = await actorOf(db, senderId);
      const text = { excerpt: plainExcerpt(message.text_content), messageId, messageUuid: message.uuid };
      if (reply) return { type: 'reply', recipients, actor, actorAgentId: null, title: `${actor?.name} replied in ${about}`, ...text };
      return { type: 'mentioned', recipients, actor, actorAgentId: senderId, title: `${actor?.name} mentioned you in ${about}`, ...text };
    }
    case 'conversation.sla_warning':
    case 'conversation.sla_breached': {
      const metric = METRIC_WORDS[String(p['metric'])] ?? 'service level';
      const warning = cause.type === 'conversation.sla_warning';
      const title = warning ? `The ${metric} of ${about} is due soon` : `The ${metric} target of ${about} was missed`;
      const recipients = await assigneeOrTeam(db, conversation);
      return {
        type: warning ? 'sla_warning' : 'sla_breached',
        recipients,
        actor: { type: 'system', id: null, name: 'Parley' },
        actorAgentId: null,
        title,
        ...none,
      };
    }
    default:
      return null;
  }
}

/** The `notifications.fan_out` job: the notifications of one domain event, each exactly once. */
export async function fanOutNotifications(deps: AppDeps, payload: Record<string, unknown>, _job: JobContext): Promise<void> {
  const cause = parseCause(payload);
  const conversationId = idOf(cause.payload['conversation_id']);
  if (conversationId === null) return;
  const conversation = await conversationOf(deps.db, conversationId);
  if (!conversation) return;
  const plan = await planOf(deps.db, cause, conversation);
  if (!plan) return;
  const candidates = plan.recipients.filter((id) => id !== plan.actorAgentId);
  const readers = await readersAmong(deps.db, conversation, candidates);
  if (readers.length === 0) return;
  const settings = await settingsOf(deps.db, readers);
  const mail = systemMailStatus(deps.config).configured;
  const now = deps.clock.now();
  const rows: NewNotification[] = [];
  const pushed = new Set<number>();
  for (const agentId of readers) {
    const own = settings.get(agentId);
    if (!own) continue;
    const choice = own.types[plan.type];
    const email = choice.email && mail;
    if (!choice.in_app && !email && !choice.push) continue;
    if (choice.push) pushed.add(agentId);
    rows.push({
      agent_id: agentId,
      type: plan.type,
      cause_event_id: cause.eventId,
      conversation_id: conversation.id,
      message_id: plan.messageId,
      actor_type: plan.actor?.type ?? null,
      actor_id: plan.actor?.id ?? null,
      actor_name: plan.actor?.name.slice(0, 300) ?? '',
      title: plan.title.slice(0, 500),
      excerpt: plan.excerpt,
      created_at: now,
      in_app: choice.in_app,
      email_status: email ? (own.email_digest ? 'pending' : 'sent') : 'none',
    });
  }
  if (rows.length === 0) return;
  const mailboxes = new Map(
    (
      await mailboxesOf(
        deps.db,
        rows.filter((r) => r.email_status === 'sent').map((r) => r.agent_id),
      )
    ).map((m) => [m.id, m]),
  );
  const kinds = await deps.db.transaction().execute(async (trx) => {
    const inserted = await insertNotifications(trx, rows);
    const events: DomainEventPayload<'notification.created'>[] = [];
    const jobs: { kind: string; payload: Record<string, unknown>; maxAttempts: number }[] = [];
    for (const row of inserted) {
      if (row.in_app) {
        events.push({
          agent_id: row.agent_id,
          notification: {
            id: row.id,
            type: row.type,
            created_at: row.created_at.toISOString(),
            read_at: null,
            conversation_uuid: conversation.uuid,
            message_uuid: plan.messageUuid,
            actor: plan.actor,
            title: row.title,
            excerpt: row.excerpt,
          },
        });
      }
      const mailbox = row.email_status === 'sent' ? mailboxes.get(row.agent_id) : undefined;
      if (mailbox?.email) {
        const values = notificationMail(deps.config, {
          name: nameOf(mailbox),
          title: row.title,
          excerpt: row.excerpt,
          conversationUuid: conversation.uuid,
        });
        jobs.push(systemMailJob(deps.config, { to: mailbox.email, template: 'notification', values }));
      }
      if (pushed.has(row.agent_id))
        jobs.push({ kind: PUSH_NOTIFICATION_JOB, payload: { notification_id: row.id }, maxAttempts: PUSH_MAX_ATTEMPTS });
    }
    await insertNotificationEvents(trx, events, now);
    await insertJobs(trx, jobs);
    return new Set(jobs.map((job) => job.kind));
  });
  // The transaction committed: the runners of those jobs look now (the relay forwards it to other instances).
  for (const kind of kinds) announceJob(deps, kind, null, false);
}

/**
 * The trigger writes fan-out jobs inside other domains' transactions, where no code announces
 * them: this process's runners are woken when it commits recorded events (db/event-commits.ts),
 * and the job wake relay tells the other instances. The wake-ups are coalesced: at once after a
 * quiet spell, then at most one per WAKE_EVERY_MS, so a burst of replies (whose events notify no
 * one) costs a few empty claims, not one per commit. Returns the function that stops listening.
 */
export function wakeFanOutOnEventCommits(deps: Pick<AppDeps, 'eventCommits' | 'jobSignals'>): () => void {
  let lastMs = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | null = null;
  const wake = () => {
    lastMs = performance.now();
    announceJob(deps, FAN_OUT_JOB, null, false);
  };
  const stop = deps.eventCommits.subscribe(() => {
    if (timer) return;
    const waitMs = lastMs + WAKE_EVERY_MS - performance.now();
    if (waitMs <= 0) return wake();
    timer = setTimeout(() => {
      timer = null;
      wake();
    }, waitMs);
    timer.unref();
  });
  return () => {
    if (timer) clearTimeout(timer);
    timer = null;
    stop();
  };
}
