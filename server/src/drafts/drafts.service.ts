// Drafts (docs/api.md, "Working together"): what an agent is writing in a conversation, kept
// per agent and conversation so that it follows them to another tab or device. Colleagues see
// that a draft exists (who, when), never its content. A conversation the caller may not read is
// a 404 here, as if unknown: a draft says nothing about conversations one cannot open.
// Sending a message deletes the sender's draft (a trigger, migration 2026_12_01_0600).
import type { Static } from 'typebox';
import type { Principal } from '../auth/credential-cache.ts';
import { requirePermission } from '../auth/permissions.ts';
import { canReadConversation } from '../conversations/conversations.access.ts';
import { readableConversationFacts } from '../conversations/conversations.read.ts';
import type { AppDeps } from '../deps.ts';
import { InputError, NotFoundError } from '../errors.ts';
import { checkOwnUploads, ownUnattachedUploads } from '../media/media.service.ts';
import { hasContent, prepareContent } from '../messages/messages.content.ts';
import type { DraftBody } from './drafts.schema.ts';
import * as q from './drafts.queries.ts';

/** Drafts not updated for this long are deleted by the retention task. */
export const DRAFT_RETENTION_MS = 15 * 24 * 3600 * 1000;

export interface DraftRecord {
  content: string;
  private: boolean;
  attachments: string[];
  updated_at: Date;
}

const notFound = () => new NotFoundError('Conversation not found');

/** The caller's draft, or null. Attachments purged since (orphan uploads go after a day) are left out. */
export async function getDraft(deps: AppDeps, principal: Principal, uuid: string): Promise<DraftRecord | null> {
  const row = await q.findConversationWithDraft(deps.db, uuid, principal.userId);
  if (!row || !canReadConversation(principal, row)) throw notFound();
  if (row.content === null || row.updated_at === null) return null;
  const stored = row.attachments ?? [];
  const live = await ownUnattachedUploads(deps.db, stored, principal.userId);
  return {
    content: row.content,
    private: row.private ?? false,
    attachments: stored.filter((u) => live.has(u)),
    updated_at: row.updated_at,
  };
}

/**
 * Replaces the caller's draft. Content is sanitised like a message's; attachments follow the
 * rule of sending (the caller's own uploads, not attached yet). A draft with nothing in it (no
 * text, image or attachment) is deleted instead, and the answer is null.
 */
export async function putDraft(
  deps: AppDeps,
  principal: Principal,
  uuid: string,
  input: Static<typeof DraftBody>,
): Promise<DraftRecord | null> {
  requirePermission(principal, 'messages:write');
  if (input.content.includes('\u0000')) throw InputError.field('content', 'must not contain U+0000');
  // A note's draft keeps its mentions, as the note will.
  const prepared = prepareContent(input.content, 'html', 'content', { mentions: input.private === true });
  const conversation = await readableConversationFacts(deps.db, principal, uuid);
  const attachments = await checkOwnUploads(deps.db, input.attachments ?? [], principal.userId);
  if (!hasContent(prepared, attachments.length)) {
    await q.deleteDraft(deps.db, conversation.id, principal.userId);
    return null;
  }
  return q.upsertDraft(deps.db, conversation.id, principal.userId, {
    content: prepared.content,
    private: input.private ?? false,
    attachments,
    updated_at: deps.clock.now(),
  });
}

/** Deletes the caller's draft (none: nothing to do). */
export async function deleteDraft(deps: AppDeps, principal: Principal, uuid: string): Promise<void> {
  const conversation = await readableConversationFacts(deps.db, principal, uuid);
  await q.deleteDraft(deps.db, conversation.id, principal.userId);
}

/** The other agents' drafts of the conversation: who and when, no content. */
export async function listColleagueDrafts(deps: AppDeps, principal: Principal, uuid: string) {
  const conversation = await readableConversationFacts(deps.db, principal, uuid);
  const rows = await q.listOtherDrafts(deps.db, conversation.id, principal.userId);
  return rows.map((row) => ({
    agent_id: row.agent_id,
    name: `${row.first_name} ${row.last_name}`.trim() || `Agent ${row.agent_id}`,
    private: row.private,
    updated_at: row.updated_at,
  }));
}

const PURGE_BATCH = 1000;

/** The retention task: drafts not updated for 15 days, in batches of PURGE_BATCH until none is left. */
export async function purgeStaleDrafts(deps: AppDeps): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - DRAFT_RETENTION_MS);
  let total = 0;
  for (;;) {
    const deleted = await q.deleteDraftsBefore(deps.db, before, PURGE_BATCH);
    total += deleted;
    if (deleted < PURGE_BATCH) return total;
  }
}
