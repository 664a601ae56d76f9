// Starting a conversation from the API: the contact (found or created), the conversation,
// its first message through appendMessage, its assignees, and their events, in one transaction.
import type { Static } from 'typebox';
import { findLiveAgent } from '../agents/agents.service.ts';
import type { Principal } from '../auth/credential-cache.ts';
import { createContact, findLiveContact, findLiveContactByEmail } from '../contacts/contacts.service.ts';
import type { AppDeps } from '../deps.ts';
import { DataError, InputError, NotFoundError, PermissionError } from '../errors.ts';
import { findLiveInbox } from '../inboxes/inboxes.service.ts';
import { hasContent, prepareContent } from '../messages/messages.content.ts';
import { requirePermission } from '../auth/permissions.ts';
import { findTeam } from '../teams/teams.service.ts';
import { assertContactReadable } from './contacts.access.ts';
import { type Actor, actorOf, conversationEvent, SYSTEM } from './conversations.activity.ts';
import { agentMessage, appendMessage, contactMessage, type LockedConversation, openStatus } from './conversations.append.ts';
import { enterDefaultTeam, enterTeam } from './conversations.changes.ts';
import type { DB } from '../db/database.ts';
import * as q from './conversations.queries.ts';
import { type ConversationDetail, readConversation } from './conversations.read.ts';
import type { CreateConversationBody } from './conversations.schema.ts';

export type CreateConversationInput = Static<typeof CreateConversationBody>;

/**
 * The contact of a new conversation. An existing one, named by id or by email, passes the
 * contact access rule (contacts.access.ts): by id, unknown → 404 and not readable → 403; by
 * email, a contact the caller may not read is refused (403, never a duplicate, nothing of it
 * told). An email no contact has makes a new contact.
 */
async function resolveContact(
  deps: AppDeps,
  principal: Principal,
  input: CreateConversationInput,
): Promise<{ id: number; enabled: boolean }> {
  if ((input.contact_id === undefined) === (input.contact_email === undefined)) {
    throw InputError.field('contact_id', 'give exactly one of contact_id or contact_email');
  }
  if (input.contact_id !== undefined) {
    await assertContactReadable(deps.db, principal, input.contact_id);
    const contact = await findLiveContact(deps.db, input.contact_id);
    if (!contact) throw new NotFoundError('Contact not found');
    return contact;
  }
  const email = (input.contact_email ?? '').trim().toLowerCase();
  const existing = await findLiveContactByEmail(deps.db, email);
  if (existing) {
    await assertContactReadable(deps.db, principal, existing.id);
    return existing;
  }
  const firstName = input.first_name?.trim() || email.split('@')[0] || email;
  const created = await createContact(deps, {
    email,
    first_name: firstName,
    ...(input.last_name !== undefined ? { last_name: input.last_name } : {}),
  });
  return { id: created.id, enabled: created.enabled };
}

export async function createConversation(deps: AppDeps, principal: Principal, input: CreateConversationInput): Promise<ConversationDetail> {
  requirePermission(principal, 'conversations:write');
  const initiator = input.initiator ?? 'agent';
  if (initiator === 'agent') requirePermission(principal, 'messages:write');
  if (input.assignee_id !== undefined && input.assignee_id !== principal.userId)
    requirePermission(principal, 'conversations:update_user_assignee');
  if (input.team_id !== undefined) requirePermission(principal, 'conversations:update_team_assignee');
  const prepared = prepareContent(input.content, 'html', 'content');
  if (!hasContent(prepared)) throw InputError.field('content', 'must not be empty');

  const inbox = await findLiveInbox(deps.db, input.inbox_id);
  if (!inbox) throw InputError.field('inbox_id', `unknown inbox id ${input.inbox_id}`);
  if (!inbox.enabled) throw new DataError('That inbox is disabled');
  if (input.assignee_id !== undefined) {
    const agent = await findLiveAgent(deps.db, input.assignee_id);
    if (!agent) throw InputError.field('assignee_id', `unknown agent id ${input.assignee_id}`);
    if (!agent.enabled) throw new DataError('That agent is disabled and cannot be assigned conversations');
  }
  if (input.team_id !== undefined && !(await findTeam(deps.db, input.team_id)))
    throw InputError.field('team_id', `unknown team id ${input.team_id}`);
  const contact = await resolveContact(deps, principal, input);
  if (initiator === 'contact' && !contact.enabled) throw new PermissionError('This contact is blocked: their messages are refused');

  const actor = actorOf(principal);
  const teamId = input.team_id ?? null;
  const created = await deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    const conversation = await openConversation(
      trx,
      {
        inbox_id: inbox.id,
        contact_id: contact.id,
        subject: input.subject?.trim() ?? '',
        assigned_user_id: input.assignee_id ?? null,
        // Set by enterTeam below, after the first message.
        assigned_team_id: null,
      },
      actor,
      initiator,
      now,
    );
    const { content, textContent } = prepared;
    await appendMessage(
      deps,
      trx,
      conversation,
      initiator === 'agent'
        ? agentMessage(principal.userId, { content, textContent })
        : contactMessage(contact.id, { content, textContent }),
      now,
    );
    // Into its team (the one asked for, else the inbox's default) as an assignment to it moves a
    // conversation: the activity message and event, the team's SLA, its round robin.
    if (teamId !== null) await enterTeam(deps, trx, conversation, teamId, actor, now);
    else await enterDefaultTeam(deps, trx, conversation, now);
    if (input.assignee_id !== undefined) {
      const event = {
        assignee_type: 'user',
        assignee_id: input.assignee_id,
        previous_assignee_id: null,
        team_id: conversation.assigned_team_id,
        auto: false,
      } as const;
      await conversationEvent(trx, 'conversation.assigned', conversation, actor, event, now);
    }
    return conversation;
  });
  return readConversation(deps, created.uuid, principal.userId);
}

/**
 * For a channel (the widget, email): a new Open conversation of a contact, started by the
 * contact, inside the caller's transaction, its `conversation.created` written; answered locked,
 * ready for appendMessage (the first message is the caller's). Once that is appended, the
 * caller calls `enterDefaultTeam` (conversations.changes.ts): the inbox's default team.
 */
export async function startContactConversation(
  trx: DB,
  input: {
    inboxId: number;
    contactId: number;
    subject?: string;
    meta?: Record<string, unknown>;
    customAttributes?: Record<string, unknown>;
  },
  now: Date,
): Promise<LockedConversation> {
  return openConversation(
    trx,
    {
      inbox_id: input.inboxId,
      contact_id: input.contactId,
      subject: input.subject ?? '',
      assigned_user_id: null,
      assigned_team_id: null,
      meta: JSON.stringify(input.meta ?? {}),
      custom_attributes: JSON.stringify(input.customAttributes ?? {}),
    },
    SYSTEM,
    'contact',
    now,
  );
}

/** Inserts an Open conversation, records `conversation.created`, and answers it locked. */
async function openConversation(
  trx: DB,
  values: Omit<q.NewConversation, 'status_id' | 'created_at' | 'updated_at'>,
  actor: Actor,
  initiator: 'agent' | 'contact',
  now: Date,
): Promise<LockedConversation> {
  const open = await openStatus(trx);
  const row = await q.insertConversation(trx, { ...values, status_id: open.id, created_at: now, updated_at: now });
  const conversation = await q.lockConversation(trx, row.uuid);
  if (!conversation) throw new Error(`conversation ${row.uuid} vanished inside its own transaction`);
  const event = { inbox_id: values.inbox_id, contact_id: values.contact_id, initiator };
  await conversationEvent(trx, 'conversation.created', conversation, actor, event, now);
  return conversation;
}
