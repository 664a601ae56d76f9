// The rules of conversations: creation, the lists, and every change (status, snooze,
// priority, assignees, tags, last-seen). Each change writes an activity message and a
// domain event in the transaction of the change (the outbox).
import { sql } from 'kysely';
import type { Principal } from '../auth/credential-cache.ts';
import { createContact, getContact } from '../contacts/contacts.service.ts';
import type { DB } from '../db/database.ts';
import type { StatusCategory } from '../db/types.ts';
import type { AppDeps } from '../deps.ts';
import { DataError, InputError, NotFoundError, PermissionError } from '../errors.ts';
import { type PageRequest, pagedResult } from '../http/schemas.ts';
import { announceJob, DEFAULT_MAX_ATTEMPTS } from '../jobs/jobs.service.ts';
import { prepareContent, previewOf } from '../messages/messages.content.ts';
import { type Permission, requirePermission } from '../roles/permissions.ts';
import { autoAssign, placeForAgent, placeWaitingConversations } from './assignment.service.ts';
import { canReadConversation } from './conversations.access.ts';
import { type Actor, type ConversationRef, conversationEvent, logActivity, SYSTEM } from './conversations.activity.ts';
import * as q from './conversations.queries.ts';

export function actorOf(principal: Principal): Actor {
  return { userId: principal.userId, name: `${principal.firstName} ${principal.lastName}`.trim() || principal.email || `Agent ${principal.userId}` };
}

// Records

export function toListItem(row: q.ConversationRow) {
  return {
    id: row.id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    uuid: row.uuid,
    reference_number: row.reference_number,
    waiting_since: row.waiting_since,
    assignee_last_seen_at: row.assignee_last_seen_at,
    contact: {
      id: row.contact_id,
      created_at: row.contact_created_at,
      updated_at: row.contact_updated_at,
      first_name: row.contact_first_name,
      last_name: row.contact_last_name,
      avatar_url: row.contact_avatar_url,
      email: row.contact_email,
    },
    inbox_id: row.inbox_id,
    inbox_channel: row.inbox_channel,
    inbox_name: row.inbox_name,
    sla_policy_id: null,
    first_reply_at: row.first_reply_at,
    last_reply_at: row.last_reply_at,
    resolved_at: row.resolved_at,
    subject: row.subject,
    last_message: row.last_message,
    last_message_at: row.last_message_at,
    last_message_sender: row.last_message_sender,
    next_sla_deadline_at: null,
    priority_id: row.priority_id,
    unread_message_count: row.unread_message_count,
    status: row.status,
    priority: row.priority,
    first_response_deadline_at: null,
    resolution_deadline_at: null,
    applied_sla_id: null,
    next_response_deadline_at: null,
    next_response_met_at: null,
    assigned_user_id: row.assigned_user_id,
    assigned_team_id: row.assigned_team_id,
    tags: row.tags,
  };
}

export type ConversationListItem = ReturnType<typeof toListItem>;

async function readConversation(deps: AppDeps, db: DB, uuid: string, viewerId: number) {
  const row = await q.findConversationRecordByUuid(db, uuid, viewerId);
  if (!row) throw new NotFoundError('Conversation not found');
  const contact = await getContact(deps, row.contact_id);
  return {
    ...toListItem(row),
    contact,
    status_category: row.status_category,
    snoozed_until: row.snoozed_until,
    custom_attributes: row.custom_attributes,
    meta: row.meta,
  };
}

export type ConversationDetail = Awaited<ReturnType<typeof readConversation>>;

/** 404 for an unknown conversation, 403 for one the caller may not read (contract §3). */
export async function assertCanRead(deps: AppDeps, principal: Principal, uuid: string, db: DB = deps.db) {
  const row = await q.findConversationAccess(db, uuid);
  if (!row) throw new NotFoundError('Conversation not found');
  if (!canReadConversation(principal, row)) throw new PermissionError('Permission denied: you may not access this conversation');
  return row;
}

export async function getConversation(deps: AppDeps, principal: Principal, uuid: string): Promise<ConversationDetail> {
  await assertCanRead(deps, principal, uuid);
  return readConversation(deps, deps.db, uuid, principal.userId);
}

// Lists

export type ListKind = { kind: 'all' } | { kind: 'assigned' } | { kind: 'unassigned' } | { kind: 'team_unassigned'; teamId: number };

export interface ListQuery {
  status?: string[];
  priority?: string[];
  tag?: string[];
  inbox_id?: number[];
  team_id?: number[];
  assignee_id?: number[];
  order_by?: q.ListOptions['orderBy'];
  order?: 'asc' | 'desc';
}

/** `= any(array)`: one statement text whatever the number of ids (prepared statements). */
function anyOf(ids: readonly number[]) {
  return sql<number>`any(${[...ids]}::int[])`;
}


async function resolveNames<T extends { name: string }>(rows: T[], names: string[], field: string): Promise<T[]> {
  const found = new Set(rows.map((r) => r.name.toLowerCase()));
  const missing = names.filter((n) => !found.has(n.trim().toLowerCase()));
  if (missing.length > 0) throw InputError.field(field, `unknown ${field} ${missing.map((m) => `"${m}"`).join(', ')}`);
  return rows;
}

export async function listConversations(deps: AppDeps, principal: Principal, list: ListKind, query: ListQuery, page: PageRequest) {
  const filters: q.ConversationFilter[] = [];
  switch (list.kind) {
    case 'all':
      requirePermission(principal, 'conversations:read_all');
      break;
    case 'assigned':
      requirePermission(principal, 'conversations:read_assigned');
      filters.push((eb) => eb('c.assigned_user_id', '=', principal.userId));
      break;
    case 'unassigned': {
      requirePermission(principal, 'conversations:read_unassigned');
      filters.push((eb) => eb('c.assigned_user_id', 'is', null));
      break;
    }
    case 'team_unassigned': {
      if (!(await q.findTeamRef(deps.db, list.teamId))) throw new NotFoundError('Team not found');
      const member = principal.teamIds.includes(list.teamId) && principal.permissions.has('conversations:read_team_inbox');
      if (!member && !principal.permissions.has('conversations:read_all')) {
        throw new PermissionError('Permission denied: requires conversations:read_team_inbox and membership of the team');
      }
      const teamId = list.teamId;
      filters.push((eb) => eb.and([eb('c.assigned_team_id', '=', teamId), eb('c.assigned_user_id', 'is', null)]));
      break;
    }
  }
  // Each list's own rule is one of the access rules of contract §3, so every item is readable.
  requirePermission(principal, 'conversations:read');
  if (query.status?.length) {
    const rows = await resolveNames(await q.findStatusIdsByNames(deps.db, query.status), query.status, 'status');
    const ids = rows.map((r) => r.id);
    filters.push((eb) => eb('c.status_id', '=', anyOf(ids)));
  }
  if (query.priority?.length) {
    const rows = await resolveNames(await q.findPrioritiesByNames(deps.db, query.priority), query.priority, 'priority');
    const ids = rows.map((r) => r.id);
    filters.push((eb) => eb('c.priority_id', '=', anyOf(ids)));
  }
  if (query.tag?.length) {
    const rows = await resolveNames(await q.findTagsByNames(deps.db, query.tag), query.tag, 'tag');
    const ids = rows.map((r) => r.id);
    filters.push((eb) =>
      eb.exists(eb.selectFrom('conversation_tags as ctf').select('ctf.tag_id').whereRef('ctf.conversation_id', '=', 'c.id').where('ctf.tag_id', '=', anyOf(ids))),
    );
  }
  if (query.inbox_id?.length) {
    const ids = query.inbox_id;
    filters.push((eb) => eb('c.inbox_id', '=', anyOf(ids)));
  }
  if (query.team_id?.length) {
    const ids = query.team_id;
    filters.push((eb) => eb('c.assigned_team_id', '=', anyOf(ids)));
  }
  if (query.assignee_id?.length) {
    const ids = query.assignee_id;
    filters.push((eb) => eb('c.assigned_user_id', '=', anyOf(ids)));
  }
  const { rows, total } = await q.listConversations(
    deps.db,
    {
      filters,
      orderBy: query.order_by ?? 'last_message_at',
      order: query.order ?? 'desc',
      limit: page.pageSize,
      offset: page.offset,
    },
    principal.userId,
  );
  return pagedResult(rows.map(toListItem), total, page);
}

// Changes

export interface ConversationChanges {
  teamAssignee?: number | null;
  userAssignee?: number | null;
  status?: { name: string; snoozedUntil?: string | undefined };
  priority?: string;
  /** Several tag actions (macros) run in the order given. */
  tags?: TagsChange | TagsChange[];
}

export interface TagsChange {
  action: 'add_tags' | 'remove_tags' | 'set_tags';
  names: string[];
}

const CHANGE_PERMISSIONS: Record<keyof ConversationChanges, Permission> = {
  teamAssignee: 'conversations:update_team_assignee',
  userAssignee: 'conversations:update_user_assignee',
  status: 'conversations:update_status',
  priority: 'conversations:update_priority',
  tags: 'conversations:update_tags',
};

const DURATION = /^(?:(\d{1,4})w)?(?:(\d{1,4})d)?(?:(\d{1,5})h)?(?:(\d{1,6})m)?$/i;
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:[Zz]|[+-]\d{2}:\d{2})$/;
const MAX_SNOOZE_MS = 366 * 24 * 3600 * 1000;

/** `snoozed_until`: an RFC 3339 time or a duration (`30m`, `2h`, `1d`, `1w`, `1h30m`), in the future, at most a year ahead. */
export function parseSnoozedUntil(value: string, now: Date): Date {
  const text = value.trim();
  let at: Date | null = null;
  const duration = DURATION.exec(text);
  if (duration && text !== '') {
    const [, w, d, h, m] = duration.map((part) => Number(part ?? 0));
    const ms = ((((w ?? 0) * 7 + (d ?? 0)) * 24 + (h ?? 0)) * 60 + (m ?? 0)) * 60_000;
    at = new Date(now.getTime() + ms);
  } else if (RFC3339.test(text)) {
    const parsed = Date.parse(text);
    if (!Number.isNaN(parsed)) at = new Date(parsed);
  }
  if (!at) throw InputError.field('snoozed_until', 'must be an RFC 3339 time or a duration such as 30m, 2h, 1d, 1w');
  if (at.getTime() <= now.getTime()) throw InputError.field('snoozed_until', 'must be in the future');
  if (at.getTime() - now.getTime() > MAX_SNOOZE_MS) throw InputError.field('snoozed_until', 'must be at most one year ahead');
  return at;
}

interface State extends q.LockedConversation {}

interface ChangeContext {
  deps: AppDeps;
  trx: DB;
  conversation: State;
  actor: Actor;
  now: Date;
  /** Agents who may have freed a slot: their teams' waiting conversations are placed after commit. */
  freed: Set<number>;
}

async function applyTeam(ctx: ChangeContext, teamId: number | null): Promise<void> {
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
  const team = await q.findTeamRef(trx, teamId);
  if (!team) throw InputError.field('assignee_id', `unknown team id ${teamId}`);
  if (c.assigned_team_id === teamId) return;
  await q.updateConversation(trx, c.id, { assigned_team_id: teamId, updated_at: now });
  c.assigned_team_id = teamId;
  await logActivity(trx, c, actor, `${actor.name} assigned the conversation to team ${team.name}`, { type: 'team', team_id: teamId }, now);
  await conversationEvent(trx, 'conversation.assigned', c, actor, { assignee_type: 'team', team_id: teamId }, now);
  // The conversation moves to the new team: an assignee who is not a member lets it go.
  if (c.assigned_user_id !== null && !(await q.isTeamMember(trx, teamId, c.assigned_user_id))) await applyUser(ctx, null);
  if (c.assigned_user_id === null && c.status_category === 'open') {
    const agentId = await autoAssign(ctx.deps, trx, c, teamId);
    if (agentId !== null) c.assigned_user_id = agentId;
  }
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
  const agent = await q.findLiveAgent(trx, userId);
  if (!agent) throw InputError.field('assignee_id', `unknown agent id ${userId}`);
  if (!agent.enabled) throw new DataError('That agent is disabled and cannot be assigned conversations');
  if (c.assigned_user_id === userId) return;
  const previous = c.assigned_user_id;
  if (previous !== null) ctx.freed.add(previous);
  await q.updateConversation(trx, c.id, { assigned_user_id: userId, assignee_last_seen_at: null, updated_at: now });
  c.assigned_user_id = userId;
  const name = `${agent.first_name} ${agent.last_name}`.trim();
  const text = userId === actor.userId ? `${actor.name} self-assigned the conversation` : `${actor.name} assigned the conversation to ${name}`;
  await logActivity(trx, c, actor, text, { type: 'assignee', assignee_id: userId }, now);
  await conversationEvent(trx, 'conversation.assigned', c, actor, { assignee_type: 'user', assignee_id: userId, previous_assignee_id: previous }, now);
}

/** resolved_at: set when the conversation enters a resolved status, kept while it stays resolved, cleared when it leaves. */
function resolvedAtChange(from: StatusCategory, to: StatusCategory, now: Date): { resolved_at?: Date | null } {
  if (to !== 'resolved') return { resolved_at: null };
  return from === 'resolved' ? {} : { resolved_at: now };
}

async function applyStatus(ctx: ChangeContext, input: { name: string; snoozedUntil?: string | undefined }): Promise<void> {
  const { trx, conversation: c, actor, now } = ctx;
  const status = await q.findStatusByName(trx, input.name);
  if (!status) throw InputError.field('status', `unknown status "${input.name.trim()}"`);
  let snoozedUntil: Date | null = null;
  if (input.snoozedUntil !== undefined) {
    if (status.category !== 'waiting') throw InputError.field('snoozed_until', 'only a waiting status (such as Snoozed) takes snoozed_until');
    snoozedUntil = parseSnoozedUntil(input.snoozedUntil, now);
  } else if (status.name === 'Snoozed') {
    throw InputError.field('snoozed_until', 'is required to snooze (an RFC 3339 time or a duration such as 2h)');
  }
  if (status.id === c.status_id && (snoozedUntil?.getTime() ?? null) === (c.snoozed_until?.getTime() ?? null)) return;
  const previous = c.status;
  await q.updateConversation(trx, c.id, {
    status_id: status.id,
    snoozed_until: snoozedUntil,
    ...resolvedAtChange(c.status_category, status.category, now),
    updated_at: now,
  });
  if (status.category !== 'open' && c.status_category === 'open' && c.assigned_user_id !== null) ctx.freed.add(c.assigned_user_id);
  c.status_id = status.id;
  c.status = status.name;
  c.status_category = status.category;
  c.snoozed_until = snoozedUntil;
  const text = snoozedUntil ? `${actor.name} snoozed the conversation until ${snoozedUntil.toISOString()}` : `${actor.name} set the status to ${status.name}`;
  await logActivity(trx, c, actor, text, { type: 'status', status: status.name, snoozed_until: snoozedUntil?.toISOString() ?? null }, now);
  await conversationEvent(
    trx,
    'conversation.status_changed',
    c,
    actor,
    { previous_status: previous, status: status.name, status_category: status.category, snoozed_until: snoozedUntil?.toISOString() ?? null },
    now,
  );
}

async function applyPriority(ctx: ChangeContext, name: string): Promise<void> {
  const { trx, conversation: c, actor, now } = ctx;
  const [priority] = await q.findPrioritiesByNames(trx, [name]);
  if (!priority) throw InputError.field('priority', `unknown priority "${name.trim()}"; use Low, Medium, High or Urgent`);
  if (c.priority_id === priority.id) return;
  const previous = c.priority;
  await q.updateConversation(trx, c.id, { priority_id: priority.id, updated_at: now });
  c.priority_id = priority.id;
  c.priority = priority.name;
  await logActivity(trx, c, actor, `${actor.name} set the priority to ${priority.name}`, { type: 'priority', priority: priority.name }, now);
  await conversationEvent(trx, 'conversation.priority_changed', c, actor, { previous_priority: previous, priority: priority.name }, now);
}

async function applyTags(ctx: ChangeContext, input: TagsChange): Promise<void> {
  const { trx, conversation: c, actor, now } = ctx;
  const wanted = [...new Map(input.names.map((n) => [n.trim().toLowerCase(), n.trim()])).values()].filter(Boolean);
  const tags = await resolveNames(await q.findTagsByNames(trx, wanted), wanted, 'tags');
  const before = await q.tagNamesOf(trx, c.id);
  const ids = tags.map((t) => t.id);
  if (input.action === 'add_tags') await q.addTags(trx, c.id, ids, now);
  else if (input.action === 'remove_tags') await q.removeTags(trx, c.id, ids);
  else await q.setTags(trx, c.id, ids, now);
  const after = await q.tagNamesOf(trx, c.id);
  const added = after.filter((t) => !before.includes(t));
  const removed = before.filter((t) => !after.includes(t));
  if (added.length === 0 && removed.length === 0) return;
  await q.updateConversation(trx, c.id, { updated_at: now });
  const parts = [added.length ? `added the tags ${added.join(', ')}` : '', removed.length ? `removed the tags ${removed.join(', ')}` : ''].filter(Boolean);
  await logActivity(trx, c, actor, `${actor.name} ${parts.join(' and ')}`, { type: 'tags', added, removed }, now);
  await conversationEvent(trx, 'conversation.tags_changed', c, actor, { added, removed, tags: after }, now);
}

/** Locks the conversation and checks the caller may read it (404 unknown, 403 denied). */
async function lockReadable(trx: DB, principal: Principal, uuid: string): Promise<State> {
  const conversation = await q.lockConversation(trx, uuid);
  if (!conversation) throw new NotFoundError('Conversation not found');
  if (!canReadConversation(principal, conversation)) throw new PermissionError('Permission denied: you may not access this conversation');
  return conversation;
}

export type ExtraWork = (trx: DB, conversation: q.LockedConversation, ctx: { actor: Actor; now: Date }) => Promise<void>;

/**
 * Applies several changes in one transaction, each permission-checked, in the order team,
 * agent, status, priority, tags; `extra` runs in the same transaction (macros). No-op changes
 * write nothing. Returns the conversation as the caller sees it afterwards.
 */
export async function changeConversation(deps: AppDeps, principal: Principal, uuid: string, changes: ConversationChanges, extra?: ExtraWork): Promise<ConversationDetail> {
  for (const key of Object.keys(changes) as Array<keyof ConversationChanges>) {
    if (changes[key] !== undefined) requirePermission(principal, CHANGE_PERMISSIONS[key]);
  }
  const actor = actorOf(principal);
  const freed = new Set<number>();
  await deps.db.transaction().execute(async (trx) => {
    const conversation = await lockReadable(trx, principal, uuid);
    const ctx: ChangeContext = { deps, trx, conversation, actor, now: deps.clock.now(), freed };
    if (changes.teamAssignee !== undefined) await applyTeam(ctx, changes.teamAssignee);
    if (changes.userAssignee !== undefined) await applyUser(ctx, changes.userAssignee);
    if (changes.status !== undefined) await applyStatus(ctx, changes.status);
    if (changes.priority !== undefined) await applyPriority(ctx, changes.priority);
    if (changes.tags !== undefined) for (const tags of [changes.tags].flat()) await applyTags(ctx, tags);
    if (extra) await extra(trx, conversation, { actor, now: ctx.now });
  });
  for (const agentId of freed) await placeForAgent(deps, agentId);
  return readConversation(deps, deps.db, uuid, principal.userId);
}

/** The caller's last-seen mark: now. The assignee's also moves `assignee_last_seen_at`. */
export async function markSeen(deps: AppDeps, principal: Principal, uuid: string): Promise<ConversationDetail> {
  await deps.db.transaction().execute(async (trx) => {
    const c = await lockReadable(trx, principal, uuid);
    const now = deps.clock.now();
    await q.setLastSeen(trx, c.id, principal.userId, now);
    if (c.assigned_user_id === principal.userId) await q.updateConversation(trx, c.id, { assignee_last_seen_at: now, updated_at: now });
  });
  return readConversation(deps, deps.db, uuid, principal.userId);
}

/** Moves the caller's last-seen mark to just before the newest message from the contact, so it counts as unread. */
export async function markUnread(deps: AppDeps, principal: Principal, uuid: string): Promise<ConversationDetail> {
  await deps.db.transaction().execute(async (trx) => {
    const c = await lockReadable(trx, principal, uuid);
    const latest = await q.latestIncomingAt(trx, c.id);
    const mark = latest ? new Date(latest.getTime() - 1) : null;
    if (mark) await q.setLastSeen(trx, c.id, principal.userId, mark);
    else await q.clearLastSeen(trx, c.id, principal.userId);
    if (c.assigned_user_id === principal.userId) await q.updateConversation(trx, c.id, { assignee_last_seen_at: mark, updated_at: deps.clock.now() });
  });
  return readConversation(deps, deps.db, uuid, principal.userId);
}

/** The periodic sweep: snoozed conversations whose time has come are opened again. */
export async function wakeSnoozedConversations(deps: AppDeps): Promise<number> {
  const woken = await deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    const due = await q.lockDueSnoozed(trx, now, 500);
    if (due.length === 0) return [];
    const open = await q.findStatusIdByCategoryName(trx, 'Open');
    if (!open) throw new Error('the built-in status Open is missing');
    for (const c of due) {
      await q.updateConversation(trx, c.id, { status_id: open.id, snoozed_until: null, updated_at: now });
      await logActivity(trx, c, SYSTEM, 'The snooze ended; the conversation is open again', { type: 'status', status: open.name, snoozed_until: null }, now);
      await conversationEvent(trx, 'conversation.status_changed', c, SYSTEM, { previous_status: c.status, status: open.name, status_category: 'open', snoozed_until: null }, now);
    }
    return due;
  });
  const teams = [...new Set(woken.map((c) => c.assigned_team_id).filter((id): id is number => id !== null))];
  if (teams.length > 0) await placeWaitingConversations(deps, teams);
  return woken.length;
}

// Messages enter a conversation here, whatever the channel.

export interface AppendMessageInput {
  type: 'incoming' | 'outgoing';
  private: boolean;
  senderId: number | null;
  senderType: 'agent' | 'contact';
  content: string;
  textContent: string;
  contentType: 'html' | 'text';
  meta?: Record<string, unknown>;
  attachmentCount: number;
  sourceId?: string | null;
}

/**
 * Inside the caller's transaction, with the conversation locked: inserts the message and
 * keeps the conversation's denormalised fields right. A public reply clears `waiting_since`
 * and sets the reply times; a message from the contact starts `waiting_since` and reopens a
 * waiting or resolved conversation. Agent replies start `pending` and a delivery job is
 * queued in the same transaction; private notes are `sent` at once.
 */
export async function appendMessage(deps: AppDeps, trx: DB, conversation: q.LockedConversation, input: AppendMessageInput, now: Date) {
  // A blocked contact's messages are refused on every channel (they all come through here).
  if (input.type === 'incoming') {
    const contact = await q.findLiveContact(trx, conversation.contact_id);
    if (!contact?.enabled) throw new PermissionError('This contact is blocked: their messages are refused');
  }
  const isPublicReply = input.type === 'outgoing' && !input.private;
  const status = input.type === 'incoming' ? 'received' : input.private ? 'sent' : 'pending';
  const preview = previewOf(input.textContent, input.attachmentCount);
  let changes: q.ConversationChanges;
  if (isPublicReply) {
    changes = {
      last_message: preview,
      last_message_at: now,
      last_message_sender: 'agent',
      first_reply_at: conversation.first_reply_at ?? now,
      last_reply_at: now,
      waiting_since: null,
      updated_at: now,
    };
  } else if (input.type === 'incoming') {
    changes = {
      last_message: preview,
      last_message_at: now,
      last_message_sender: 'contact',
      last_incoming_at: now,
      waiting_since: conversation.waiting_since ?? now,
      updated_at: now,
    };
  } else {
    changes = { updated_at: now };
  }
  // One job kind per channel: each channel's sender handles its own (the email sender arrives with the email channel).
  const deliveryKind = `${conversation.inbox_channel}.deliver`;
  const message = await q.insertMessageWithEffects(
    trx,
    {
      conversation_id: conversation.id,
      type: input.type,
      status,
      content: input.content,
      text_content: input.textContent,
      content_type: input.contentType,
      private: input.private,
      sender_id: input.senderId,
      sender_type: input.senderType,
      meta: input.meta ?? {},
      source_id: input.sourceId ?? null,
      created_at: now,
      updated_at: now,
    },
    {
      conversationId: conversation.id,
      conversation: changes,
      event: {
        type: 'message.created',
        payload: {
          conversation_id: conversation.id,
          conversation_uuid: conversation.uuid,
          type: input.type,
          private: input.private,
          sender_id: input.senderId,
          sender_type: input.senderType,
        },
        at: now,
      },
      job: isPublicReply ? { kind: deliveryKind, payload: {}, maxAttempts: DEFAULT_MAX_ATTEMPTS } : null,
    },
  );
  if (isPublicReply) announceJob(deps, deliveryKind, null, trx.isTransaction);
  if (changes.waiting_since !== undefined) conversation.waiting_since = changes.waiting_since;
  if (changes.first_reply_at !== undefined) conversation.first_reply_at = changes.first_reply_at;
  if (input.type === 'incoming' && conversation.status_category !== 'open') await reopen(trx, conversation, now);
  return message;
}

async function reopen(trx: DB, c: q.LockedConversation, now: Date): Promise<void> {
  const open = await q.findStatusIdByCategoryName(trx, 'Open');
  if (!open) throw new Error('the built-in status Open is missing');
  const previous = c.status;
  await q.updateConversation(trx, c.id, { status_id: open.id, snoozed_until: null, resolved_at: null, updated_at: now });
  c.status_id = open.id;
  c.status = open.name;
  c.status_category = 'open';
  c.snoozed_until = null;
  await logActivity(trx, c, SYSTEM, 'The contact wrote again; the conversation is open again', { type: 'status', status: open.name, reopened: true }, now);
  await conversationEvent(trx, 'conversation.status_changed', c, SYSTEM, { previous_status: previous, status: open.name, status_category: 'open', snoozed_until: null }, now);
}

/** Locks a conversation for a channel (widget, email): no agent access rule applies. */
export async function lockConversationForChannel(trx: DB, uuid: string): Promise<q.LockedConversation | undefined> {
  return q.lockConversation(trx, uuid);
}

/** Locks a conversation the agent may read (404 unknown, 403 denied). */
export async function lockConversationFor(trx: DB, principal: Principal, uuid: string): Promise<q.LockedConversation> {
  return lockReadable(trx, principal, uuid);
}

// Creation

export interface CreateConversationInput {
  inbox_id: number;
  contact_id?: number | undefined;
  contact_email?: string | undefined;
  first_name?: string | undefined;
  last_name?: string | undefined;
  subject?: string | undefined;
  content: string;
  initiator?: 'agent' | 'contact' | undefined;
  assignee_id?: number | undefined;
  team_id?: number | undefined;
}

async function resolveContact(deps: AppDeps, input: CreateConversationInput): Promise<{ id: number; enabled: boolean }> {
  if ((input.contact_id === undefined) === (input.contact_email === undefined)) {
    throw InputError.field('contact_id', 'give exactly one of contact_id or contact_email');
  }
  if (input.contact_id !== undefined) {
    const contact = await q.findLiveContact(deps.db, input.contact_id);
    if (!contact) throw InputError.field('contact_id', `unknown contact id ${input.contact_id}`);
    return contact;
  }
  const email = (input.contact_email ?? '').trim().toLowerCase();
  const existing = await q.findLiveContactByEmail(deps.db, email);
  if (existing) return existing;
  const firstName = input.first_name?.trim() || email.split('@')[0] || email;
  const created = await createContact(deps, { email, first_name: firstName, ...(input.last_name !== undefined ? { last_name: input.last_name } : {}) });
  return { id: created.id, enabled: created.enabled };
}

export async function createConversation(deps: AppDeps, principal: Principal, input: CreateConversationInput): Promise<ConversationDetail> {
  requirePermission(principal, 'conversations:write');
  const initiator = input.initiator ?? 'agent';
  if (initiator === 'agent') requirePermission(principal, 'messages:write');
  if (input.assignee_id !== undefined && input.assignee_id !== principal.userId) requirePermission(principal, 'conversations:update_user_assignee');
  if (input.team_id !== undefined) requirePermission(principal, 'conversations:update_team_assignee');
  const { content, textContent } = prepareContent(input.content, 'html');
  if (textContent === '' && !/<img\s/i.test(content)) throw InputError.field('content', 'must not be empty');

  const inbox = await q.findLiveInbox(deps.db, input.inbox_id);
  if (!inbox) throw InputError.field('inbox_id', `unknown inbox id ${input.inbox_id}`);
  if (!inbox.enabled) throw new DataError('That inbox is disabled');
  if (input.assignee_id !== undefined) {
    const agent = await q.findLiveAgent(deps.db, input.assignee_id);
    if (!agent) throw InputError.field('assignee_id', `unknown agent id ${input.assignee_id}`);
    if (!agent.enabled) throw new DataError('That agent is disabled and cannot be assigned conversations');
  }
  if (input.team_id !== undefined && !(await q.findTeamRef(deps.db, input.team_id))) throw InputError.field('team_id', `unknown team id ${input.team_id}`);
  const contact = await resolveContact(deps, input);
  if (initiator === 'contact' && !contact.enabled) throw new PermissionError('This contact is blocked: their messages are refused');

  const actor = actorOf(principal);
  const created = await deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    const open = await q.findStatusIdByCategoryName(trx, 'Open');
    if (!open) throw new Error('the built-in status Open is missing');
    const row = await q.insertConversation(trx, {
      inbox_id: inbox.id,
      contact_id: contact.id,
      status_id: open.id,
      subject: input.subject?.trim() ?? '',
      assigned_user_id: input.assignee_id ?? null,
      assigned_team_id: input.team_id ?? null,
      created_at: now,
      updated_at: now,
    });
    const conversation = await q.lockConversation(trx, row.uuid);
    if (!conversation) throw new Error(`conversation ${row.uuid} vanished inside its own transaction`);
    await conversationEvent(trx, 'conversation.created', conversation, actor, { inbox_id: inbox.id, contact_id: contact.id, initiator }, now);
    await appendMessage(
      deps,
      trx,
      conversation,
      initiator === 'agent'
        ? { type: 'outgoing', private: false, senderId: principal.userId, senderType: 'agent', content, textContent, contentType: 'html', attachmentCount: 0 }
        : { type: 'incoming', private: false, senderId: contact.id, senderType: 'contact', content, textContent, contentType: 'html', attachmentCount: 0 },
      now,
    );
    if (input.team_id !== undefined) {
      await conversationEvent(trx, 'conversation.assigned', conversation, actor, { assignee_type: 'team', team_id: input.team_id }, now);
    }
    if (input.assignee_id !== undefined) {
      await conversationEvent(trx, 'conversation.assigned', conversation, actor, { assignee_type: 'user', assignee_id: input.assignee_id }, now);
    } else if (input.team_id !== undefined) {
      await autoAssign(deps, trx, conversation, input.team_id);
    }
    return row;
  });
  return readConversation(deps, deps.db, created.uuid, principal.userId);
}

/** Contract §6: a status in use cannot be deleted (422). */
export async function assertStatusUnused(db: DB, statusId: number): Promise<void> {
  if (await q.statusInUse(db, statusId)) throw new DataError('That status is in use by conversations; move them to another status first');
}

export type { ConversationRef };

/** Inside the deletion's transaction: the agent's unresolved conversations go back to their team. Returns the teams to place into. */
export async function releaseConversationsOfAgent(trx: DB, agentId: number, now: Date): Promise<number[]> {
  return q.releaseConversationsOf(trx, agentId, 'The assigned agent was removed; the conversation is unassigned', now);
}
