// One identity token cannot mint sessions without end: exchanges are limited per contact (429
// with Retry-After, nothing written), and a contact keeps at most 20 live sessions per inbox.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, buildTestApp, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { createWidgetInbox, signIdentity, type WidgetInboxFixture, widgetCall } from '../../test/widget.ts';
import { EXCHANGES_PER_CONTACT_PER_MINUTE, MAX_SESSIONS_PER_CONTACT } from './widget.identity.ts';

describe('widget exchange: per-contact limit and session cap', () => {
  const clock = fakeClock(new Date());
  let t: TestApp;
  let chat: WidgetInboxFixture;
  before(async () => {
    t = await buildTestApp({ clock });
    chat = await createWidgetInbox(t);
  });
  after(() => t.close());

  const exchange = (fixture: WidgetInboxFixture, jwt: string) =>
    widgetCall(t, { method: 'POST', url: 'chat/auth/exchange', inbox: fixture.uuid, payload: { jwt } });
  const sessionsOf = async (userId: number, inboxId: number) => {
    const rows = await t.deps.db
      .selectFrom('widget_sessions')
      .select('token_hash')
      .where('user_id', '=', userId)
      .where('inbox_id', '=', inboxId)
      .execute();
    return rows.length;
  };

  it(`keeps the ${MAX_SESSIONS_PER_CONTACT} most recent sessions, refuses exchange ${EXCHANGES_PER_CONTACT_PER_MINUTE + 1} in a minute`, async () => {
    const other = await createWidgetInbox(t);
    const claims = { external_user_id: 'replayed-1', email: 'replayed@example.com', first_name: 'Rae' };
    const jwt = await signIdentity(chat.secret, claims, { now: clock.now() });
    const elsewhere = dataOf<{ session_token: string; user: { user_id: number } }>(
      await exchange(other, await signIdentity(other.secret, claims, { now: clock.now() })),
    );
    const tokens: string[] = [];
    let userId = 0;
    for (let i = 1; i < EXCHANGES_PER_CONTACT_PER_MINUTE; i += 1) {
      const session = dataOf<{ session_token: string; user: { user_id: number } }>(await exchange(chat, jwt), `exchange ${i}`);
      tokens.push(session.session_token);
      userId = session.user.user_id;
      clock.advance(1000);
    }
    assert.equal(userId, elsewhere.user.user_id);
    assert.equal(await sessionsOf(userId, chat.inbox.id), MAX_SESSIONS_PER_CONTACT);
    const me = (token: string) => widgetCall(t, { url: 'chat/auth/me', inbox: chat.uuid, token });
    for (const token of tokens.slice(-MAX_SESSIONS_PER_CONTACT)) dataOf(await me(token), 'a recent session works');
    for (const token of tokens.slice(0, -MAX_SESSIONS_PER_CONTACT)) assertError(await me(token), 401, 'UnauthorizedException');
    dataOf(await widgetCall(t, { url: 'chat/auth/me', inbox: other.uuid, token: elsewhere.session_token }), 'another inbox untouched');
    assert.equal(await sessionsOf(userId, other.inbox.id), 1);

    const limited = await exchange(chat, jwt);
    assertError(limited, 429, 'RateLimitException');
    assert.ok(Number(limited.headers['retry-after']) >= 1);
    assert.equal(await sessionsOf(userId, chat.inbox.id), MAX_SESSIONS_PER_CONTACT, 'nothing issued when limited');
    const again = await signIdentity(chat.secret, claims, { now: clock.now() });
    assertError(await exchange(chat, again), 429, 'RateLimitException', 'a fresh token of the same contact');
    dataOf(await exchange(chat, await signIdentity(chat.secret, { external_user_id: 'someone-else' }, { now: clock.now() })));
    if (t.deps.redis === null) {
      // The in-process window follows the app's clock; Redis expires its windows in real time.
      clock.advance(61_000);
      dataOf(await exchange(chat, await signIdentity(chat.secret, claims, { now: clock.now() })), 'a minute later');
      assert.equal(await sessionsOf(userId, chat.inbox.id), MAX_SESSIONS_PER_CONTACT);
    }
  });
});
