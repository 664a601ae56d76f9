// The one entry point for a message into a conversation, whatever the channel (agent replies
// and notes, conversation creation, macros, the widget, email): the message row, the
// conversation's denormalised fields, `message.created`, the delivery job and, for a message
// from the contact, reopening. appendMessage runs in the caller's transaction with the
// conversation locked; appendAgentMessageAtOnce is the same for most agent replies and notes
// in one statement of its own, which finds, checks and locks the conversation itself.
import { lockLiveAgent } from '../agents/agents.service.ts';
import { findLiveContact } from '../contacts/contacts.service.ts';
import type { Principal } from '../auth/credential-cache.ts';
import type { DB } from '../db/database.ts';
import type { MessageStatus } from '../db/types.ts';
import type { AppDeps } from '../deps.ts';
import { PermissionError } from '../errors.ts';
import { CHANNEL_TABLE } from '../inboxes/channels.ts';
import { announceJob, DEFAULT_MAX_ATTEMPTS } from '../jobs/jobs.service.ts';
import { type PreparedContent, type PreparedText, previewOf } from '../messages/messages.content.ts';
import { type MessageKind, messageMovesSla, slaAfterMessage, slaAfterStatusChange } from '../sla/sla.deadlines.ts';
import { findStatusByName } from '../statuses/statuses.service.ts';
import { accessScope } from './conversations.access.ts';
import { conversationEvent, logActivity, SYSTEM } from './conversations.activity.ts';
import * as aq from './append.queries.ts';
import { assignIfUnassigned } from './assignment.queries.ts';
import type { ColumnsAfterMessage } from './append.queries.ts';
import * as q from './conversations.queries.ts';

export type LockedConversation = q.LockedConversation;

/** Locks a conversation for a channel (widget, email): no agent access rule applies. Undefined when unknown. */
export async function lockConversationForChannel(trx: DB, uuid: string): Promise<LockedConversation | undefined> {
  return q.lockConversation(trx, uuid);
}

/** The built-in Open status (seeded; it cannot be renamed or deleted). */
export async function openStatus(db: DB) {
  const open = await findStatusByName(db, 'Open');
  if (!open) throw new Error('the built-in status Open is missing');
  return open;
}

export interface AppendMessageInput {
  type: 'incoming' | 'outgoing';
  private: boolean;
  senderId: number | null;
  senderType: 'agent' | 'contact';
  /** Prepared by messages.content.ts (sanitised and bounded HTML, or plain text): nothing else type-checks. */
  content: PreparedText;
  textContent: string;
  contentType: 'html' | 'text';
  meta?: Record<string, unknown>;
  attachmentCount: number;
  sourceId?: string | null;
  /**
   * A message a machine wrote: on the contact's side (an email auto-reply) it neither reopens the
   * conversation nor starts its wait; on ours (the widget's away message, a CSAT survey) it is
   * no agent reply: the reply times and the contact's wait stay as they were (the last message
   * shown is it).
   */
  automatic?: boolean;
}

type Prepared = PreparedContent;
type Extra = Partial<Pick<AppendMessageInput, 'private' | 'contentType' | 'meta' | 'attachmentCount' | 'sourceId' | 'automatic'>>;

/** An agent's reply (or, with `private: true`, a note): the defaults every agent path shares. */
export function agentMessage(agentId: number, prepared: Prepared, extra: Extra = {}): AppendMessageInput {
  return {
    type: 'outgoing',
    private: false,
    senderId: agentId,
    senderType: 'agent',
    contentType: 'html',
    attachmentCount: 0,
    content: prepared.content,
    textContent: prepared.textContent,
    ...extra,
  };
}

/** A message Parley itself writes to the contact (no agent wrote it, and it is no reply). */
export function automaticMessage(prepared: Prepared, extra: Extra = {}): AppendMessageInput {
  return { ...agentMessage(0, prepared, { contentType: 'text', ...extra }), senderId: null, automatic: true };
}

/** A message from the contact, whatever the channel. */
export function contactMessage(contactId: number, prepared: Prepared, extra: Extra = {}): AppendMessageInput {
  return {
    type: 'incoming',
    private: false,
    senderId: contactId,
    senderType: 'contact',
    contentType: 'html',
    attachmentCount: 0,
    content: prepared.content,
    textContent: prepared.textContent,
    ...extra,
  };
}

/**
 * The conversation's denormalised columns after a message (the first reply, the contact's wait
 * and the first message's preview are kept once set).
 */
function columnsAfter(input: AppendMessageInput, now: Date): ColumnsAfterMessage {
  const preview = previewOf(input.textContent, input.attachmentCount);
  // The first message a conversation shows (its title when it has no subject): the contact's, or an agent's reply.
  const first = preview === '' ? {} : { first_message: preview };
  if (input.type === 'outgoing' && !input.private && input.automatic) {
    return { set: { last_message: preview, last_message_at: now, last_message_sender: 'agent', updated_at: now }, setIfNull: {} };
  }
  if (input.type === 'outgoing' && !input.private) {
    return {
      set: {
        last_message: preview,
        last_message_at: now,
        last_message_sender: 'agent',
        last_reply_at: now,
        waiting_since: null,
        updated_at: now,
      },
      setIfNull: { first_reply_at: now, ...first },
    };
  }
  if (input.type === 'incoming') {
    return {
      set: { last_message: preview, last_message_at: now, last_message_sender: 'contact', last_incoming_at: now, updated_at: now },
      setIfNull: input.automatic ? first : { waiting_since: now, ...first },
    };
  }
  return { set: { updated_at: now }, setIfNull: {} };
}

/** The statuses a new message starts in: agent replies `pending` until their channel delivers them. */
function statusOf(input: AppendMessageInput): MessageStatus {
  return input.type === 'incoming' ? 'received' : input.private ? 'sent' : 'pending';
}

const isPublicReply = (input: AppendMessageInput) => input.type === 'outgoing' && !input.private;

/** What the message is to the SLA: an automatic one (the away message, a survey) is nobody's reply nor the contact's word. */
function kindOf(input: AppendMessageInput): MessageKind {
  if (input.automatic) return 'other';
  return isPublicReply(input) ? 'agent_reply' : input.type === 'incoming' ? 'contact' : 'other';
}

function messageValues(input: AppendMessageInput, now: Date) {
  return {
    type: input.type,
    status: statusOf(input),
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
  };
}

function eventOf(input: AppendMessageInput): aq.MessageCreatedFields {
  return { type: input.type, private: input.private, sender_id: input.senderId, sender_type: input.senderType };
}

export interface Idempotency {
  userId: number;
  key: string;
  requestHash: string;
}

/**
 * Inside the caller's transaction, with the conversation locked: inserts the message and
 * keeps the conversation's denormalised fields right. A public reply clears `waiting_since`
 * and sets the reply times; a message from the contact starts `waiting_since` and reopens a
 * waiting or resolved conversation. Agent replies start `pending` and a delivery job is
 * queued in the same transaction; private notes are `sent` at once.
 */
export async function appendMessage(
  deps: AppDeps,
  trx: DB,
  conversation: LockedConversation,
  input: AppendMessageInput,
  now: Date,
  idempotency?: Idempotency,
) {
  // A blocked contact's messages are refused on every channel (they all come through here).
  if (input.type === 'incoming') {
    const contact = await findLiveContact(trx, conversation.contact_id);
    if (!contact?.enabled) throw new PermissionError('This contact is blocked: their messages are refused');
  }
  const publicReply = isPublicReply(input);
  const firstReply = publicReply && !input.automatic && conversation.first_reply_at === null;
  const columns = columnsAfter(input, now);
  const deliveryKind = CHANNEL_TABLE[conversation.inbox_channel].deliveryJob;
  const message = await aq.insertMessageWithEffects(trx, conversation, messageValues(input, now), {
    conversation: columns,
    event: { fields: eventOf(input), at: now },
    job: publicReply ? { kind: deliveryKind, maxAttempts: DEFAULT_MAX_ATTEMPTS } : null,
    idempotency,
  });
  if (publicReply) announceJob(deps, deliveryKind, null, trx.isTransaction);
  if (columns.set.waiting_since !== undefined) conversation.waiting_since = columns.set.waiting_since;
  conversation.waiting_since ??= columns.setIfNull.waiting_since ?? null;
  conversation.first_reply_at ??= columns.setIfNull.first_reply_at ?? null;
  await slaAfterMessage(trx, conversation, kindOf(input), now);
  if (input.type === 'incoming' && !input.automatic && conversation.status_category !== 'open') await reopen(trx, conversation, now);
  if (firstReply && input.senderId !== null) await assignFirstResponder(trx, conversation, input.senderId, now);
  return message;
}

/**
 * The inbox's `assign_on_first_reply`: an unassigned conversation goes to the agent who sent its
 * first public reply, with the activity message and `conversation.assigned` of any assignment.
 * The conversation is locked, so of two agents replying at once the second finds the first's
 * reply (and assignment) and nothing changes.
 */
async function assignFirstResponder(trx: DB, c: LockedConversation, agentId: number, now: Date): Promise<void> {
  if (!c.inbox_assign_on_first_reply || c.assigned_user_id !== null) return;
  // Share-locked as any assignment locks its agent: a deletion waits, or this sees it deleted.
  const agent = await lockLiveAgent(trx, agentId);
  if (!agent?.enabled || !(await assignIfUnassigned(trx, c.id, agentId, now))) return;
  c.assigned_user_id = agentId;
  const name = `${agent.first_name} ${agent.last_name}`.trim() || `Agent ${agentId}`;
  const actor = { userId: agentId, name };
  await logActivity(
    trx,
    c,
    actor,
    `${name} sent the first reply and was assigned the conversation`,
    {
      type: 'assignee',
      assignee_id: agentId,
      first_reply: true,
    },
    now,
  );
  const event = {
    assignee_type: 'user',
    assignee_id: agentId,
    previous_assignee_id: null,
    team_id: c.assigned_team_id,
    auto: true,
  } as const;
  await conversationEvent(trx, 'conversation.assigned', c, actor, event, now);
}

/**
 * An agent's reply or note without uploads in one statement and no transaction: the
 * conversation is found, checked against the caller's access rule, locked and written by the
 * statement itself (a single round trip instead of four). It writes only what appendMessage
 * would write for it, so it applies where appendMessage has nothing more to do: a message with
 * no uploads, that moves no SLA deadline (a note), or on a conversation with no SLA applied, and
 * no first reply that assigns its sender (assignFirstResponder).
 * Answers undefined when nothing was written (unknown, not readable, an SLA applies): the caller
 * then takes the locked path, which tells those apart.
 */
export async function appendAgentMessageAtOnce(
  deps: AppDeps,
  principal: Principal,
  uuid: string,
  input: AppendMessageInput,
  now: Date,
  idempotency?: Idempotency,
) {
  const scope = accessScope(principal);
  if (!scope || input.type !== 'outgoing' || input.attachmentCount > 0) return undefined;
  const publicReply = isPublicReply(input);
  const written = await aq.insertMessageIfConversation(
    deps.db,
    uuid,
    scope,
    messageValues(input, now),
    {
      conversation: columnsAfter(input, now),
      event: { fields: eventOf(input), at: now },
      job: publicReply ? { maxAttempts: DEFAULT_MAX_ATTEMPTS } : null,
      idempotency,
    },
    {
      withoutSla: messageMovesSla(kindOf(input)),
      withoutFirstReplyAssignment: publicReply && !input.automatic,
    },
  );
  if (written && publicReply) announceJob(deps, CHANNEL_TABLE[written.inbox_channel].deliveryJob, null, false);
  return written;
}

async function reopen(trx: DB, c: LockedConversation, now: Date): Promise<void> {
  const open = await openStatus(trx);
  const previous = c.status;
  const previousCategory = c.status_category;
  await q.updateConversation(trx, c.id, { status_id: open.id, snoozed_until: null, resolved_at: null, updated_at: now });
  c.status_id = open.id;
  c.status = open.name;
  c.status_category = 'open';
  c.snoozed_until = null;
  await slaAfterStatusChange(trx, c, previousCategory, now);
  await logActivity(
    trx,
    c,
    SYSTEM,
    'The contact wrote again; the conversation is open again',
    { type: 'status', status: open.name, reopened: true },
    now,
  );
  const event = { previous_status: previous, status: open.name, status_category: 'open', snoozed_until: null } as const;
  await conversationEvent(trx, 'conversation.status_changed', c, SYSTEM, event, now);
}
