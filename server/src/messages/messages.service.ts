// Reading and sending messages under a conversation (contract §6). Access is the
// conversation's (contract §3); a send may carry an Idempotency-Key.
import { createHash } from 'node:crypto';
import type { Principal } from '../auth/credential-cache.ts';
import { canReadConversation } from '../conversations/conversations.access.ts';
import { appendMessage, assertCanRead, lockConversationFor } from '../conversations/conversations.service.ts';
import type { AppDeps } from '../deps.ts';
import { ConflictError, DataError, InputError, NotFoundError, PermissionError } from '../errors.ts';
import { type PageRequest, pagedResult } from '../http/schemas.ts';
import type { AttachmentRow } from '../media/media.queries.ts';
import { attachMediaToMessage, toAttachments } from '../media/media.service.ts';
import { requirePermission } from '../roles/permissions.ts';
import { prepareContent } from './messages.content.ts';
import * as q from './messages.queries.ts';


function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

type StoredMessage = Omit<q.MessageRow, 'attachments'> & { attachments: readonly AttachmentRow[] };

/** The spec's Message: meta always has to/cc/bcc/from and subject. */
function toRecord(deps: AppDeps, row: StoredMessage) {
  const meta = row.meta ?? {};
  return {
    id: row.id,
    created_at: row.created_at,
    updated_at: row.updated_at,
    uuid: row.uuid,
    type: row.type,
    status: row.status,
    conversation_id: row.conversation_id,
    conversation_uuid: row.conversation_uuid,
    content: row.content,
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
    attachments: toAttachments(deps, row.attachments),
  };
}

export type MessageRecord = ReturnType<typeof toRecord>;

export async function listMessages(deps: AppDeps, principal: Principal, conversationUuid: string, page: PageRequest) {
  requirePermission(principal, 'messages:read');
  const conversation = await assertCanRead(deps, principal, conversationUuid);
  const { rows, total } = await q.listMessages(deps.db, conversation.id, page.pageSize, page.offset);
  return pagedResult(
    rows.map((row) => toRecord(deps, row)),
    total,
    page,
  );
}

/** One statement when the message is there and readable; a miss is told apart (404 conversation, 403, 404 message) after. */
export async function getMessage(deps: AppDeps, principal: Principal, conversationUuid: string, uuid: string): Promise<MessageRecord> {
  requirePermission(principal, 'messages:read');
  const row = await q.findMessage(deps.db, conversationUuid, uuid);
  if (!row) {
    await assertCanRead(deps, principal, conversationUuid);
    throw new NotFoundError('Message not found in this conversation');
  }
  if (!canReadConversation(principal, row)) throw new PermissionError('Permission denied: you may not access this conversation');
  return toRecord(deps, row);
}

async function messageById(deps: AppDeps, id: number): Promise<MessageRecord> {
  const row = await q.findMessageById(deps.db, id);
  if (!row) throw new NotFoundError('Message not found');
  return toRecord(deps, row);
}

export interface SendMessageInput {
  message: string;
  content_type?: 'html' | 'text' | undefined;
  private?: boolean | undefined;
  attachments?: string[] | undefined;
  to?: string[] | undefined;
  cc?: string[] | undefined;
  bcc?: string[] | undefined;
}

function requestHash(conversationUuid: string, input: SendMessageInput): string {
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

/** What a retry with the same key gets: the first message, or 422 when the key came with another request. */
async function replay(deps: AppDeps, principal: Principal, key: string, hash: string): Promise<MessageRecord | null> {
  const previous = await q.findIdempotencyKey(deps.db, principal.userId, key);
  if (!previous) return null;
  if (previous.request_hash !== hash) throw new DataError('This Idempotency-Key was already used with a different request');
  return messageById(deps, previous.message_id);
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '23505';
}

/** A reply (or a private note) from the caller. */
export async function sendMessage(deps: AppDeps, principal: Principal, conversationUuid: string, input: SendMessageInput, idempotencyKey?: string): Promise<MessageRecord> {
  requirePermission(principal, 'messages:write');
  const contentType = input.content_type ?? 'html';
  const isPrivate = input.private ?? false;
  const attachments = input.attachments ?? [];
  if (new Set(attachments).size !== attachments.length) throw InputError.field('attachments', 'lists an upload twice');
  const { content, textContent } = prepareContent(input.message, contentType);
  if (textContent === '' && attachments.length === 0 && !/<img\s/i.test(content)) throw InputError.field('message', 'must not be empty');
  const hash = requestHash(conversationUuid, input);
  if (idempotencyKey) {
    const earlier = await replay(deps, principal, idempotencyKey, hash);
    if (earlier) {
      await assertCanRead(deps, principal, conversationUuid);
      return earlier;
    }
  }
  const meta: Record<string, unknown> = {};
  if (!isPrivate) {
    if (input.to?.length) meta['to'] = input.to;
    if (input.cc?.length) meta['cc'] = input.cc;
    if (input.bcc?.length) meta['bcc'] = input.bcc;
  }
  let sent: { id: number; record: MessageRecord | null };
  try {
    sent = await deps.db.transaction().execute(async (trx) => {
      const conversation = await lockConversationFor(trx, principal, conversationUuid);
      const now = deps.clock.now();
      const message = await appendMessage(
        deps,
        trx,
        conversation,
        {
          type: 'outgoing',
          private: isPrivate,
          senderId: principal.userId,
          senderType: 'agent',
          content,
          textContent,
          contentType,
          meta,
          attachmentCount: attachments.length,
        },
        now,
      );
      if (attachments.length > 0) await attachMediaToMessage(deps, trx, { mediaUuids: attachments, uploaderId: principal.userId, messageId: message.id });
      if (idempotencyKey) await q.insertIdempotencyKey(trx, { user_id: principal.userId, key: idempotencyKey, request_hash: hash, message_id: message.id, created_at: now });
      // Without attachments the inserted row is the whole record: no read after commit.
      return { id: message.id, record: attachments.length > 0 ? null : toRecord(deps, { ...message, conversation_uuid: conversation.uuid, attachments: [] }) };
    });
  } catch (error) {
    // Two requests with one key raced: the loser's transaction rolled back; answer with the winner's message.
    if (idempotencyKey && isUniqueViolation(error)) {
      const earlier = await replay(deps, principal, idempotencyKey, hash);
      if (earlier) return earlier;
      throw new ConflictError('A request with this Idempotency-Key is in progress; retry');
    }
    throw error;
  }
  return sent.record ?? messageById(deps, sent.id);
}

export async function purgeIdempotencyKeys(deps: AppDeps): Promise<number> {
  return q.deleteIdempotencyKeysBefore(deps.db, new Date(deps.clock.now().getTime() - 24 * 3600 * 1000));
}
