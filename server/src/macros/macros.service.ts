// The rules of macros (contract §7): who sees and manages which macro, what a macro's
// actions may say, and applying one to a conversation in one transaction.
import type { Principal } from '../auth/credential-cache.ts';
import {
  appendMessage,
  assertCanRead,
  type ConversationChanges,
  type ConversationDetail,
  changeConversation,
  type TagsChange,
} from '../conversations/conversations.service.ts';
import type { DB } from '../db/database.ts';
import type { MacroVisibility, StatusCategory } from '../db/types.ts';
import type { AppDeps } from '../deps.ts';
import { DataError, InputError, NotFoundError, PermissionError } from '../errors.ts';
import { prepareContent, sanitizeMessageHtml } from '../messages/messages.content.ts';
import { type Permission, requirePermission } from '../roles/permissions.ts';
import * as q from './macros.queries.ts';
import { VISIBLE_WHEN } from './macros.schema.ts';

export interface MacroActions {
  set_status?: string;
  set_priority?: string;
  assign_team?: number;
  assign_user?: number;
  add_tags?: string[];
  remove_tags?: string[];
  set_tags?: string[];
}

type ActionType = keyof MacroActions;

const ACTION_PERMISSIONS: Record<ActionType, Permission> = {
  set_status: 'conversations:update_status',
  set_priority: 'conversations:update_priority',
  assign_team: 'conversations:update_team_assignee',
  assign_user: 'conversations:update_user_assignee',
  add_tags: 'conversations:update_tags',
  remove_tags: 'conversations:update_tags',
  set_tags: 'conversations:update_tags',
};

const ACTION_TYPES = Object.keys(ACTION_PERMISSIONS) as ActionType[];

export interface MacroInput {
  name?: string;
  actions?: MacroActions;
  visibility?: MacroVisibility;
  visible_when?: string[];
  message_content?: string;
  user_id?: string | number | null;
  team_id?: string | number | null;
}

// Records

/** Actions as stored (jsonb): only the known keys with well-typed values are kept. */
function storedActions(raw: Record<string, unknown>): MacroActions {
  const out: MacroActions = {};
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const id = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);
  const names = (v: unknown) => {
    if (!Array.isArray(v)) return undefined;
    const list = v.filter((n): n is string => typeof n === 'string');
    return list.length === v.length ? list : undefined;
  };
  const status = text(raw['set_status']);
  if (status !== undefined) out.set_status = status;
  const priority = text(raw['set_priority']);
  if (priority !== undefined) out.set_priority = priority;
  const team = id(raw['assign_team']);
  if (team !== undefined) out.assign_team = team;
  const user = id(raw['assign_user']);
  if (user !== undefined) out.assign_user = user;
  for (const key of ['add_tags', 'remove_tags', 'set_tags'] as const) {
    const list = names(raw[key]);
    if (list !== undefined) out[key] = list;
  }
  return out;
}

export function toRecord(row: q.MacroRow) {
  return {
    id: row.id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    name: row.name,
    actions: storedActions(row.actions),
    visibility: row.visibility,
    visible_when: row.visible_when,
    message_content: row.message_content,
    user_id: row.user_id === null ? null : String(row.user_id),
    team_id: row.team_id === null ? null : String(row.team_id),
    usage_count: row.usage_count,
  };
}

export type MacroRecord = ReturnType<typeof toRecord>;

// Who may see and manage a macro

interface Owned {
  visibility: MacroVisibility;
  user_id: number | null;
  team_id: number | null;
}

function manages(principal: Principal): boolean {
  return principal.permissions.has('macros:manage');
}

export function canSee(principal: Principal, macro: Owned): boolean {
  if (manages(principal)) return true;
  switch (macro.visibility) {
    case 'global':
      return true;
    case 'team':
      return macro.team_id !== null && principal.teamIds.includes(macro.team_id);
    case 'user':
      return macro.user_id === principal.userId;
  }
}

/** Global and team macros need `macros:manage`; an agent manages their own user macros. */
function canManage(principal: Principal, macro: Owned): boolean {
  return manages(principal) || (macro.visibility === 'user' && macro.user_id === principal.userId);
}

function assertCanManage(principal: Principal, macro: Owned): void {
  if (canManage(principal, macro)) return;
  throw new PermissionError(
    macro.visibility === 'user'
      ? "Permission denied: another agent's user macro requires macros:manage"
      : `Permission denied: a ${macro.visibility} macro requires macros:manage`,
  );
}

/** 404 for an unknown macro and for one the caller may not see. */
async function visibleMacro(db: DB, principal: Principal, id: number): Promise<q.MacroRow> {
  const row = await q.findMacro(db, id);
  if (!row || !canSee(principal, row)) throw new NotFoundError('Macro not found');
  return row;
}

// Validation

const NAME_MAX = 255;

function ownerId(value: string | number | null | undefined, field: string): number | null | undefined {
  if (value === undefined || value === null) return value;
  if (typeof value === 'number') return value;
  if (value === '') return null;
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id < 1 || id > 2147483647) throw InputError.field(field, 'must be a positive integer id (as a string)');
  return id;
}

/** A team macro names its team, a user macro its agent (checked before permissions: it reveals nothing). */
function requireOwner(state: Owned): void {
  if (state.visibility === 'team' && state.team_id === null) throw InputError.field('team_id', 'is required for a team macro');
  if (state.visibility === 'user' && state.user_id === null) throw InputError.field('user_id', 'is required for a user macro');
}

function dedupeNames(names: string[]): string[] {
  return [...new Map(names.map((n) => [n.trim().toLowerCase(), n.trim()])).values()].filter(Boolean);
}

/**
 * Checks every action against what exists now and returns them with canonical names
 * (the stored spelling of statuses, priorities and tags). 400 names the failing field.
 */
async function checkActions(db: DB, actions: MacroActions): Promise<MacroActions> {
  const out: MacroActions = {};
  if (actions.set_status !== undefined) {
    const status = await q.findStatusByName(db, actions.set_status);
    if (!status) throw InputError.field('actions.set_status', `unknown status "${actions.set_status.trim()}"`);
    if (status.name === 'Snoozed') throw InputError.field('actions.set_status', 'Snoozed needs a snooze time, which a macro cannot give; use another status');
    out.set_status = status.name;
  }
  if (actions.set_priority !== undefined) {
    const priority = await q.findPriorityByName(db, actions.set_priority);
    if (!priority) throw InputError.field('actions.set_priority', `unknown priority "${actions.set_priority.trim()}"; use Low, Medium, High or Urgent`);
    out.set_priority = priority.name;
  }
  if (actions.assign_team !== undefined) {
    if (!(await q.findTeam(db, actions.assign_team))) throw InputError.field('actions.assign_team', `unknown team id ${actions.assign_team}`);
    out.assign_team = actions.assign_team;
  }
  if (actions.assign_user !== undefined) {
    const agent = await q.findLiveAgent(db, actions.assign_user);
    if (!agent) throw InputError.field('actions.assign_user', `unknown agent id ${actions.assign_user}`);
    if (!agent.enabled) throw InputError.field('actions.assign_user', `agent ${actions.assign_user} is disabled and cannot be assigned conversations`);
    out.assign_user = actions.assign_user;
  }
  for (const key of ['set_tags', 'add_tags', 'remove_tags'] as const) {
    const given = actions[key];
    if (given === undefined) continue;
    const wanted = dedupeNames(given);
    const found = await q.findTagsByNames(db, wanted);
    const byName = new Map(found.map((t) => [t.name.toLowerCase(), t.name]));
    const missing = wanted.filter((n) => !byName.has(n.toLowerCase()));
    if (missing.length > 0) throw InputError.field(`actions.${key}`, `unknown tag ${missing.map((m) => `"${m}"`).join(', ')}`);
    out[key] = wanted.map((n) => byName.get(n.toLowerCase()) ?? n);
  }
  return out;
}

/** The whole state a macro will have, checked; the owner id that does not apply to its visibility is cleared. */
async function checkState(db: DB, state: { name: string; visibility: MacroVisibility; visible_when: string[]; message_content: string; user_id: number | null; team_id: number | null }) {
  const name = state.name.trim();
  if (name.length === 0) throw InputError.field('name', 'must not be empty');
  if ([...name].length > NAME_MAX) throw InputError.field('name', `must be at most ${NAME_MAX} characters`);
  const known = new Set<string>(VISIBLE_WHEN);
  const bad = state.visible_when.find((w) => !known.has(w));
  if (bad !== undefined) throw InputError.field('visible_when', `unknown value "${bad}"; use ${VISIBLE_WHEN.join(', ')}`);
  if (state.visible_when.length === 0) throw InputError.field('visible_when', 'must name at least one status category');
  const visibleWhen = VISIBLE_WHEN.filter((w) => state.visible_when.includes(w));
  const teamId = state.visibility === 'team' ? state.team_id : null;
  const userId = state.visibility === 'user' ? state.user_id : null;
  requireOwner({ visibility: state.visibility, team_id: teamId, user_id: userId });
  if (teamId !== null && !(await q.findTeam(db, teamId))) throw InputError.field('team_id', `unknown team id ${teamId}`);
  if (userId !== null && !(await q.findLiveAgent(db, userId))) throw InputError.field('user_id', `unknown agent id ${userId}`);
  return { name, visibility: state.visibility, visible_when: visibleWhen, message_content: sanitizeMessageHtml(state.message_content), user_id: userId, team_id: teamId };
}

// CRUD

export async function listMacros(deps: AppDeps, principal: Principal, query: { conversation_uuid?: string | undefined }): Promise<MacroRecord[]> {
  let category: StatusCategory | undefined;
  if (query.conversation_uuid !== undefined) {
    await assertCanRead(deps, principal, query.conversation_uuid);
    category = await q.findConversationCategory(deps.db, query.conversation_uuid);
    if (!category) throw new NotFoundError('Conversation not found');
  }
  const rows = await q.listMacros(deps.db, {
    viewer: manages(principal) ? null : { userId: principal.userId, teamIds: principal.teamIds },
    ...(category ? { category } : {}),
  });
  return rows.map(toRecord);
}

export async function getMacro(deps: AppDeps, principal: Principal, id: number): Promise<MacroRecord> {
  return toRecord(await visibleMacro(deps.db, principal, id));
}

export async function createMacro(deps: AppDeps, principal: Principal, input: MacroInput & { name: string }): Promise<MacroRecord> {
  const visibility = input.visibility ?? 'global';
  const userId = ownerId(input.user_id, 'user_id') ?? null;
  const teamId = ownerId(input.team_id, 'team_id') ?? null;
  const owner = { visibility, user_id: visibility === 'user' ? userId : null, team_id: visibility === 'team' ? teamId : null };
  requireOwner(owner);
  // Permission before the lookups: an agent without macros:manage learns nothing about names and ids.
  assertCanManage(principal, owner);
  const state = await checkState(deps.db, {
    name: input.name,
    visibility,
    visible_when: input.visible_when ?? [...VISIBLE_WHEN],
    message_content: input.message_content ?? '',
    user_id: userId,
    team_id: teamId,
  });
  const actions = await checkActions(deps.db, input.actions ?? {});
  const row = await q.insertMacro(deps.db, { ...state, actions: { ...actions } }, deps.clock.now());
  return toRecord(row);
}

export async function updateMacro(deps: AppDeps, principal: Principal, id: number, input: MacroInput): Promise<MacroRecord> {
  const userId = ownerId(input.user_id, 'user_id');
  const teamId = ownerId(input.team_id, 'team_id');
  const row = await deps.db.transaction().execute(async (trx) => {
    const existing = await q.lockMacro(trx, id);
    if (!existing || !canSee(principal, existing)) throw new NotFoundError('Macro not found');
    assertCanManage(principal, existing);
    const visibility = input.visibility ?? existing.visibility;
    const next = {
      visibility,
      user_id: visibility === 'user' ? (userId === undefined ? existing.user_id : userId) : null,
      team_id: visibility === 'team' ? (teamId === undefined ? existing.team_id : teamId) : null,
    };
    requireOwner(next);
    // The macro as it will be must be the caller's to manage too (no giving it away, no making it global).
    assertCanManage(principal, next);
    const state = await checkState(trx, {
      name: input.name ?? existing.name,
      visible_when: input.visible_when ?? existing.visible_when,
      message_content: input.message_content ?? existing.message_content,
      ...next,
    });
    const actions = input.actions !== undefined ? await checkActions(trx, input.actions) : storedActions(existing.actions);
    const updated = await q.updateMacro(trx, id, { ...state, actions: { ...actions } }, deps.clock.now());
    if (!updated) throw new NotFoundError('Macro not found');
    return updated;
  });
  return toRecord(row);
}

export async function deleteMacro(deps: AppDeps, principal: Principal, id: number): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const existing = await q.lockMacro(trx, id);
    if (!existing || !canSee(principal, existing)) throw new NotFoundError('Macro not found');
    assertCanManage(principal, existing);
    await q.deleteMacro(trx, id);
  });
}

// Apply

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

const PLACEHOLDER = /\{\{\s*([a-z_]+\.[a-z_]+)\s*\}\}/g;

/** Replaces the known placeholders with HTML-escaped values; unknown ones stay as they are. */
export function renderMacroContent(template: string, values: Readonly<Record<string, string | null | undefined>>): string {
  return template.replace(PLACEHOLDER, (whole, key: string) => {
    if (!Object.hasOwn(values, key)) return whole;
    return escapeHtml(values[key] ?? '');
  });
}

/** The conversation changes a macro's actions ask for, in the order they run. */
function changesOf(actions: MacroActions): ConversationChanges {
  const changes: ConversationChanges = {};
  if (actions.assign_team !== undefined) changes.teamAssignee = actions.assign_team;
  if (actions.assign_user !== undefined) changes.userAssignee = actions.assign_user;
  if (actions.set_status !== undefined) changes.status = { name: actions.set_status };
  if (actions.set_priority !== undefined) changes.priority = actions.set_priority;
  const tags: TagsChange[] = [];
  for (const action of ['set_tags', 'add_tags', 'remove_tags'] as const) {
    const names = actions[action];
    if (names !== undefined) tags.push({ action, names });
  }
  if (tags.length > 0) changes.tags = tags;
  return changes;
}

export interface ApplyResult {
  conversation: ConversationDetail;
  message_content: string;
}

/**
 * Runs the macro's actions on a conversation in one transaction (each permission-checked),
 * counts the use, and renders its message; with `sendMessage` a non-empty message goes out
 * as a reply in the same transaction. All or nothing.
 */
export async function applyMacro(deps: AppDeps, principal: Principal, uuid: string, id: number, options: { sendMessage?: boolean | undefined } = {}): Promise<ApplyResult> {
  const macro = await visibleMacro(deps.db, principal, id);
  await assertCanRead(deps, principal, uuid);
  const category = await q.findConversationCategory(deps.db, uuid);
  if (!category) throw new NotFoundError('Conversation not found');
  if (!macro.visible_when.includes(`conversation_${category}`)) {
    throw new DataError(`This macro is not offered for ${category} conversations (visible_when: ${macro.visible_when.join(', ') || 'none'})`);
  }
  const stored = storedActions(macro.actions);
  for (const type of ACTION_TYPES) {
    const permission = ACTION_PERMISSIONS[type];
    if (stored[type] !== undefined) requirePermission(principal, permission, `the macro's ${type} action`);
  }
  const send = options.sendMessage === true;
  if (send) requirePermission(principal, 'messages:write', 'sending the message');
  // What the actions refer to may have gone since the macro was saved: say which.
  const actions = await checkActions(deps.db, stored);

  let rendered = '';
  const conversation = await changeConversation(deps, principal, uuid, changesOf(actions), async (trx, locked, { now }) => {
    if (!(await q.countUse(trx, macro.id))) throw new NotFoundError('Macro not found');
    const contact = await q.findContactFields(trx, locked.contact_id);
    rendered = renderMacroContent(macro.message_content, {
      'contact.first_name': contact?.first_name,
      'contact.last_name': contact?.last_name,
      'contact.email': contact?.email,
      'agent.first_name': principal.firstName,
      'agent.last_name': principal.lastName,
      'conversation.reference_number': locked.reference_number,
      'conversation.subject': locked.subject,
    });
    if (!send) return;
    const { content, textContent } = prepareContent(rendered, 'html');
    if (textContent === '' && !/<img\s/i.test(content)) return;
    await appendMessage(
      deps,
      trx,
      locked,
      { type: 'outgoing', private: false, senderId: principal.userId, senderType: 'agent', content, textContent, contentType: 'html', attachmentCount: 0 },
      now,
    );
  });
  return { conversation, message_content: rendered };
}
