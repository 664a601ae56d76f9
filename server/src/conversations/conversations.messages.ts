// A conversation's messages: reading them and sending a reply or a private note. Access is
// the conversation's (docs/api.md, Permissions and access); a send may carry an Idempotency-Key.
import type { Principal } from '../auth/credential-cache.ts';
import type { AppDeps } from '../deps.ts';
import type { recordMentions } from '../followers/mentions.service.ts';
import { ConflictError, InputError, NotFoundError, PermissionError } from '../errors.ts';
import type { PageRequest } from '../http/schemas.ts';
import { attachMediaToMessage } from '../media/media.service.ts';
import { hasContent, prepareContent } from '../messages/messages.content.ts';
import {
  findMessageInConversation,
  isUniqueViolation,
  listMessagesOf,
  type MessageRecord,
  messageById,
  replayIdempotent,
  requestHash,
  type SendMessageInput,
  toRecord,
} from '../messages/messages.service.ts';
import { requirePermission } from '../auth/permissions.ts';
import { canReadConversation } from './conversations.access.ts';
import { agentMessage, appendAgentMessageAtOnce, appendMessage } from './conversations.append.ts';
import { assertCanRead, lockReadableConversation } from './conversations.read.ts';

export async function listMessages(deps: AppDeps, principal: Principal, conversationUuid: string, page: PageRequest) {
  requirePermission(principal, 'messages:read');
  const conversation = await assertCanRead(deps.db, principal, conversationUuid);
  return listMessagesOf(deps, conversation.id, page);
}

/** One statement when the message is there and readable; a miss is told apart (404 conversation, 403, 404 message) after. */
export async function getMessage(deps: AppDeps, principal: Principal, conversationUuid: string, uuid: string): Promise<MessageRecord> {
  requirePermission(principal, 'messages:read');
  const row = await findMessageInConversation(deps, conversationUuid, uuid);
  if (!row) {
    await assertCanRead(deps.db, principal, conversationUuid);
    throw new NotFoundError('Message not found in this conversation');
  }
  if (!canReadConversation(principal, row)) throw new PermissionError('Permission denied: you may not access this conversation');
  return toRecord(deps, row);
}

/**
 * What is done on the line after an agent's message is appended, in its transaction, by domains
 * that read conversations and so cannot be imported here: app.ts hands them over.
 */
export interface AfterAgentMessage {
  recordMentions: typeof recordMentions;
}

/** A reply (or a private note) from the caller. */
export async function sendMessage(
  deps: AppDeps,
  after: AfterAgentMessage,
  principal: Principal,
  conversationUuid: string,
  input: SendMessageInput,
  idempotencyKey?: string,
): Promise<MessageRecord> {
  requirePermission(principal, 'messages:write');
  const contentType = input.content_type ?? 'html';
  const isPrivate = input.private ?? false;
  const attachments = input.attachments ?? [];
  if (new Set(attachments).size !== attachments.length) throw InputError.field('attachments', 'lists an upload twice');
  const prepared = prepareContent(input.message, contentType, 'message', { mentions: isPrivate });
  if (!hasContent(prepared, attachments.length)) throw InputError.field('message', 'must not be empty');
  const hash = requestHash(conversationUuid, input);
  if (idempotencyKey) {
    const earlier = await replayIdempotent(deps, principal.userId, idempotencyKey, hash);
    if (earlier) {
      await assertCanRead(deps.db, principal, conversationUuid);
      return earlier;
    }
  }
  const meta: Record<string, unknown> = {};
  if (!isPrivate) {
    if (input.to?.length) meta['to'] = input.to;
    if (input.cc?.length) meta['cc'] = input.cc;
    if (input.bcc?.length) meta['bcc'] = input.bcc;
  }
  const message = agentMessage(principal.userId, prepared, { private: isPrivate, contentType, meta, attachmentCount: attachments.length });
  const idempotency = idempotencyKey ? { userId: principal.userId, key: idempotencyKey, requestHash: hash } : undefined;
  let sent: { id: number; record: MessageRecord | null };
  try {
    // Most replies need no rule outside SQL: one statement. Otherwise (uploads, an applied SLA,
    // or to tell an unknown conversation from a forbidden one) the locked transaction.
    // A note that mentions someone (followers/mentions.ts) records its mentions in the locked transaction.
    const mentions = isPrivate && prepared.content.includes('data-mention-');
    const atOnce = mentions
      ? undefined
      : await appendAgentMessageAtOnce(deps, principal, conversationUuid, message, deps.clock.now(), idempotency);
    sent = atOnce
      ? { id: atOnce.id, record: toRecord(deps, { ...atOnce, attachments: [] }) }
      : await deps.db.transaction().execute(async (trx) => {
          const conversation = await lockReadableConversation(trx, principal, conversationUuid);
          const now = deps.clock.now();
          const row = await appendMessage(deps, trx, conversation, message, now, idempotency);
          if (mentions) await after.recordMentions(trx, conversation, row, now);
          if (attachments.length > 0)
            await attachMediaToMessage(deps, trx, { mediaUuids: attachments, uploaderId: principal.userId, messageId: row.id });
          // Without attachments the inserted row is the whole record: no read after commit.
          return {
            id: row.id,
            record: attachments.length > 0 ? null : toRecord(deps, { ...row, conversation_uuid: conversation.uuid, attachments: [] }),
          };
        });
  } catch (error) {
    // Two requests with one key raced: the loser's statement or transaction rolled back; answer with the winner's message.
    if (idempotencyKey && isUniqueViolation(error)) {
      const earlier = await replayIdempotent(deps, principal.userId, idempotencyKey, hash);
      if (earlier) return earlier;
      throw new ConflictError('A request with this Idempotency-Key is in progress; retry');
    }
    throw error;
  }
  return sent.record ?? messageById(deps, sent.id);
}
