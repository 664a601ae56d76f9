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

/**
 * Before a contact's message is written: the hours that may call for the inbox's away message
 * (it is not empty, and the hours in effect for a conversation of `teamId` are closed now), or
 * null when none can be due. Read before the message's transaction, not inside it: that
 * transaction holds the conversation's row lock and a pooled connection, and its event reaches
 * the sockets only once it commits; while the hours are open (or there are none) it now makes
 * no round trip for them at all. The hours are configuration: a change in the instant between
 * is harmless.
 */
export async function hoursForAway(deps: AppDeps, inbox: WidgetInbox, teamId: number | null): Promise<Hours | null> {
  if ((inbox.config.away_message ?? '').trim() === '') return null;
  const hours = await inboxHours(deps.db, inbox, teamId);
  return hours !== null && !isOpen(hours, deps.clock.now()) ? hours : null;
}

/**
 * After a contact's message, in its transaction, with what hoursForAway read before it: outside
 * the hours, the inbox's away message, once per closed period: not again while an earlier one's
 * `away_until` (the next opening it announced) is still ahead.
 */
export async function sendAwayMessage(
  deps: AppDeps,
  trx: DB,
  inbox: WidgetInbox,
  conversation: LockedConversation,
  now: Date,
  hours: Hours | null,
) {
  const text = (inbox.config.away_message ?? '').trim();
  if (text === '' || hours === null || isOpen(hours, now)) return;
  if (await q.hasAwayMessageUntilAfter(trx, conversation.id, now)) return;
  const until = nextOpening(hours, now);
  const meta = { away: true, away_until: until?.toISOString() ?? null };
  await appendMessage(deps, trx, conversation, automaticMessage(prepareContent(text, 'text', 'away_message'), { meta }), now);
}
