// Test data factories, in Outline's style: each makes one valid record through the public
// API (as the test app's admin), with defaults a test may override, and creates whatever
// the record needs. Names and addresses are unique within a process.
import type { Static } from 'typebox';
import type { AgentRecord } from '../src/agents/agents.schema.ts';
import type { BusinessHoursRecord, CreateBusinessHoursBody } from '../src/business-hours/business-hours.schema.ts';
import type { CreateContactBody } from '../src/contacts/contacts.schema.ts';
import type { Conversation as ConversationSchema, CreateConversationBody } from '../src/conversations/conversations.schema.ts';
import type { CreateInboxBody, InboxRecord } from '../src/inboxes/inboxes.schema.ts';
import type { CreateTeamBody, TeamRecord } from '../src/teams/teams.schema.ts';
import { type Caller, dataOf, type TestApp } from './helpers.ts';

export type Inbox = Static<typeof InboxRecord>;
export type Team = Static<typeof TeamRecord>;
export type Contact = Static<typeof AgentRecord>;
export type Conversation = Static<typeof ConversationSchema>;
export type BusinessHours = Static<typeof BusinessHoursRecord>;

let sequence = 0;
/** A number unique within the test process, for names that must be unique. */
export function uniqueNumber(): number {
  sequence += 1;
  return sequence;
}

/** A unique address at example.com (RFC 2606: never a real mailbox). */
export function uniqueEmail(label = 'person'): string {
  return `${label}-${process.pid}-${uniqueNumber()}@example.com`;
}

/** IMAP and SMTP settings that pass validation; nothing connects to them in tests. */
export function testEmailConfig() {
  return {
    imap: { host: 'imap.example.com', port: 993, username: 'support@example.com', password: 'imap-password', tls: 'tls' },
    smtp: { host: 'smtp.example.com', port: 587, username: 'support@example.com', password: 'smtp-password', tls: 'starttls' },
  };
}

/** An inbox: live chat by default; `{ channel: 'email' }` gives an email inbox with a sender and mail settings. */
export async function createInbox(t: TestApp, overrides: Partial<Static<typeof CreateInboxBody>> = {}): Promise<Inbox> {
  const n = uniqueNumber();
  const defaults =
    overrides.channel === 'email'
      ? { name: `Email inbox ${n}`, channel: 'email', from: `Support ${n} <support-${n}@example.com>`, config: testEmailConfig() }
      : { name: `Chat inbox ${n}`, channel: 'livechat', config: {} };
  return dataOf<Inbox>(await t.call({ method: 'POST', url: '/api/v1/inboxes', payload: { ...defaults, ...overrides } }));
}

export async function createTeam(t: TestApp, overrides: Partial<Static<typeof CreateTeamBody>> = {}): Promise<Team> {
  return dataOf<Team>(await t.call({ method: 'POST', url: '/api/v1/teams', payload: { name: `Team ${uniqueNumber()}`, ...overrides } }));
}

/** Business hours with a unique name: Monday to Friday 09:00-17:00 in Europe/Berlin unless overridden. */
export async function createBusinessHours(
  t: TestApp,
  overrides: Partial<Static<typeof CreateBusinessHoursBody>> = {},
): Promise<BusinessHours> {
  const day = [{ open: '09:00', close: '17:00' }];
  const hours = { monday: day, tuesday: day, wednesday: day, thursday: day, friday: day };
  return dataOf<BusinessHours>(
    await t.call({
      method: 'POST',
      url: '/api/v1/business-hours',
      payload: { name: `Hours ${uniqueNumber()}`, timezone: 'Europe/Berlin', hours, ...overrides },
    }),
  );
}

/** A contact with a unique email (pass `email: null` and an `external_user_id` for one without). */
export async function createContact(t: TestApp, overrides: Partial<Static<typeof CreateContactBody>> = {}): Promise<Contact> {
  return dataOf<Contact>(
    await t.call({
      method: 'POST',
      url: '/api/v1/contacts',
      payload: { first_name: 'Contact', email: uniqueEmail('contact'), ...overrides },
    }),
  );
}

/**
 * A conversation started by its contact (`initiator: 'contact'`), in a new live-chat inbox
 * unless `inbox_id` is given, from a new contact (a unique `contact_email`) unless
 * `contact_id` or `contact_email` is given. Answers the conversation as GET /conversations/{uuid} does.
 */
export async function createConversation(
  t: TestApp,
  overrides: Partial<Static<typeof CreateConversationBody>> = {},
): Promise<Conversation> {
  const n = uniqueNumber();
  const inboxId = overrides.inbox_id ?? (await createInbox(t)).id;
  const contact =
    overrides.contact_id !== undefined || overrides.contact_email !== undefined ? {} : { contact_email: uniqueEmail('customer') };
  const payload = { inbox_id: inboxId, ...contact, subject: `Conversation ${n}`, content: 'Hello', initiator: 'contact', ...overrides };
  return dataOf<Conversation>(await t.call({ method: 'POST', url: '/api/v1/conversations', payload }));
}

/**
 * An agent whose only role is a new custom role holding exactly these permissions (no role at
 * all for []), optionally in these teams and with this first name.
 */
export async function agentWith(
  t: TestApp,
  permissions: readonly string[],
  options: { teams?: number[]; first_name?: string } = {},
): Promise<Caller> {
  const roles: string[] = [];
  if (permissions.length > 0) {
    const name = `Custom role ${uniqueNumber()}`;
    dataOf(await t.call({ method: 'POST', url: '/api/v1/roles', payload: { name, permissions: [...permissions] } }));
    roles.push(name);
  }
  return t.makeAgent({ roles, ...options });
}
