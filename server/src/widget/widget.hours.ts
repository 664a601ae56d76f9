// Business hours as the widget shows them (docs/api.md, "Live chat", business hours): the
// hours in effect for a conversation (its team's, else the inbox's, else the installation's
// default), the zone's offset now, whether they are open, and the away message a contact
// gets when writing outside them.
import { isOpen, nextOpening } from '../business-hours/business-hours.calendar.ts';
import { offsetAt } from '../business-hours/zoned-time.ts';
import { appendMessage, automaticMessage, type LockedConversation } from '../conversations/conversations.append.ts';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { prepareContent } from '../messages/messages.content.ts';
import { hoursInEffect } from '../settings/settings.service.ts';
import { teamHoursId } from '../teams/teams.service.ts';
import type { WidgetInbox } from './widget.inbox.ts';
import * as q from './widget.queries.ts';

type Hours = NonNullable<Awaited<ReturnType<typeof hoursInEffect>>>;

const MINUTE_MS = 60_000;

/** The hours in effect in this inbox, for a conversation of `teamId` when given (`db` may be a transaction). */
export async function inboxHours(db: DB, inbox: WidgetInbox, teamId: number | null = null): Promise<Hours | null> {
  return hoursInEffect(db, [await teamHoursId(db, teamId), inbox.config.business_hours_id]);
}

/** The spec's two fields of init and of a conversation: both null without hours. */
export function hoursFields(hours: Hours | null, now: Date) {
  return {
    business_hours_id: hours?.id ?? null,
    working_hours_utc_offset: hours ? Math.round(offsetAt(hours.timezone, now.getTime()) / MINUTE_MS) : null,
  };
}

/**
 * The settings' business-hours fields: the schedule itself only when the inbox shows office
 * hours in the chat; whether the hours are open now and, when closed, when they open next
 * (null: not within the calendar's search, or no hours at all, which are always open).
 */
export async function settingsHours(deps: AppDeps, inbox: WidgetInbox) {
  const hours = await inboxHours(deps.db, inbox);
  const now = deps.clock.now();
  const open = hours === null || isOpen(hours, now);
  return {
    ...hoursFields(hours, now),
    business_hours: hours !== null && inbox.config.show_office_hours_in_chat === true ? [hours] : null,
    is_open: open,
    next_open_at: open || hours === null ? null : (nextOpening(hours, now)?.toISOString() ?? null),
  };
}

/** What the away message needs, read before a contact's message (hoursForAway); null: the inbox has no away text. */
export type AwayHours = { teamId: number | null; hours: Hours | null } | null;

/**
 * Before a contact's message is written: the hours in effect for a conversation of `teamId`,
 * which may call for the inbox's away message, or null when the inbox has no away text. Read
 * before the message's transaction, not inside it: that transaction holds the conversation's
 * row lock and a pooled connection, and its event reaches the sockets only once it commits.
 * Whether they are open is decided inside, at the message's own time, without a round trip.
 */
export async function hoursForAway(deps: AppDeps, inbox: WidgetInbox, teamId: number | null): Promise<AwayHours> {
  if ((inbox.config.away_message ?? '').trim() === '') return null;
  return { teamId, hours: await inboxHours(deps.db, inbox, teamId) };
}

/**
 * After a contact's message, in its transaction, with what hoursForAway read before it (read
 * again, in the transaction, if the conversation moved to another team meanwhile): outside the
 * hours, the inbox's away message, once per closed period: not again while an earlier one's
 * `away_until` (the next opening it announced) is still ahead.
 */
export async function sendAwayMessage(
  deps: AppDeps,
  trx: DB,
  inbox: WidgetInbox,
  conversation: LockedConversation,
  now: Date,
  away: AwayHours,
) {
  const text = (inbox.config.away_message ?? '').trim();
  if (away === null || text === '') return;
  const hours = conversation.assigned_team_id === away.teamId ? away.hours : await inboxHours(trx, inbox, conversation.assigned_team_id);
  if (hours === null || isOpen(hours, now)) return;
  if (await q.hasAwayMessageUntilAfter(trx, conversation.id, now)) return;
  const until = nextOpening(hours, now);
  const meta = { away: true, away_until: until?.toISOString() ?? null };
  await appendMessage(deps, trx, conversation, automaticMessage(prepareContent(text, 'text', 'away_message'), { meta }), now);
}
