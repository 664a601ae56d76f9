// Notifications are made from domain events (docs/api.md, "Working together" → "Notifications").
// The domain_events_notifications trigger (migration 2026_12_01_0200) writes one
// `notifications.fan_out` job per event that may notify someone, in the event's transaction;
// this handler decides who gets what and writes it:
//
// - recipients per cause (notifications.plan.ts), never the actor, only agents who may read the
//   conversation (readersOfEach, the access rule), per their settings;
// - the jobs running together are fanned out as one batch (db/batched.ts): what their events are
//   about, their recipients' access and settings are each read by one statement for the batch,
//   so that a burst of replies costs a few statements per batch instead of ten per reply;
// - one statement inserts every notification with ON CONFLICT DO NOTHING on (agent, cause,
//   type): a retried job, or two instances running the same cause, make each exactly once; and
//   only for the rows this statement inserted, in the same transaction, the `notification.created`
//   events (the socket frame), the mail jobs and the push jobs. Nothing is announced twice.
// A batch that fails is made again cause by cause (batched()), so one bad cause fails alone.
import { batched } from '../db/batched.ts';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { membersByTeam, readersOfEach } from '../followers/followers.service.ts';
import type { JobContext } from '../jobs/jobs.runner.ts';
import { announceJob } from '../jobs/jobs.service.ts';
import { systemMailJob, systemMailStatus } from '../system-mail/system-mail.service.ts';
import { type NotificationSettings, settingsOf } from './notification-settings.ts';
import {
  conversationsOf,
  followsOf,
  insertAnnouncedNotifications,
  mailboxesOf,
  mailedSince,
  mentionsOf,
  messagesOf,
  type AnnouncedNotification,
  type NewNotification,
  type NotificationJob,
  peopleOf,
  teamNamesOf,
} from './notifications.fanout.queries.ts';
import { notificationMail } from './notifications.mail.ts';
import { type Cause, factsNeeded, idOf, nameOf, type Plan, type PlanFacts, parseCause, planOf, slaTeamsOf } from './notifications.plan.ts';
import { PUSH_NOTIFICATION_JOB } from './notifications.schema.ts';

export const FAN_OUT_JOB = 'notifications.fan_out';
/** At most one wake-up of the fan-out runners per this many ms from this process's commits. */
const WAKE_EVERY_MS = 25;
/** Causes fanned out together at most. */
const BATCH_MAX = 128;
/** Batches written at once: a batch is several round trips, and the next need not wait for all of them. */
const BATCH_LANES = 2;
const PUSH_MAX_ATTEMPTS = 8;
/**
 * The mail flood guard: an agent mailed a notification within this time gets the next ones in
 * their digest (notifications.mail.ts) instead of one mail each, so that a bulk reassignment or
 * a team mention mails them once, then once more with the rest.
 */
export const MAIL_FLOOD_WINDOW_MS = 2 * 60_000;

/**
 * When this process last decided to mail each agent (ms), so that two batches running at once
 * here do not both mail one agent: what the database says (mailedSince) is only seen once the
 * other batch has committed. Two instances at the same moment may still each send one.
 */
const lastMailedByApp = new WeakMap<AppDeps, Map<number, number>>();

function lastMailed(deps: AppDeps, nowMs: number): Map<number, number> {
  let mailed = lastMailedByApp.get(deps);
  if (!mailed) {
    mailed = new Map();
    lastMailedByApp.set(deps, mailed);
  }
  for (const [agentId, at] of mailed) if (at <= nowMs - MAIL_FLOOD_WINDOW_MS) mailed.delete(agentId);
  return mailed;
}

type Conversation = Awaited<ReturnType<typeof conversationsOf>>[number];

/** Appends `value` to the list under `key`. */
function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The facts a batch's plans need, each kind in one statement, all at once (the conversations too). */
async function loadFacts(db: DB, need: ReturnType<typeof factsNeeded>) {
  const [conversations, follows, mentions, messages, people, teamNames, teamMembers] = await Promise.all([
    conversationsOf(db, need.conversations),
    followsOf(db, need.replyConversations),
    mentionsOf(db, need.notes),
    messagesOf(db, need.messages),
    peopleOf(db, need.people),
    teamNamesOf(db, need.teams),
    membersByTeam(db, [...need.teams]),
  ]);
  const followsBy = new Map<number, { agent_id: number; created_at: Date }[]>();
  for (const row of follows) push(followsBy, row.conversation_id, row);
  const mentionsBy = new Map<number, number[]>();
  for (const row of mentions) push(mentionsBy, row.message_id, row.agent_id);
  const facts: PlanFacts = {
    follows: followsBy,
    mentions: mentionsBy,
    messages: new Map(messages.map((m) => [m.id, m])),
    people: new Map(people.map((p) => [p.id, p])),
    teamNames: new Map(teamNames.map((team) => [team.id, team.name])),
    teamMembers,
  };
  return { conversations: new Map(conversations.map((c) => [c.id, c])), facts };
}

interface Planned {
  cause: Cause;
  conversation: Conversation;
  plan: Plan;
  /** Who it may go to: the plan's recipients but the actor (before the access check). */
  candidates: number[];
}

/** Each cause's plan, for the causes about a conversation that still exists. */
async function planBatch(db: DB, causes: readonly Cause[]): Promise<Planned[]> {
  const { conversations, facts } = await loadFacts(db, factsNeeded(causes));
  // SLA alerts to a team: its members, when no other cause of the batch brought them (rare: a second round).
  const slaTeams = [...slaTeamsOf(causes, conversations)].filter((team) => !facts.teamMembers.has(team));
  if (slaTeams.length > 0) for (const [team, members] of await membersByTeam(db, slaTeams)) facts.teamMembers.set(team, members);
  return causes.flatMap((cause) => {
    const conversation = conversations.get(idOf(cause.payload['conversation_id']) ?? 0);
    const plan = conversation ? planOf(cause, conversation, facts) : null;
    if (!conversation || !plan) return [];
    return [{ cause, conversation, plan, candidates: plan.recipients.filter((id) => id !== plan.actorAgentId) }];
  });
}

/** One agent's notification of a planned cause, with its event and jobs; null when the agent's settings turn every channel off. */
function notificationOf(
  deps: AppDeps,
  { cause, conversation, plan }: Planned,
  agentId: number,
  own: NotificationSettings,
  mailbox: { email: string | null; first_name: string; last_name: string } | undefined,
  now: Date,
): AnnouncedNotification | null {
  const choice = own.types[plan.type];
  const email = choice.email && mailbox !== undefined;
  if (!choice.in_app && !email && !choice.push) return null;
  const row: NewNotification = {
    agent_id: agentId,
    type: plan.type,
    cause_event_id: cause.eventId,
    conversation_id: conversation.id,
    message_id: plan.messageId,
    actor_type: plan.actor.type,
    actor_id: plan.actor.id,
    actor_name: plan.actor.name.slice(0, 300),
    title: plan.title.slice(0, 500),
    excerpt: plan.excerpt,
    created_at: now,
    in_app: choice.in_app,
    email_status: email ? (own.email_digest ? 'pending' : 'sent') : 'none',
  };
  const event = choice.in_app
    ? {
        agent_id: agentId,
        notification: {
          // The row's id, filled in as it is inserted.
          id: 0,
          type: row.type,
          created_at: now.toISOString(),
          read_at: null,
          conversation_uuid: conversation.uuid,
          message_uuid: plan.messageUuid,
          actor: plan.actor,
          title: row.title,
          excerpt: row.excerpt,
        },
      }
    : null;
  const jobs: NotificationJob[] = [];
  if (row.email_status === 'sent' && mailbox?.email) {
    const values = notificationMail(deps.config, {
      name: nameOf(mailbox),
      title: row.title,
      excerpt: row.excerpt,
      conversationUuid: conversation.uuid,
    });
    jobs.push(systemMailJob(deps.config, { to: mailbox.email, template: 'notification', values }));
  }
  if (choice.push) jobs.push({ kind: PUSH_NOTIFICATION_JOB, payload: null, maxAttempts: PUSH_MAX_ATTEMPTS });
  return { row, event, jobs };
}

/** The notifications of a batch of domain events, each exactly once. */
async function fanOutBatch(deps: AppDeps, causes: readonly Cause[]): Promise<void> {
  const planned = await planBatch(deps.db, causes);
  const everyone = [...new Set(planned.flatMap((entry) => entry.candidates))];
  if (everyone.length === 0) return;
  const mail = systemMailStatus(deps.config).configured;
  const now = deps.clock.now();
  // Who may read, their settings, their mailboxes and who was mailed lately, asked together of every candidate.
  const [readers, settings, mailboxList, mailed] = await Promise.all([
    readersOfEach(
      deps.db,
      planned.map(({ conversation, candidates }) => ({ conversation, agentIds: candidates })),
    ),
    settingsOf(deps.db, everyone),
    mail ? mailboxesOf(deps.db, everyone) : [],
    mail ? mailedSince(deps.db, everyone, new Date(now.getTime() - MAIL_FLOOD_WINDOW_MS)) : new Set<number>(),
  ]);
  const mailboxes = new Map(mailboxList.map((m) => [m.id, m]));
  // From here to the insert nothing awaits: a batch running beside this one sees its decisions.
  const decided = lastMailed(deps, now.getTime());
  const items = planned.flatMap((entry, i) =>
    (readers[i] ?? []).flatMap((agentId) => {
      const own = settings.get(agentId);
      // Without mail configured, nobody is mailed (a live, enabled agent with an address has a mailbox).
      const mailbox = mail ? mailboxes.get(agentId) : undefined;
      // One mail each per window: the next ones of this batch, and of the batches beside and after it, wait for the digest.
      const flooded = mailed.has(agentId) || decided.has(agentId);
      const item = own ? notificationOf(deps, entry, agentId, { ...own, email_digest: own.email_digest || flooded }, mailbox, now) : null;
      if (item?.row.email_status === 'sent') decided.set(agentId, now.getTime());
      return item ? [item] : [];
    }),
  );
  const kinds = await insertAnnouncedNotifications(deps.db, items, now);
  // Written: the runners of those jobs look now (the relay forwards it to other instances).
  for (const kind of kinds) announceJob(deps, kind, null, false);
}

const batchesByApp = new WeakMap<AppDeps, (cause: Cause) => Promise<void>>();

/** The `notifications.fan_out` job: its cause joins the batch being gathered, and the job ends when that batch is written. */
export async function fanOutNotifications(deps: AppDeps, payload: Record<string, unknown>, _job: JobContext): Promise<void> {
  const cause = parseCause(payload);
  let fanOut = batchesByApp.get(deps);
  if (!fanOut) {
    fanOut = batched(
      async (causes: Cause[]) => {
        // One event's job twice in a batch (a duplicate row) is fanned out once.
        await fanOutBatch(deps, [...new Map(causes.map((c) => [c.eventId, c])).values()]);
        return causes.map(() => undefined);
      },
      { max: BATCH_MAX, lanes: BATCH_LANES },
    );
    batchesByApp.set(deps, fanOut);
  }
  await fanOut(cause);
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
