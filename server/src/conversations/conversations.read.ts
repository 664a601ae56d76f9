// Reading conversations: one record, the access check, and the lists.
import type { Static } from 'typebox';
import type { Principal } from '../auth/credential-cache.ts';
import { type ContactRecord, contactRecordsByIds } from '../contacts/contacts.service.ts';
import { type CsatSurveyRecord, surveysByConversationIds } from '../csat/csat.service.ts';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { InputError, NotFoundError, PermissionError } from '../errors.ts';
import { type PageRequest, pagedJson } from '../http/schemas.ts';
import { findPrioritiesByNames, findStatusesByNames } from '../statuses/statuses.service.ts';
import { findTagsByNames } from '../tags/tags.service.ts';
import { findTeam } from '../teams/teams.service.ts';
import { canReadConversation, type ListKind, listDenial } from './conversations.access.ts';
import * as q from './conversations.queries.ts';
import * as records from './records.queries.ts';
import type { ConversationListQuery } from './conversations.schema.ts';

// Records

/** The list item of a record; lists have PostgreSQL write the same fields (records.queries.ts, LIST_ITEM). */
function toListItem(row: records.ConversationRow) {
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
    sla_policy_id: row.sla_policy_id,
    first_reply_at: row.first_reply_at,
    last_reply_at: row.last_reply_at,
    resolved_at: row.resolved_at,
    subject: row.subject,
    last_message: row.last_message,
    first_message: row.first_message,
    last_message_at: row.last_message_at,
    last_message_sender: row.last_message_sender,
    next_sla_deadline_at: row.next_sla_deadline_at,
    priority_id: row.priority_id,
    unread_message_count: row.unread_message_count,
    status: row.status,
    priority: row.priority,
    first_response_deadline_at: row.first_response_deadline_at,
    resolution_deadline_at: row.resolution_deadline_at,
    applied_sla_id: row.applied_sla_id,
    next_response_deadline_at: row.next_response_deadline_at,
    next_response_met_at: row.next_response_met_at,
    assigned_user_id: row.assigned_user_id,
    assigned_team_id: row.assigned_team_id,
    tags: row.tags,
  };
}

export type ConversationListItem = ReturnType<typeof toListItem>;

/** The conversation as `viewerId` sees it (their unread count), read after the change committed. */
export async function readConversation(deps: AppDeps, uuid: string, viewerId: number) {
  // The row and its contact are two reads: a contact merged away between them (a visitor who
  // signed in with setUser, whose conversations move to the verified contact) is gone while the
  // row read first still names it. Read the row again: it names the contact it moved to.
  for (let attempt = 1; ; attempt++) {
    const row = await records.findConversationRecordByUuid(deps.db, uuid, viewerId);
    if (!row) throw new NotFoundError('Conversation not found');
    const [contact] = await contactRecordsByIds(deps, [row.contact_id]);
    if (!contact && attempt < 3) continue;
    if (!contact) throw new NotFoundError('Contact not found');
    const surveys = await surveysByConversationIds(deps.db, [row.id]);
    return toDetail(row, contact, surveys.get(row.id) ?? null);
  }
}

function toDetail(row: records.ConversationRow, contact: ContactRecord, csat: CsatSurveyRecord | null) {
  return {
    ...toListItem(row),
    contact,
    status_category: row.status_category,
    snoozed_until: row.snoozed_until,
    custom_attributes: row.custom_attributes,
    meta: row.meta,
    csat,
  };
}

export type ConversationDetail = Awaited<ReturnType<typeof readConversation>>;

/**
 * Many conversation records as `GET /conversations/{uuid}` answers them, in two statements
 * (webhook payloads). No agent views them: `unread_message_count` counts every public message
 * of the contact. A conversation whose contact is gone (deleted) is left out, like an unknown id.
 */
export async function conversationRecordsByIds(deps: AppDeps, ids: readonly number[]): Promise<ConversationDetail[]> {
  const rows = await records.findConversationRecordsByIds(deps.db, ids, 0);
  const contacts = new Map((await contactRecordsByIds(deps, [...new Set(rows.map((row) => row.contact_id))])).map((c) => [c.id, c]));
  const surveys = await surveysByConversationIds(deps.db, idsOf(rows));
  const out: ConversationDetail[] = [];
  for (const row of rows) {
    const contact = contacts.get(row.contact_id);
    if (contact) out.push(toDetail(row, contact, surveys.get(row.id) ?? null));
  }
  return out;
}

/** Many list items as the lists write them, for `viewerId` (their unread counts), in one statement; unknown ids are left out. */
export async function listItemsByIds(deps: AppDeps, ids: readonly number[], viewerId: number): Promise<ConversationListItem[]> {
  const rows = await records.findConversationRecordsByIds(deps.db, ids, viewerId);
  return rows.map(toListItem);
}

/** 404 for an unknown conversation, 403 for one the caller may not read (docs/api.md, Permissions and access). */
export async function assertCanRead(db: DB, principal: Principal, uuid: string) {
  const row = await q.findConversationAccess(db, uuid);
  if (!row) throw new NotFoundError('Conversation not found');
  if (!canReadConversation(principal, row)) throw new PermissionError('Permission denied: you may not access this conversation');
  return row;
}

/** Locks the conversation for the rest of the transaction and checks the caller may read it (404 unknown, 403 denied). */
export async function lockReadableConversation(trx: DB, principal: Principal, uuid: string): Promise<q.LockedConversation> {
  const conversation = await q.lockConversation(trx, uuid);
  if (!conversation) throw new NotFoundError('Conversation not found');
  if (!canReadConversation(principal, conversation)) throw new PermissionError('Permission denied: you may not access this conversation');
  return conversation;
}

export async function getConversation(deps: AppDeps, principal: Principal, uuid: string): Promise<ConversationDetail> {
  await assertCanRead(deps.db, principal, uuid);
  return readConversation(deps, uuid, principal.userId);
}

/** The rows found for `names` (trimmed, case-insensitive); 400 on `field` naming those that match nothing. */
export function requireNamed<T extends { name: string }>(rows: T[], names: readonly string[], field: string): T[] {
  const found = new Set(rows.map((r) => r.name.toLowerCase()));
  const missing = names.filter((n) => !found.has(n.trim().toLowerCase()));
  if (missing.length > 0) throw InputError.field(field, `unknown ${field} ${missing.map((m) => `"${m}"`).join(', ')}`);
  return rows;
}

// Lists

export type { ListKind };

export type ListQuery = Static<typeof ConversationListQuery>;

/** Each list needs its own permission (listDenial, conversations.access.ts); an unknown team is a 404 first. */
async function scopeOf(deps: AppDeps, principal: Principal, list: ListKind): Promise<records.ListScope> {
  if (list.kind === 'team_unassigned' && !(await findTeam(deps.db, list.teamId))) throw new NotFoundError('Team not found');
  const denial = listDenial(principal, list);
  if (denial) throw new PermissionError(denial);
  return list.kind === 'assigned' ? { kind: 'assigned', userId: principal.userId } : list;
}

const idsOf = (rows: Array<{ id: number }>) => rows.map((r) => r.id);

export async function listConversations(deps: AppDeps, principal: Principal, list: ListKind, query: ListQuery, page: PageRequest) {
  const scope = await scopeOf(deps, principal, list);
  const { status, priority, tag } = query;
  const filter: records.ListFilter = {
    scope,
    statusIds: status?.length ? idsOf(requireNamed(await findStatusesByNames(deps.db, status), status, 'status')) : undefined,
    priorityIds: priority?.length ? idsOf(requireNamed(await findPrioritiesByNames(deps.db, priority), priority, 'priority')) : undefined,
    tagIds: tag?.length ? idsOf(requireNamed(await findTagsByNames(deps.db, tag), tag, 'tag')) : undefined,
    inboxIds: query.inbox_id,
    teamIds: query.team_id,
    assigneeIds: query.assignee_id,
    contactIds: query.contact_id,
  };
  const options = {
    filter,
    orderBy: query.order_by ?? 'last_message_at',
    order: query.order ?? 'desc',
    limit: page.pageSize,
    offset: page.offset,
  } as const;
  // The items come as JSON (UTF-8 bytes) written by the database (records.queries.ts says why).
  const { items, total } = await records.listConversationsJson(deps.db, options, principal.userId);
  return pagedJson(items, total, page);
}

/** Who may see a conversation, and where it lives: by id or uuid, many at once (realtime fan-out). */
export type ConversationFacts = Awaited<ReturnType<typeof q.findAccessFacts>>[number];

export async function conversationFacts(db: DB, by: { ids?: readonly number[]; uuids?: readonly string[] }): Promise<ConversationFacts[]> {
  return q.findAccessFacts(db, { ids: by.ids ?? [], uuids: by.uuids ?? [] });
}

/**
 * A conversation the caller may read, by uuid; an unknown one and one they may not read are the
 * same 404, so that nothing tells the conversation exists (followers, viewers, drafts).
 */
export async function readableConversationFacts(db: DB, principal: Principal, uuid: string): Promise<ConversationFacts> {
  const [facts] = await conversationFacts(db, { uuids: [uuid] });
  if (!facts || !canReadConversation(principal, facts)) throw new NotFoundError('Conversation not found');
  return facts;
}

/** The facts of a contact's newest conversations (at most 20): agents who may read one of them may see the contact live. */
export async function contactConversationFacts(db: DB, contactId: number): Promise<ConversationFacts[]> {
  return q.findContactAccessFacts(db, contactId, 20);
}
