// Message records, their reads, and the idempotency keys of sends. Who may read or write a
// conversation's messages is the conversation's rule: the access-checked commands are in
// conversations/conversations.messages.ts, which calls these.
import { createHash } from 'node:crypto';
import type { Static } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { DataError, NotFoundError } from '../errors.ts';
import { type PageRequest, pagedResult } from '../http/schemas.ts';
import type { AttachmentRow } from '../media/media.queries.ts';
import { toAttachments, withInlineImages } from '../media/media.service.ts';
import * as q from './messages.queries.ts';
import type { SendMessageBody } from './messages.schema.ts';

export type SendMessageInput = Static<typeof SendMessageBody>;

function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

type StoredMessage = Omit<q.MessageRow, 'attachments'> & { attachments: readonly AttachmentRow[] };

/** The spec's Message: meta always has to/cc/bcc/from and subject. */
export function toRecord(deps: AppDeps, row: StoredMessage) {
  const meta = row.meta ?? {};
  const attachments = toAttachments(deps, row.attachments);
  return {
    id: row.id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    uuid: row.uuid,
    type: row.type,
    status: row.status,
    conversation_id: row.conversation_id,
    conversation_uuid: row.conversation_uuid,
    // An email's inline images: its cid: links made to point at the attachments' signed URLs.
    content: row.content_type === 'html' ? withInlineImages(row.content, attachments) : row.content,
    text_content: row.text_content,
    content_type: row.content_type,
    private: row.private,
    sender_id: row.sender_id,
    sender_type: row.sender_type,
    meta: {
      ...meta,
      to: stringList(meta.to),
      cc: stringList(meta.cc),
      bcc: stringList(meta.bcc),
      from: stringList(meta.from),
      subject: typeof meta.subject === 'string' ? meta.subject : '',
    },
    attachments,
  };
}

export type MessageRecord = ReturnType<typeof toRecord>;

/** A conversation's messages, newest first (paged). */
export async function listMessagesOf(deps: AppDeps, conversationId: number, page: PageRequest) {
  const { rows, total } = await q.listMessages(deps.db, conversationId, page.pageSize, page.offset);
  return pagedResult(
    rows.map((row) => toRecord(deps, row)),
    total,
    page,
  );
}

/** The message with its conversation's access columns (one statement), or undefined. */
export async function findMessageInConversation(deps: AppDeps, conversationUuid: string, uuid: string) {
  return q.findMessage(deps.db, conversationUuid, uuid);
}

export async function messageById(deps: AppDeps, id: number): Promise<MessageRecord> {
  const row = await q.findMessageById(deps.db, id);
  if (!row) throw new NotFoundError('Message not found');
  return toRecord(deps, row);
}

/** Many messages as the REST API returns them, in one statement (realtime fan-out); unknown ids are left out. */
export async function messagesByIds(deps: AppDeps, ids: readonly number[]): Promise<MessageRecord[]> {
  const rows = await q.findMessagesByIds(deps.db, ids);
  return rows.map((row) => toRecord(deps, row));
}

// Idempotency keys: a retry with the same key returns the first message instead of sending twice.

export function requestHash(conversationUuid: string, input: SendMessageInput): string {
  const canonical = JSON.stringify([
    conversationUuid,
    input.message,
    input.content_type ?? 'html',
    input.private ?? false,
    input.attachments ?? [],
    input.to ?? [],
    input.cc ?? [],
    input.bcc ?? [],
  ]);
  return createHash('sha256').update(canonical).digest('base64url');
}

/** What a retry with the same key gets: the first message, or 422 when the key came with another request; null for a new key. */
export async function replayIdempotent(deps: AppDeps, userId: number, key: string, hash: string): Promise<MessageRecord | null> {
  const previous = await q.findIdempotencyKey(deps.db, userId, key);
  if (!previous) return null;
  if (previous.request_hash !== hash) throw new DataError('This Idempotency-Key was already used with a different request');
  return messageById(deps, previous.message_id);
}

export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

export async function purgeIdempotencyKeys(deps: AppDeps): Promise<number> {
  return q.deleteIdempotencyKeysBefore(deps.db, new Date(deps.clock.now().getTime() - 24 * 3600 * 1000));
}
