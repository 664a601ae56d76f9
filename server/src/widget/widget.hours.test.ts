// Business hours in the widget: the hours in effect (team, inbox, installation default), the
// offset and open state in the settings, init and a conversation, and the away message a
// contact gets once per closed period, decided at the message's own time.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createBusinessHours, createTeam } from '../../test/factories.ts';
import { assertError, buildTestApp, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { createWidgetInbox, startVisitor, widgetCall } from '../../test/widget.ts';
import { lockConversationForChannel } from '../conversations/conversations.append.ts';
import { type AwayHours, hoursForAway, sendAwayMessage } from './widget.hours.ts';
import { findWidgetInbox, type WidgetInbox } from './widget.inbox.ts';

interface Settings {
  business_hours: Array<{ id: number; timezone: string }> | null;
  business_hours_id: number | null;
  working_hours_utc_offset: number | null;
  is_open: boolean;
  next_open_at: string | null;
  away_message: string;
}

interface ChatMessageShape {
  content: string;
  author: { id: number | null; type: string };
  meta: Record<string, unknown>;
}

// Monday 23 November 2026, 10:00 in Berlin (UTC+1): within Monday to Friday 09:00-17:00.
const MONDAY_OPEN = new Date('2026-11-23T09:00:00Z');
// Saturday 28 November 2026, 12:00 in Berlin: closed until Monday 30 November, 09:00 (08:00Z).
const SATURDAY = new Date('2026-11-28T11:00:00Z');
const NEXT_MONDAY_OPENING = '2026-11-30T08:00:00.000Z';

describe('widget business hours', () => {
  const clock = fakeClock(MONDAY_OPEN);
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ clock, env: { WIDGET_MESSAGE_RATE_LIMIT_PER_MINUTE: '1000' } });
  });
  after(() => t.close());

  const settingsOf = async (inbox: string) => dataOf<Settings>(await widgetCall(t, { url: `chat/settings`, inbox }));
  const messagesOf = async (inbox: string, token: string, uuid: string) =>
    dataOf<{ messages: ChatMessageShape[]; business_hours_id: number | null; working_hours_utc_offset: number | null }>(
      await widgetCall(t, { url: `chat/conversations/${uuid}`, inbox, token }),
    );
  const awayMessages = (messages: ChatMessageShape[]) => messages.filter((m) => m.meta['away'] === true);
  const setDefault = async (id: number | null) =>
    dataOf(await t.call({ method: 'PUT', url: '/api/v1/settings/general', payload: { business_hours_id: id } }));

  it('without business hours: always open, no id, no offset, no schedule, and no away message', async () => {
    clock.set(SATURDAY);
    const chat = await createWidgetInbox(t, { show_office_hours_in_chat: true });
    const settings = await settingsOf(chat.uuid);
    assert.deepEqual(
      [settings.business_hours, settings.business_hours_id, settings.working_hours_utc_offset, settings.is_open, settings.next_open_at],
      [null, null, null, true, null],
    );
    const visitor = await startVisitor(t, chat.uuid);
    const read = await messagesOf(chat.uuid, visitor.token, visitor.conversationUuid);
    assert.deepEqual(awayMessages(read.messages), []);
    assert.deepEqual([read.business_hours_id, read.working_hours_utc_offset], [null, null]);
  });

  it("an inbox's config names existing business hours only; hours an inbox uses cannot be deleted", async () => {
    const hours = await createBusinessHours(t);
    for (const id of [999999, 0, -1, 'x', 1.5]) {
      const res = await t.call({
        method: 'POST',
        url: '/api/v1/inboxes',
        payload: { name: `Chat ${String(id)}`, channel: 'livechat', config: { business_hours_id: id } },
      });
      assertError(res, 400, 'InputException', String(id));
      assert.match(res.json().message, /business_hours_id/);
    }
    const chat = await createWidgetInbox(t, { business_hours_id: hours.id });
    const refused = await t.call({ method: 'DELETE', url: `/api/v1/business-hours/${hours.id}` });
    assertError(refused, 422, 'DataException');
    assert.match(refused.json().message, new RegExp(`inbox ${chat.inbox.name}`));
    const moved = await t.call({
      method: 'PUT',
      url: `/api/v1/inboxes/${chat.inbox.id}`,
      payload: { config: { business_hours_id: null } },
    });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.equal((await t.call({ method: 'DELETE', url: `/api/v1/business-hours/${hours.id}` })).statusCode, 200);
    const gone = await t.call({
      method: 'PUT',
      url: `/api/v1/inboxes/${chat.inbox.id}`,
      payload: { config: { business_hours_id: hours.id } },
    });
    assertError(gone, 400, 'InputException');
  });

  it("settings: the inbox's hours, their offset now (DST-aware), open or the next opening; the schedule only when shown", async () => {
    const hours = await createBusinessHours(t);
    const hidden = await createWidgetInbox(t, { business_hours_id: hours.id });
    const shown = await createWidgetInbox(t, { business_hours_id: hours.id, show_office_hours_in_chat: true });

    clock.set(MONDAY_OPEN);
    const open = await settingsOf(hidden.uuid);
    assert.deepEqual(
      [open.business_hours, open.business_hours_id, open.working_hours_utc_offset, open.is_open, open.next_open_at],
      [null, hours.id, 60, true, null],
    );
    clock.set(SATURDAY);
    const closed = await settingsOf(shown.uuid);
    assert.deepEqual([closed.is_open, closed.next_open_at], [false, NEXT_MONDAY_OPENING]);
    assert.deepEqual(
      closed.business_hours?.map((h) => [h.id, h.timezone]),
      [[hours.id, 'Europe/Berlin']],
    );
    clock.set(new Date('2026-07-06T09:00:00Z')); // a Monday in summer: UTC+2
    assert.equal((await settingsOf(hidden.uuid)).working_hours_utc_offset, 120);
  });

  it("the installation's default applies to an inbox without hours of its own", async () => {
    const hours = await createBusinessHours(t, { timezone: 'America/New_York' });
    const chat = await createWidgetInbox(t);
    await setDefault(hours.id);
    try {
      clock.set(MONDAY_OPEN); // 04:00 in New York: closed until 09:00 there
      const settings = await settingsOf(chat.uuid);
      assert.deepEqual(
        [settings.business_hours_id, settings.working_hours_utc_offset, settings.is_open, settings.next_open_at],
        [hours.id, -300, false, '2026-11-23T14:00:00.000Z'],
      );
    } finally {
      await setDefault(null);
    }
  });

  it('outside the hours a contact gets the away message once per closed period; it is no reply', async () => {
    const hours = await createBusinessHours(t);
    const chat = await createWidgetInbox(t, { business_hours_id: hours.id, away_message: 'Back on Monday at nine.' });
    clock.set(SATURDAY);
    const visitor = await startVisitor(t, chat.uuid, 'Anyone there?');
    let read = await messagesOf(chat.uuid, visitor.token, visitor.conversationUuid);
    assert.deepEqual([read.business_hours_id, read.working_hours_utc_offset], [hours.id, 60]);
    assert.deepEqual(
      awayMessages(read.messages).map((m) => [m.author.id, m.author.type, m.content, m.meta['away_until']]),
      [[null, 'agent', 'Back on Monday at nine.', NEXT_MONDAY_OPENING]],
    );
    const conversation = dataOf<{ first_reply_at: string | null; waiting_since: string | null }>(
      await t.call({ url: `/api/v1/conversations/${visitor.conversationUuid}` }),
    );
    assert.deepEqual([conversation.first_reply_at, conversation.waiting_since], [null, SATURDAY.toISOString()], 'no reply');

    // Still closed: no second one.
    clock.advance(3_600_000);
    const send = (text: string) =>
      widgetCall(t, {
        method: 'POST',
        url: `chat/conversations/${visitor.conversationUuid}/message`,
        inbox: chat.uuid,
        token: visitor.token,
        payload: { message: text },
      });
    assert.equal((await send('Hello?')).statusCode, 200);
    read = await messagesOf(chat.uuid, visitor.token, visitor.conversationUuid);
    assert.equal(awayMessages(read.messages).length, 1);

    // Open: none.
    clock.set(new Date('2026-11-30T09:00:00Z'));
    assert.equal((await send('Good morning')).statusCode, 200);
    read = await messagesOf(chat.uuid, visitor.token, visitor.conversationUuid);
    assert.equal(awayMessages(read.messages).length, 1);

    // The next closed period (Monday evening): one more, announcing Tuesday 09:00.
    clock.set(new Date('2026-11-30T19:00:00Z'));
    assert.equal((await send('Still there?')).statusCode, 200);
    read = await messagesOf(chat.uuid, visitor.token, visitor.conversationUuid);
    assert.deepEqual(
      awayMessages(read.messages).map((m) => m.meta['away_until']),
      ['2026-12-01T08:00:00.000Z', NEXT_MONDAY_OPENING],
    );
  });

  it('an empty away message sends nothing', async () => {
    const hours = await createBusinessHours(t);
    const chat = await createWidgetInbox(t, { business_hours_id: hours.id, away_message: '' });
    clock.set(SATURDAY);
    const visitor = await startVisitor(t, chat.uuid);
    assert.deepEqual(awayMessages((await messagesOf(chat.uuid, visitor.token, visitor.conversationUuid)).messages), []);
  });

  it("a conversation's team's hours win over the inbox's", async () => {
    const inboxHours = await createBusinessHours(t);
    const teamHours = await createBusinessHours(t, { timezone: 'Asia/Tokyo', always_open: true });
    const team = await createTeam(t, { business_hours_id: teamHours.id });
    const chat = await createWidgetInbox(t, { business_hours_id: inboxHours.id });
    clock.set(MONDAY_OPEN);
    const visitor = await startVisitor(t, chat.uuid);
    const assigned = await t.call({
      method: 'PUT',
      url: `/api/v1/conversations/${visitor.conversationUuid}/assignee/team`,
      payload: { assignee_id: team.id },
    });
    assert.equal(assigned.statusCode, 200, assigned.body);
    const read = await messagesOf(chat.uuid, visitor.token, visitor.conversationUuid);
    assert.deepEqual([read.business_hours_id, read.working_hours_utc_offset], [teamHours.id, 540]);
    // The settings know no conversation: the inbox's.
    assert.equal((await settingsOf(chat.uuid)).business_hours_id, inboxHours.id);
  });

  /** A live-chat inbox of this config, and a visitor who started a conversation there on Monday morning. */
  const visitorOnMonday = async (config: Parameters<typeof createWidgetInbox>[1]) => {
    const chat = await createWidgetInbox(t, config);
    clock.set(MONDAY_OPEN);
    const visitor = await startVisitor(t, chat.uuid);
    const inbox = await findWidgetInbox(t.deps, chat.uuid);
    assert.ok(inbox);
    return { chat, visitor, inbox };
  };
  /** What a contact's message does after it, in a transaction of its own, with the hours read before. */
  const awayNow = (uuid: string, inbox: WidgetInbox, away: AwayHours) =>
    t.deps.db.transaction().execute(async (trx) => {
      const locked = await lockConversationForChannel(trx, uuid);
      assert.ok(locked);
      await sendAwayMessage(t.deps, trx, inbox, locked, clock.now(), away);
    });

  it("decides at the message's own time, and with the team the conversation has then", async () => {
    const closedOnSaturday = await createBusinessHours(t);
    const openAlways = await createBusinessHours(t, { timezone: 'Asia/Tokyo', always_open: true });
    const team = await createTeam(t, { business_hours_id: closedOnSaturday.id });
    const { chat, visitor, inbox } = await visitorOnMonday({ business_hours_id: openAlways.id, away_message: 'We are away.' });
    // Read for a conversation without a team (the inbox's hours: always open)…
    const away = await hoursForAway(t.deps, inbox, null);
    assert.equal(away?.hours?.id, openAlways.id);
    // …but the conversation joined a team (closed on Saturdays) before its message was written.
    dataOf(
      await t.call({
        method: 'PUT',
        url: `/api/v1/conversations/${visitor.conversationUuid}/assignee/team`,
        payload: { assignee_id: team.id },
      }),
    );
    clock.set(SATURDAY);
    await awayNow(visitor.conversationUuid, inbox, away);
    let read = await messagesOf(chat.uuid, visitor.token, visitor.conversationUuid);
    assert.equal(awayMessages(read.messages).length, 1, "the team's hours, read again, were closed");

    // Hours read while open (Monday) and closed by the time the message is written (Monday evening).
    const opened = await visitorOnMonday({ business_hours_id: closedOnSaturday.id, away_message: 'Closed now.' });
    const { chat: other, visitor: second, inbox: otherInbox } = opened;
    const readWhileOpen = await hoursForAway(t.deps, otherInbox, null);
    clock.set(new Date('2026-11-23T19:00:00Z'));
    await awayNow(second.conversationUuid, otherInbox, readWhileOpen);
    read = await messagesOf(other.uuid, second.token, second.conversationUuid);
    assert.deepEqual(
      awayMessages(read.messages).map((m) => m.content),
      ['Closed now.'],
    );
    // No away text: nothing is read at all.
    assert.equal(await hoursForAway(t.deps, { ...otherInbox, config: { ...otherInbox.config, away_message: ' ' } }, null), null);
  });

  it('refuses an away message that is not a string or is too long', async () => {
    for (const away_message of [5, null, 'x'.repeat(1001)]) {
      assertError(
        await t.call({
          method: 'POST',
          url: '/api/v1/inboxes',
          payload: { name: 'Chat bad', channel: 'livechat', config: { away_message } },
        }),
        400,
        'InputException',
        String(away_message).slice(0, 10),
      );
    }
  });
});
