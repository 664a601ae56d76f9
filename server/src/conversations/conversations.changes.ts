// Every change of a conversation (status, snooze, priority, assignees, tags, last-seen). Each
// change writes an activity message and a domain event in the transaction of the change (the
// outbox); a no-op change writes nothing.
import type { Static } from 'typebox';
import { lockLiveAgent } from '../agents/agents.service.ts';
import type { Principal } from '../auth/credential-cache.ts';
import type { DB } from '../db/database.ts';
import type { StatusCategory } from '../db/types.ts';
import { surveyOnStatusChange } from '../csat/csat.service.ts';
import type { AppDeps } from '../deps.ts';
import { DataError, InputError } from '../errors.ts';
import { recordResolution } from '../reports/service-report.service.ts';
import { type Permission, requireAnyPermission } from '../auth/permissions.ts';
import { slaAfterStatusChange } from '../sla/sla.deadlines.ts';
import { findPriorityByName, findStatusByName } from '../statuses/statuses.service.ts';
import { findTagsByNames } from '../tags/tags.service.ts';
import { findTeam } from '../teams/teams.service.ts';
import { autoAssign, placeForAgent, placeWaitingConversations } from './assignment.service.ts';
import { type Actor, actorOf, conversationEvent, logActivity, SYSTEM } from './conversations.activity.ts';
import { appendMessage, openStatus } from './conversations.append.ts';
import * as q from './conversations.queries.ts';
import { type ConversationDetail, lockReadableConversation, readConversation, requireNamed } from './conversations.read.ts';
import type { PriorityBody, StatusBody, TagsBody } from './conversations.schema.ts';
import { applySlaChange, applyTeamSlaChange, SLA_PERMISSIONS } from './conversations.sla.ts';
import { parseSnoozedUntil } from './conversations.snooze.ts';

export type TagsChange = Static<typeof TagsBody>;

export interface ConversationChanges {
  teamAssignee?: number | null;
  /** An SLA policy to apply (replacing the applied one), or null to remove it. */
  slaPolicy?: number | null;
  userAssignee?: number | null;
  status?: Static<typeof StatusBody>;
  priority?: Static<typeof PriorityBody>['priority'];
  /** Several tag actions (macros) run in the order given. */
  tags?: TagsChange | TagsChange[];
}

/** Each change needs one of its permissions. */
const CHANGE_PERMISSIONS: Record<keyof ConversationChanges, readonly Permission[]> = {
  teamAssignee: ['conversations:update_team_assignee'],
  slaPolicy: SLA_PERMISSIONS,
  userAssignee: ['conversations:update_user_assignee'],
  status: ['conversations:update_status'],
  priority: ['conversations:update_priority'],
  tags: ['conversations:update_tags'],
};

interface ChangeContext {
  deps: AppDeps;
  trx: DB;
  conversation: q.LockedConversation;
  actor: Actor;
  now: Date;
  /** Agents who may have freed a slot: their teams' waiting conversations are placed after commit. */
  freed: Set<number>;
}

/**
 * The conversation enters a team (or with null leaves its team): the activity message and event,
 * the team's SLA policy, and round robin when nobody has it. The one path into a team: the route,
 * macros, and a new conversation's inbox default team (enterDefaultTeam), which keeps an
 * assignee the conversation was created with (`keepAssignee`).
 */
async function applyTeam(ctx: ChangeContext, teamId: number | null, options: { keepAssignee?: boolean } = {}): Promise<void> {
  const { trx, conversation: c, actor, now } = ctx;
  if (teamId === null) {
    if (c.assigned_team_id === null) return;
    const previous = c.assigned_team_id;
    await q.updateConversation(trx, c.id, { assigned_team_id: null, updated_at: now });
    c.assigned_team_id = null;
    await logActivity(trx, c, actor, `${actor.name} removed the team assignment`, { type: 'team', team_id: null }, now);
    await conversationEvent(trx, 'conversation.unassigned', c, actor, { assignee_type: 'team', previous_team_id: previous }, now);
    return;
  }
  const team = await findTeam(trx, teamId);
  if (!team) throw InputError.field('assignee_id', `unknown team id ${teamId}`);
  if (c.assigned_team_id === teamId) return;
  const previous = c.assigned_team_id;
  await q.updateConversation(trx, c.id, { assigned_team_id: teamId, updated_at: now });
  c.assigned_team_id = teamId;
  await logActivity(trx, c, actor, `${actor.name} assigned the conversation to team ${team.name}`, { type: 'team', team_id: teamId }, now);
  await conversationEvent(
    trx,
    'conversation.assigned',
    c,
    actor,
    { assignee_type: 'team', team_id: teamId, previous_team_id: previous },
    now,
  );
  await applyTeamSlaChange(trx, c, now);
  // The conversation moves to the new team: an assignee who is not a member lets it go.
  if (!options.keepAssignee && c.assigned_user_id !== null && !(await q.isTeamMember(trx, teamId, c.assigned_user_id)))
    await applyUser(ctx, null);
  if (c.assigned_user_id === null && c.status_category === 'open') {
    const agentId = await autoAssign(ctx.deps, trx, c, teamId);
    if (agentId !== null) c.assigned_user_id = agentId;
  }
}

/**
 * A new conversation enters a team in the creating transaction, after its first message, as
 * `PUT /conversations/{uuid}/assignee/team` would move it (applyTeam: the activity message and
 * event, the team's SLA policy, its round robin), keeping an assignee it was created with.
 */
export async function enterTeam(deps: AppDeps, trx: DB, conversation: q.LockedConversation, teamId: number, actor: Actor, now: Date) {
  const ctx: ChangeContext = { deps, trx, conversation, actor, now, freed: new Set() };
  await applyTeam(ctx, teamId, { keepAssignee: true });
}

/**
 * A new conversation that arrived without a team (the widget, inbound email, the API without
 * `team_id`) enters its inbox's default team, if the inbox has one, by the system (enterTeam).
 */
export async function enterDefaultTeam(deps: AppDeps, trx: DB, conversation: q.LockedConversation, now: Date): Promise<void> {
  const teamId = conversation.inbox_default_team_id;
  if (teamId === null || conversation.assigned_team_id !== null) return;
  // Deleted since the inbox was read (its foreign key clears it on commit): no team to enter.
  if (!(await findTeam(trx, teamId))) return;
  await enterTeam(deps, trx, conversation, teamId, SYSTEM, now);
}

async function applyUser(ctx: ChangeContext, userId: number | null): Promise<void> {
  const { trx, conversation: c, actor, now } = ctx;
  if (userId === null) {
    if (c.assigned_user_id === null) return;
    const previous = c.assigned_user_id;
    await q.updateConversation(trx, c.id, { assigned_user_id: null, assignee_last_seen_at: null, updated_at: now });
    c.assigned_user_id = null;
    ctx.freed.add(previous);
    await logActivity(trx, c, actor, `${actor.name} removed the assignee`, { type: 'assignee', assignee_id: null }, now);
    await conversationEvent(trx, 'conversation.unassigned', c, actor, { assignee_type: 'user', previous_assignee_id: previous }, now);
    return;
  }
  const agent = await lockLiveAgent(trx, userId);
  if (!agent) throw InputError.field('assignee_id', `unknown agent id ${userId}`);
  if (!agent.enabled) throw new DataError('That agent is disabled and cannot be assigned conversations');
  if (c.assigned_user_id === userId) return;
  const previous = c.assigned_user_id;
  if (previous !== null) ctx.freed.add(previous);
  await q.updateConversation(trx, c.id, { assigned_user_id: userId, assignee_last_seen_at: null, updated_at: now });
  c.assigned_user_id = userId;
  const name = `${agent.first_name} ${agent.last_name}`.trim();
  const text =
    userId === actor.userId ? `${actor.name} self-assigned the conversation` : `${actor.name} assigned the conversation to ${name}`;
  await logActivity(trx, c, actor, text, { type: 'assignee', assignee_id: userId }, now);
  const event = {
    assignee_type: 'user',
    assignee_id: userId,
    previous_assignee_id: previous,
    team_id: c.assigned_team_id,
    auto: false,
  } as const;
  await conversationEvent(trx, 'conversation.assigned', c, actor, event, now);
}

/** resolved_at: set when the conversation enters a resolved status, kept while it stays resolved, cleared when it leaves. */
function resolvedAtChange(from: StatusCategory, to: StatusCategory, now: Date): { resolved_at?: Date | null } {
  if (to !== 'resolved') return { resolved_at: null };
  return from === 'resolved' ? {} : { resolved_at: now };
}

async function applyStatus(ctx: ChangeContext, input: Static<typeof StatusBody>): Promise<void> {
  const { trx, conversation: c, actor, now } = ctx;
  const status = await findStatusByName(trx, input.status);
  if (!status) throw InputError.field('status', `unknown status "${input.status.trim()}"`);
  let snoozedUntil: Date | null = null;
  if (input.snoozed_until !== undefined) {
    if (status.category !== 'waiting')
      throw InputError.field('snoozed_until', 'only a waiting status (such as Snoozed) takes snoozed_until');
    snoozedUntil = parseSnoozedUntil(input.snoozed_until, now);
  } else if (status.name === 'Snoozed') {
    throw InputError.field('snoozed_until', 'is required to snooze (an RFC 3339 time or a duration such as 2h)');
  }
  if (status.id === c.status_id && (snoozedUntil?.getTime() ?? null) === (c.snoozed_until?.getTime() ?? null)) return;
  const previous = c.status;
  const previousCategory = c.status_category;
  await q.updateConversation(trx, c.id, {
    status_id: status.id,
    snoozed_until: snoozedUntil,
    ...resolvedAtChange(c.status_category, status.category, now),
    updated_at: now,
  });
  if (status.category === 'resolved' && c.status_category !== 'resolved') await recordResolution(trx, c.id, now);
  if (status.category !== 'open' && c.status_category === 'open' && c.assigned_user_id !== null) ctx.freed.add(c.assigned_user_id);
  c.status_id = status.id;
  c.status = status.name;
  c.status_category = status.category;
  c.snoozed_until = snoozedUntil;
  await slaAfterStatusChange(trx, c, previousCategory, now);
  const until = snoozedUntil?.toISOString() ?? null;
  const text = until ? `${actor.name} snoozed the conversation until ${until}` : `${actor.name} set the status to ${status.name}`;
  await logActivity(trx, c, actor, text, { type: 'status', status: status.name, snoozed_until: until }, now);
  const event = { previous_status: previous, status: status.name, status_category: status.category, snoozed_until: until };
  await conversationEvent(trx, 'conversation.status_changed', c, actor, event, now);
  await surveyOnStatusChange(ctx.deps, trx, c, previousCategory, now, appendMessage);
}

async function applyPriority(ctx: ChangeContext, name: string): Promise<void> {
  const { trx, conversation: c, actor, now } = ctx;
  const priority = await findPriorityByName(trx, name);
  if (!priority) throw InputError.field('priority', `unknown priority "${name.trim()}"; use Low, Medium, High or Urgent`);
  if (c.priority_id === priority.id) return;
  const previous = c.priority;
  await q.updateConversation(trx, c.id, { priority_id: priority.id, updated_at: now });
  c.priority_id = priority.id;
  c.priority = priority.name;
  await logActivity(
    trx,
    c,
    actor,
    `${actor.name} set the priority to ${priority.name}`,
    { type: 'priority', priority: priority.name },
    now,
  );
  await conversationEvent(trx, 'conversation.priority_changed', c, actor, { previous_priority: previous, priority: priority.name }, now);
}

/** Trimmed names without blanks and case-insensitive duplicates (the first spelling is kept). */
export function distinctNames(names: readonly string[]): string[] {
  return [...new Map(names.map((n) => [n.trim().toLowerCase(), n.trim()])).values()].filter(Boolean);
}

async function applyTags(ctx: ChangeContext, input: TagsChange): Promise<void> {
  const { trx, conversation: c, actor, now } = ctx;
  const wanted = distinctNames(input.tags);
  const ids = requireNamed(await findTagsByNames(trx, wanted), wanted, 'tags').map((t) => t.id);
  const before = await q.tagNamesOf(trx, c.id);
  const action = input.action ?? 'add_tags';
  if (action === 'add_tags') await q.addTags(trx, c.id, ids, now);
  else if (action === 'remove_tags') await q.removeTags(trx, c.id, ids);
  else await q.setTags(trx, c.id, ids, now);
  const after = await q.tagNamesOf(trx, c.id);
  const added = after.filter((t) => !before.includes(t));
  const removed = before.filter((t) => !after.includes(t));
  if (added.length === 0 && removed.length === 0) return;
  await q.updateConversation(trx, c.id, { updated_at: now });
  const parts = [
    added.length ? `added the tags ${added.join(', ')}` : '',
    removed.length ? `removed the tags ${removed.join(', ')}` : '',
  ].filter(Boolean);
  await logActivity(trx, c, actor, `${actor.name} ${parts.join(' and ')}`, { type: 'tags', added, removed }, now);
  await conversationEvent(trx, 'conversation.tags_changed', c, actor, { added, removed, tags: after }, now);
}

export type ExtraWork = (trx: DB, conversation: q.LockedConversation, ctx: { actor: Actor; now: Date }) => Promise<void>;

/**
 * Applies several changes in one transaction, each permission-checked, in the order team,
 * SLA policy, agent, status, priority, tags; `extra` runs in the same transaction (macros). No-op changes
 * write nothing. Returns the conversation as the caller sees it afterwards.
 */
export async function changeConversation(
  deps: AppDeps,
  principal: Principal,
  uuid: string,
  changes: ConversationChanges,
  extra?: ExtraWork,
): Promise<ConversationDetail> {
  for (const key of Object.keys(changes) as Array<keyof ConversationChanges>) {
    if (changes[key] !== undefined) requireAnyPermission(principal, CHANGE_PERMISSIONS[key]);
  }
  const actor = actorOf(principal);
  const freed = new Set<number>();
  await deps.db.transaction().execute(async (trx) => {
    const conversation = await lockReadableConversation(trx, principal, uuid);
    const ctx: ChangeContext = { deps, trx, conversation, actor, now: deps.clock.now(), freed };
    if (changes.teamAssignee !== undefined) await applyTeam(ctx, changes.teamAssignee);
    if (changes.slaPolicy !== undefined) await applySlaChange(trx, conversation, changes.slaPolicy, actor, ctx.now);
    if (changes.userAssignee !== undefined) await applyUser(ctx, changes.userAssignee);
    if (changes.status !== undefined) await applyStatus(ctx, changes.status);
    if (changes.priority !== undefined) await applyPriority(ctx, changes.priority);
    if (changes.tags !== undefined) for (const tags of [changes.tags].flat()) await applyTags(ctx, tags);
    if (extra) await extra(trx, conversation, { actor, now: ctx.now });
  });
  for (const agentId of freed) await placeForAgent(deps, agentId);
  return readConversation(deps, uuid, principal.userId);
}

/** The caller's last-seen mark: now. The assignee's also moves `assignee_last_seen_at`. */
export async function markSeen(deps: AppDeps, principal: Principal, uuid: string): Promise<ConversationDetail> {
  await deps.db.transaction().execute(async (trx) => {
    const c = await lockReadableConversation(trx, principal, uuid);
    const now = deps.clock.now();
    await q.setLastSeen(trx, c.id, principal.userId, now);
    if (c.assigned_user_id === principal.userId) await q.updateConversation(trx, c.id, { assignee_last_seen_at: now, updated_at: now });
  });
  return readConversation(deps, uuid, principal.userId);
}

/** Moves the caller's last-seen mark to just before the newest message from the contact, so it counts as unread. */
export async function markUnread(deps: AppDeps, principal: Principal, uuid: string): Promise<ConversationDetail> {
  await deps.db.transaction().execute(async (trx) => {
    const c = await lockReadableConversation(trx, principal, uuid);
    const latest = await q.latestIncomingAt(trx, c.id);
    const mark = latest ? new Date(latest.getTime() - 1) : null;
    if (mark) await q.setLastSeen(trx, c.id, principal.userId, mark);
    else await q.clearLastSeen(trx, c.id, principal.userId);
    if (c.assigned_user_id === principal.userId)
      await q.updateConversation(trx, c.id, { assignee_last_seen_at: mark, updated_at: deps.clock.now() });
  });
  return readConversation(deps, uuid, principal.userId);
}

/** The periodic sweep: snoozed conversations whose time has come are opened again. */
export async function wakeSnoozedConversations(deps: AppDeps): Promise<number> {
  const woken = await deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    const due = await q.lockDueSnoozed(trx, now, 500);
    if (due.length === 0) return [];
    const open = await openStatus(trx);
    for (const c of due) {
      await q.updateConversation(trx, c.id, { status_id: open.id, snoozed_until: null, updated_at: now });
      await slaAfterStatusChange(trx, { ...c, status_category: 'open' }, 'waiting', now);
      await logActivity(
        trx,
        c,
        SYSTEM,
        'The snooze ended; the conversation is open again',
        { type: 'status', status: open.name, snoozed_until: null },
        now,
      );
      const event = { previous_status: c.status, status: open.name, status_category: 'open', snoozed_until: null } as const;
      await conversationEvent(trx, 'conversation.status_changed', c, SYSTEM, event, now);
    }
    return due;
  });
  const teams = [...new Set(woken.map((c) => c.assigned_team_id).filter((id): id is number => id !== null))];
  if (teams.length > 0) await placeWaitingConversations(deps, teams);
  return woken.length;
}
