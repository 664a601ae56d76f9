// The rules of macros: saving one (its owner, name, categories and
// content), listing those the caller may see, and applying one to a conversation in one
// transaction. Visibility is macros.access.ts; actions macros.actions.ts; the message macros.render.ts.
import type { Static } from 'typebox';
import { findLiveAgent } from '../agents/agents.service.ts';
import type { Principal } from '../auth/credential-cache.ts';
import { findContactFields } from '../contacts/contacts.service.ts';
import { agentMessage, appendMessage } from '../conversations/conversations.append.ts';
import { changeConversation } from '../conversations/conversations.changes.ts';
import { assertCanRead, type ConversationDetail } from '../conversations/conversations.read.ts';
import type { DB } from '../db/database.ts';
import type { MacroVisibility } from '../db/types.ts';
import type { AppDeps } from '../deps.ts';
import { DataError, InputError, NotFoundError } from '../errors.ts';
import { hasContent, prepareContent, sanitizeBounded, sanitizeMessageHtml, tooDeepReason } from '../messages/messages.content.ts';
import { requirePermission } from '../auth/permissions.ts';
import { findTeam } from '../teams/teams.service.ts';
import { assertCanManageMacro, canSeeMacro, macroVisibilityFilter, type OwnedMacro } from './macros.access.ts';
import { changesOf, checkActions, requireActionPermissions, storedActions } from './macros.actions.ts';
import * as q from './macros.queries.ts';
import { placeholderValues, renderMacroContent } from './macros.render.ts';
import type { ApplyBody, CreateMacroBody, MacroListQuery, UpdateMacroBody } from './macros.schema.ts';
import { VISIBLE_WHEN } from './macros.schema.ts';

export function toRecord(row: q.MacroRow) {
  return {
    id: row.id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    name: row.name,
    actions: storedActions(row.actions),
    visibility: row.visibility,
    // The column is a free text[]: only the known categories leave, in their order (the response schema's enum).
    visible_when: VISIBLE_WHEN.filter((w) => row.visible_when.includes(w)),
    message_content: row.message_content,
    user_id: row.user_id === null ? null : String(row.user_id),
    team_id: row.team_id === null ? null : String(row.team_id),
    usage_count: row.usage_count,
  };
}

export type MacroRecord = ReturnType<typeof toRecord>;

/** 404 for an unknown macro and for one the caller may not see. */
async function visibleMacro(db: DB, principal: Principal, id: number): Promise<q.MacroRow> {
  const row = await q.findMacro(db, id);
  if (!row || !canSeeMacro(principal, row)) throw new NotFoundError('Macro not found');
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
function requireOwner(state: OwnedMacro): void {
  if (state.visibility === 'team' && state.team_id === null) throw InputError.field('team_id', 'is required for a team macro');
  if (state.visibility === 'user' && state.user_id === null) throw InputError.field('user_id', 'is required for a user macro');
}

interface MacroState extends OwnedMacro {
  name: string;
  visible_when: string[];
  message_content: string;
}

/** The whole state a macro will have, checked; the owner id that does not apply to its visibility is cleared. */
async function checkState(db: DB, state: MacroState) {
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
  if (teamId !== null && !(await findTeam(db, teamId))) throw InputError.field('team_id', `unknown team id ${teamId}`);
  if (userId !== null && !(await findLiveAgent(db, userId))) throw InputError.field('user_id', `unknown agent id ${userId}`);
  const messageContent = sanitizeMessageHtml(state.message_content, 'message_content');
  return {
    name,
    visibility: state.visibility,
    visible_when: visibleWhen,
    message_content: messageContent,
    user_id: userId,
    team_id: teamId,
  };
}

// CRUD

export async function listMacros(deps: AppDeps, principal: Principal, query: Static<typeof MacroListQuery>): Promise<MacroRecord[]> {
  let category: q.MacroListFilter['category'];
  if (query.conversation_uuid !== undefined) {
    await assertCanRead(deps.db, principal, query.conversation_uuid);
    category = await q.findConversationCategory(deps.db, query.conversation_uuid);
    if (!category) throw new NotFoundError('Conversation not found');
  }
  const rows = await q.listMacros(deps.db, { visible: macroVisibilityFilter(principal), category });
  return rows.map(toRecord);
}

export async function getMacro(deps: AppDeps, principal: Principal, id: number): Promise<MacroRecord> {
  return toRecord(await visibleMacro(deps.db, principal, id));
}

export async function createMacro(deps: AppDeps, principal: Principal, input: Static<typeof CreateMacroBody>): Promise<MacroRecord> {
  const visibility: MacroVisibility = input.visibility ?? 'global';
  const userId = ownerId(input.user_id, 'user_id') ?? null;
  const teamId = ownerId(input.team_id, 'team_id') ?? null;
  const owner = { visibility, user_id: visibility === 'user' ? userId : null, team_id: visibility === 'team' ? teamId : null };
  requireOwner(owner);
  // Permission before the lookups: an agent without macros:manage learns nothing about names and ids.
  assertCanManageMacro(principal, owner);
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

export async function updateMacro(
  deps: AppDeps,
  principal: Principal,
  id: number,
  input: Static<typeof UpdateMacroBody>,
): Promise<MacroRecord> {
  const userId = ownerId(input.user_id, 'user_id');
  const teamId = ownerId(input.team_id, 'team_id');
  const row = await deps.db.transaction().execute(async (trx) => {
    const existing = await q.lockMacro(trx, id);
    if (!existing || !canSeeMacro(principal, existing)) throw new NotFoundError('Macro not found');
    assertCanManageMacro(principal, existing);
    const visibility = input.visibility ?? existing.visibility;
    const next = {
      visibility,
      user_id: visibility === 'user' ? (userId === undefined ? existing.user_id : userId) : null,
      team_id: visibility === 'team' ? (teamId === undefined ? existing.team_id : teamId) : null,
    };
    requireOwner(next);
    // The macro as it will be must be the caller's to manage too (no giving it away, no making it global).
    assertCanManageMacro(principal, next);
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
    if (!existing || !canSeeMacro(principal, existing)) throw new NotFoundError('Macro not found');
    assertCanManageMacro(principal, existing);
    await q.deleteMacro(trx, id);
  });
}

// Apply

export interface ApplyResult {
  conversation: ConversationDetail;
  message_content: string;
}

/**
 * Runs the macro's actions on a conversation in one transaction (each permission-checked),
 * counts the use, and renders its message; with `send_message` a non-empty message goes out
 * as a reply in the same transaction. All or nothing.
 */
export async function applyMacro(
  deps: AppDeps,
  principal: Principal,
  uuid: string,
  id: number,
  body: Static<typeof ApplyBody> = null,
): Promise<ApplyResult> {
  const macro = await visibleMacro(deps.db, principal, id);
  await assertCanRead(deps.db, principal, uuid);
  const category = await q.findConversationCategory(deps.db, uuid);
  if (!category) throw new NotFoundError('Conversation not found');
  if (!macro.visible_when.includes(`conversation_${category}`)) {
    throw new DataError(
      `This macro is not offered for ${category} conversations (visible_when: ${macro.visible_when.join(', ') || 'none'})`,
    );
  }
  // A macro saved before HTML depth was bounded: rendering it would overflow the stack.
  if (sanitizeBounded(macro.message_content) === null)
    throw new DataError(`This macro's message_content: ${tooDeepReason()}; edit the macro`);
  const stored = storedActions(macro.actions);
  requireActionPermissions(principal, stored);
  const send = body?.send_message === true;
  if (send) requirePermission(principal, 'messages:write', 'sending the message');
  // What the actions refer to may have gone since the macro was saved: say which.
  const actions = await checkActions(deps.db, stored);

  let rendered = '';
  const conversation = await changeConversation(deps, principal, uuid, changesOf(actions), async (trx, locked, { now }) => {
    if (!(await q.countUse(trx, macro.id))) throw new NotFoundError('Macro not found');
    const contact = await findContactFields(trx, locked.contact_id);
    // Sanitised after the placeholders are filled in (a contact's name may be `javascript:…` in an
    // href): what is returned to the agent is exactly what would be sent.
    const prepared = prepareContent(
      renderMacroContent(macro.message_content, placeholderValues(contact, principal, locked)),
      'html',
      'message_content',
    );
    rendered = prepared.content;
    if (!send || !hasContent(prepared)) return;
    await appendMessage(deps, trx, locked, agentMessage(principal.userId, prepared), now);
  });
  return { conversation, message_content: rendered };
}
