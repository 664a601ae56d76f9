// The widget's rules (docs/api.md, "Live chat (widget API)"): public settings, starting a
// conversation (creating the visitor only when its conversation is created), listing and
// reading the caller's conversations, sending a message, and the last-seen mark.
import { contactMessage, appendMessage, lockConversationForChannel } from '../conversations/conversations.append.ts';
import { enterDefaultTeam } from '../conversations/conversations.changes.ts';
import { startContactConversation } from '../conversations/conversations.create.ts';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { InputError, NotFoundError, PermissionError, RateLimitError } from '../errors.ts';
import { recordEvent } from '../events/events.service.ts';
import { isEmailAddress } from '../http/formats.ts';
import { hasContent, prepareContent } from '../messages/messages.content.ts';
import { lifetimeOf, type WidgetCaller, widgetUserOf } from './widget.identity.ts';
import type { LivechatSettings, WidgetInbox } from './widget.inbox.ts';
import { hoursFields, hoursForAway, inboxHours, sendAwayMessage, settingsHours } from './widget.hours.ts';
import * as q from './widget.queries.ts';
import { issueWidgetSession } from './widget.sessions.ts';
import { type ChatMessage, chatConversationFor, chatMessageFor, loadChatConversations, loadChatMessages } from './widget.shapes.ts';

/** New conversations one contact may start in 24 hours. */
export const MAX_CONVERSATIONS_PER_DAY = 50;
const DAY_MS = 24 * 3_600_000;
const MAX_META_TEXT = 512;

// ---------------------------------------------------------------- settings

export function launcherSettings(inbox: WidgetInbox) {
  const launcher = inbox.config.launcher;
  const primary = inbox.config.colors?.primary ?? '#2563eb';
  return {
    launcher: {
      spacing: { side: launcher?.spacing?.side ?? 20, bottom: launcher?.spacing?.bottom ?? 20 },
      logo_url: launcher?.logo_url ?? '',
      position: launcher?.position ?? 'right',
      color: launcher?.color || primary,
    },
    colors: { primary },
  };
}

/** The public part of the config: never the secret, the trusted domains, the blocked addresses or the session lifetime. */
export async function widgetSettings(deps: AppDeps, inbox: WidgetInbox) {
  const { secret: _secret, trusted_domains: _domains, blocked_ips: _ips, session_duration: _duration, ...open } = inbox.config;
  const prechat = open.prechat_form;
  const fields = prechat?.fields ?? [];
  return {
    ...open,
    ...(prechat
      ? { prechat_form: { ...prechat, fields: prechat.enabled ? fields.filter((field) => field.enabled !== false) : fields } }
      : {}),
    ...(await settingsHours(deps, inbox)),
  };
}

// ---------------------------------------------------------------- access

/** The conversation of the caller in this inbox: 404 unknown, 403 another contact's or another inbox's. */
export async function ownConversation(deps: AppDeps, inbox: WidgetInbox, caller: WidgetCaller, uuid: string) {
  const conversation = await q.findConversationOwner(deps.db, uuid.toLowerCase());
  if (!conversation) throw new NotFoundError('Conversation not found');
  if (conversation.contact_id !== caller.userId || conversation.inbox_id !== inbox.id) throw new PermissionError('Permission denied');
  return conversation;
}

/**
 * The caller's conversation locked for the rest of the transaction, its ownership checked again
 * under the lock (a visitor merged into a contact meanwhile no longer owns it: the same 403 as
 * another contact's conversation), then the reply rule. Every widget append goes through it.
 */
export async function lockOwnConversation(trx: DB, inbox: WidgetInbox, caller: WidgetCaller, uuid: string) {
  const conversation = await lockConversationForChannel(trx, uuid);
  if (!conversation) throw new NotFoundError('Conversation not found');
  if (conversation.contact_id !== caller.userId || conversation.inbox_id !== inbox.id) throw new PermissionError('Permission denied');
  assertMayReply(inbox, caller, conversation.status);
  return conversation;
}

function permissionsOf(inbox: WidgetInbox, isVisitor: boolean) {
  const rules = (isVisitor ? inbox.config.visitors : inbox.config.users) ?? {};
  return {
    allowStart: rules.allow_start_conversation ?? true,
    preventMultiple: rules.prevent_multiple_conversations ?? false,
    preventReplyToClosed: rules.prevent_reply_to_closed_conversation ?? false,
  };
}

/** Replying to a Closed conversation is refused when the inbox says so (Resolved and others reopen). */
export function assertMayReply(inbox: WidgetInbox, caller: WidgetCaller, status: string): void {
  if (status === 'Closed' && permissionsOf(inbox, caller.isVisitor).preventReplyToClosed)
    throw new PermissionError('This conversation has been closed');
}

// ---------------------------------------------------------------- pre-chat form

type FormData = Record<string, string | number | boolean>;
type PrechatField = NonNullable<NonNullable<LivechatSettings['prechat_form']>['fields']>[number];

interface Prechat {
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phone: string | null;
  /** Values of the enabled custom fields, stored on the conversation. */
  attributes: Record<string, string | number | boolean>;
}

function formValue(form: FormData, field: PrechatField): string | number | boolean | undefined {
  const value = form[field.key];
  return typeof value === 'string' ? value.trim() || undefined : value;
}

/** The enabled fields of an enabled form, checked (400 naming the field); nothing when the form is off. */
export function readPrechat(settings: LivechatSettings, form: FormData, newVisitor: boolean): Prechat {
  const result: Prechat = { firstName: null, lastName: null, email: null, phone: null, attributes: {} };
  const prechat = settings.prechat_form;
  if (!prechat?.enabled) return result;
  for (const field of prechat.fields ?? []) {
    if (field.enabled === false) continue;
    const isDefault = field.is_default === true && ['name', 'email', 'phone'].includes(field.key);
    // Name, email and phone describe a new visitor; a known user keeps theirs.
    if (isDefault && !newVisitor) continue;
    if (isDefault && field.key === 'name') {
      Object.assign(result, readName(form, field));
      continue;
    }
    const value = formValue(form, field);
    const label = `form_data.${field.key}`;
    if (value === undefined) {
      if (field.required) throw InputError.field(label, 'is required');
      continue;
    }
    if (field.type === 'email') {
      if (typeof value !== 'string' || !isEmailAddress(value.toLowerCase())) throw InputError.field(label, 'must be a valid email address');
    } else if (field.type === 'number') {
      if (typeof value !== 'number') throw InputError.field(label, 'must be a number');
    } else if (field.type === 'checkbox') {
      if (typeof value !== 'boolean') throw InputError.field(label, 'must be true or false');
    } else if (typeof value !== 'string') throw InputError.field(label, 'must be text');
    if (isDefault) {
      const max = field.key === 'email' ? 254 : 20;
      const text = String(value);
      if ([...text].length > max) throw InputError.field(label, `must be at most ${max} characters`);
      if (field.key === 'email') result.email = text.toLowerCase();
      else result.phone = text;
    } else result.attributes[field.key] = value;
  }
  return result;
}

const NAME_MAX = 128;

/**
 * The form's name field, asked as two (`first_name`, `last_name`, as the widget sends them) and
 * stored as the contact's first and last name; a client sending the whole name as `name` gets it
 * as the first name. Required means a first name (or a whole name).
 */
function readName(form: FormData, field: PrechatField): Pick<Prechat, 'firstName' | 'lastName'> {
  const part = (key: 'first_name' | 'last_name' | 'name'): string | null => {
    const value = formValue(form, { ...field, key });
    if (value === undefined) return null;
    const label = `form_data.${key}`;
    if (typeof value !== 'string') throw InputError.field(label, 'must be text');
    if ([...value].length > NAME_MAX) throw InputError.field(label, `must be at most ${NAME_MAX} characters`);
    return value;
  };
  const firstName = part('first_name');
  const lastName = part('last_name');
  if (firstName !== null || lastName !== null) {
    if (firstName === null && field.required) throw InputError.field('form_data.first_name', 'is required');
    return { firstName, lastName };
  }
  const whole = part('name');
  if (whole === null && field.required) throw InputError.field('form_data.first_name', 'is required');
  return { firstName: whole, lastName: null };
}

// ---------------------------------------------------------------- init

export interface InitInput {
  message: string;
  formData: FormData;
  ip: string;
  userAgent: string | undefined;
}

function bounded(value: string, max = MAX_META_TEXT): string {
  return [...value].slice(0, max).join('');
}

/** The 429 when the contact has started MAX_CONVERSATIONS_PER_DAY conversations in the last 24 hours. */
async function assertUnderDailyCap(trx: DB, contactId: number, now: Date): Promise<void> {
  const started = await q.conversationsStartedSince(trx, contactId, new Date(now.getTime() - DAY_MS));
  if (started.length < MAX_CONVERSATIONS_PER_DAY) return;
  const oldest = started[started.length - MAX_CONVERSATIONS_PER_DAY] as Date;
  const wait = Math.max(1, Math.ceil((oldest.getTime() + DAY_MS - now.getTime()) / 1000));
  throw new RateLimitError(`At most ${MAX_CONVERSATIONS_PER_DAY} new conversations a day; retry in ${wait} s`, wait);
}

/**
 * Starts a conversation with its first message. Without a caller, a visitor is created in the
 * same transaction, only when the conversation is (never for a refused request), and its
 * session token is answered with it.
 */
export async function initConversation(deps: AppDeps, inbox: WidgetInbox, caller: WidgetCaller | null, input: InitInput) {
  const prepared = prepareContent(input.message, 'text', 'message');
  if (!hasContent(prepared)) throw InputError.field('message', 'must not be empty');
  const rules = permissionsOf(inbox, caller?.isVisitor ?? true);
  if (!rules.allowStart) throw new PermissionError('Starting a conversation is not allowed here');
  const prechat = readPrechat(inbox.config, input.formData, caller === null);
  const meta = { ip: bounded(input.ip, 64), user_agent: bounded(input.userAgent ?? '') };

  // A new conversation has no team yet: the inbox's hours, else the installation's.
  const awayHours = await hoursForAway(deps, inbox, null);
  const created = await deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    let user = caller;
    let token: string | null = null;
    if (user === null) {
      const email = prechat.email && !(await q.emailHeldWithoutExternalId(trx, prechat.email)) ? prechat.email : null;
      const firstName = prechat.firstName ?? prechat.email?.split('@')[0] ?? 'Visitor';
      const record = await q.insertWidgetUser(trx, {
        type: 'visitor',
        email,
        external_user_id: null,
        first_name: bounded(firstName, 128),
        last_name: prechat.lastName ?? '',
        phone_number: prechat.phone,
        phone_number_country_code: null,
        custom_attributes: {},
        now,
      });
      const event = {
        ...record,
        type: 'visitor' as const,
        roles: [],
        permissions: [],
        teams: [],
        api_key: null,
        api_key_last_used_at: null,
      };
      await recordEvent(trx, 'contact.created', event, now);
      user = { userId: record.id, isVisitor: true, firstName: record.first_name, lastName: record.last_name, externalUserId: null };
      token = await issueWidgetSession(
        trx,
        { userId: record.id, inboxId: inbox.id, isVisitor: true, lifetimeMs: lifetimeOf(inbox)(true) },
        now,
      );
    } else {
      // Serialises this contact's starts, so the cap and the single-conversation rule hold under concurrency.
      const [locked] = await q.lockWidgetUsers(trx, [user.userId]);
      if (!locked?.enabled) throw new PermissionError('This contact is blocked: their messages are refused');
      await assertUnderDailyCap(trx, user.userId, now);
      if (rules.preventMultiple && (await q.hasConversationInInbox(trx, user.userId, inbox.id)))
        throw new PermissionError('Only one conversation is allowed in this inbox');
    }
    const conversation = await startContactConversation(
      trx,
      { inboxId: inbox.id, contactId: user.userId, meta, customAttributes: prechat.attributes },
      now,
    );
    await appendMessage(deps, trx, conversation, contactMessage(user.userId, prepared, { contentType: 'text' }), now);
    await enterDefaultTeam(deps, trx, conversation, now);
    await sendAwayMessage(deps, trx, inbox, conversation, now, awayHours);
    return { conversationId: conversation.id, user, token };
  });
  const conversation = await chatConversationFor(deps, created.conversationId);
  if (!conversation) throw new Error(`conversation ${created.conversationId} vanished after it was created`);
  const messages = await loadChatMessages(deps, created.conversationId);
  return {
    conversation,
    messages,
    ...hoursFields(await inboxHours(deps.db, inbox), deps.clock.now()),
    ...(created.token !== null ? { session_token: created.token, user: widgetUserOf(created.user) } : {}),
  };
}

// ---------------------------------------------------------------- read, send, seen

export async function listConversations(deps: AppDeps, inbox: WidgetInbox, caller: WidgetCaller) {
  return loadChatConversations(deps, caller.userId, inbox.id);
}

export async function getConversation(deps: AppDeps, inbox: WidgetInbox, caller: WidgetCaller, uuid: string) {
  const own = await ownConversation(deps, inbox, caller, uuid);
  const conversation = await chatConversationFor(deps, own.id);
  if (!conversation) throw new NotFoundError('Conversation not found');
  const messages = await loadChatMessages(deps, own.id);
  return { conversation, messages, ...hoursFields(await inboxHours(deps.db, inbox, own.assigned_team_id), deps.clock.now()) };
}

/** A message from the widget, through appendMessage (which reopens a waiting or resolved conversation). */
export async function sendMessage(
  deps: AppDeps,
  inbox: WidgetInbox,
  caller: WidgetCaller,
  uuid: string,
  message: string,
): Promise<ChatMessage> {
  const prepared = prepareContent(message, 'text', 'message');
  if (!hasContent(prepared)) throw InputError.field('message', 'must not be empty');
  const own = await ownConversation(deps, inbox, caller, uuid);
  assertMayReply(inbox, caller, own.status);
  const awayHours = await hoursForAway(deps, inbox, own.assigned_team_id);
  const id = await deps.db.transaction().execute(async (trx) => {
    const conversation = await lockOwnConversation(trx, inbox, caller, own.uuid);
    const now = deps.clock.now();
    const row = await appendMessage(deps, trx, conversation, contactMessage(caller.userId, prepared, { contentType: 'text' }), now);
    await sendAwayMessage(deps, trx, inbox, conversation, now, awayHours);
    return row.id;
  });
  const sent = await chatMessageFor(deps, id);
  if (!sent) throw new Error(`message ${id} is not readable right after it was sent`);
  return sent;
}

/** Marks the conversation read by the contact, and tells the agents (conversation.contact_seen). */
export async function markSeen(deps: AppDeps, inbox: WidgetInbox, caller: WidgetCaller, uuid: string): Promise<void> {
  const own = await ownConversation(deps, inbox, caller, uuid);
  await deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    await q.setContactLastSeen(trx, own.id, now);
    await recordEvent(
      trx,
      'conversation.contact_seen',
      { conversation_id: own.id, conversation_uuid: own.uuid, contact_id: caller.userId, contact_last_seen_at: now },
      now,
    );
  });
}
