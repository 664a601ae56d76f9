// Verified contacts: the JWT exchange, blocked contacts, and the visitor merge.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignJWT, UnsecuredJWT } from 'jose';
import { assertError, buildTestApp, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import {
  createWidgetInbox,
  signIdentity as signIdentityAt,
  startVisitor,
  verifiedSession,
  type WidgetInboxFixture,
  widgetCall,
} from '../../test/widget.ts';

describe('widget identity', () => {
  const clock = fakeClock(new Date());
  let t: TestApp;
  let chat: WidgetInboxFixture;
  before(async () => {
    t = await buildTestApp({ clock });
    chat = await createWidgetInbox(t, { session_duration: '1h' });
  });
  after(() => t.close());
  // Tokens are issued at the app's (fake) time: the real clock may be far ahead of it on a loaded machine.
  const signIdentity = (secret: string, claims: Record<string, unknown> = {}, options: Parameters<typeof signIdentityAt>[2] = {}) =>
    signIdentityAt(secret, claims, { now: clock.now(), ...options });
  const exchange = (jwt: unknown) => widgetCall(t, { method: 'POST', url: 'chat/auth/exchange', inbox: chat.uuid, payload: { jwt } });

  it('exchanges a signed JWT for a session; finds the contact again by external id and updates it', async () => {
    const jwt = await signIdentity(
      chat.secret,
      { external_user_id: 'u-1', email: 'Ann@Example.com', first_name: 'Ann', last_name: 'Lee' },
      { alg: 'HS512' },
    );
    const first = dataOf<{ session_token: string; user: Record<string, unknown> }>(await exchange(jwt));
    assert.deepEqual(first.user, { user_id: first.user['user_id'], is_visitor: false, first_name: 'Ann', last_name: 'Lee' });
    const me = dataOf(await widgetCall(t, { url: 'chat/auth/me', inbox: chat.uuid, token: first.session_token }));
    assert.deepEqual(me, first.user);
    const again = dataOf<{ user: { user_id: number } }>(
      await exchange(await signIdentity(chat.secret, { external_user_id: 'u-1', email: 'ann@example.com', first_name: 'Annie' })),
    );
    assert.equal(again.user.user_id, first.user['user_id']);
    const row = await t.deps.db
      .selectFrom('users')
      .select(['first_name', 'email'])
      .where('id', '=', again.user.user_id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(row, { first_name: 'Annie', email: 'ann@example.com' });
  });

  it('adopts a contact with the same email and no external id', async () => {
    const contact = dataOf<{ id: number }>(
      await t.call({ method: 'POST', url: '/api/v1/contacts', payload: { first_name: 'Bo', email: 'bo@example.com' } }),
    );
    const session = await verifiedSession(t, chat, { external_user_id: 'bo-1', email: 'bo@example.com', first_name: 'Bo' }, clock.now());
    assert.equal(session.user.user_id, contact.id);
  });

  it('refuses bad signatures, other algorithms, none, expiry and missing exp (401)', async () => {
    const now = Math.floor(clock.now().getTime() / 1000);
    const claims = { external_user_id: 'x', email: 'x@example.com', first_name: 'X' };
    const wrong = await signIdentity('another-secret-0123456789abcdefghijklmnop', claims);
    const expired = await signIdentity(chat.secret, claims, { exp: now - 120 });
    const noExp = await signIdentity(chat.secret, claims, { exp: null });
    const none = new UnsecuredJWT(claims).setExpirationTime(now + 60).encode();
    const { privateKey } = await crypto.subtle.generateKey(
      { name: 'RSASSA-PKCS1-v1_5', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' },
      true,
      ['sign', 'verify'],
    );
    const rs256 = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'RS256' })
      .setExpirationTime(now + 60)
      .sign(privateKey);
    for (const [label, jwt] of Object.entries({ wrong, expired, noExp, none, rs256, garbage: 'a.b.c' }))
      assertError(await exchange(jwt), 401, 'UnauthorizedException', label);
    // Within the clock tolerance, a just-expired token still passes.
    dataOf(await exchange(await signIdentity(chat.secret, { ...claims, external_user_id: 'tolerated' }, { exp: now - 10 })));
  });

  it('refuses identity tokens valid for more than 24 hours (401): exp - iat, else exp - now', async () => {
    const now = Math.floor(clock.now().getTime() / 1000);
    const day = 24 * 3600;
    const claims = (id: string) => ({ external_user_id: `long-${id}`, email: `long-${id}@example.com`, first_name: 'L' });
    const sign = (id: string, options: { exp: number; iat?: number | null }) =>
      signIdentity(chat.secret, claims(id), { now: clock.now(), ...options });
    const refused = {
      in2099: await sign('2099', { exp: Math.floor(Date.UTC(2099, 0, 1) / 1000) }),
      dayAndASecond: await sign('d1', { exp: now + day + 1 }),
      oldIatLongExp: await sign('old', { iat: now - 3600, exp: now + day }),
      noIatTooLong: await sign('noiat', { iat: null, exp: now + day + 3600 }),
      futureIat: await sign('future', { iat: now + 3600, exp: now + 7200 }),
    };
    for (const [label, jwt] of Object.entries(refused)) {
      const body = assertError(await exchange(jwt), 401, 'UnauthorizedException', label);
      if (label !== 'futureIat') assert.match(body.message, /24 hours/, label);
    }
    const accepted = {
      exactlyADay: await sign('a1', { exp: now + day }),
      fiveMinutes: await sign('a2', { exp: now + 300 }),
      noIatShort: await sign('a3', { iat: null, exp: now + 23 * 3600 }),
      oldIatShortSpan: await sign('a4', { iat: now - 23 * 3600, exp: now + 1800 }),
    };
    for (const [label, jwt] of Object.entries(accepted)) dataOf(await exchange(jwt), label);
  });

  it('refuses missing and invalid claims with 400 naming the claim', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ external_user_id: undefined }, 'external_user_id'],
      [{ email: undefined }, 'email'],
      [{ first_name: undefined }, 'first_name'],
      [{ email: 'not-an-email' }, 'email'],
      [{ external_user_id: 'x'.repeat(129) }, 'external_user_id'],
      [{ first_name: 'x'.repeat(129) }, 'first_name'],
      [{ last_name: 'x'.repeat(129) }, 'last_name'],
      [{ phone_number: '1'.repeat(21) }, 'phone_number'],
      [{ phone_number_country_code: 'FRA' }, 'phone_number_country_code'],
      [{ first_name: 42 }, 'first_name'],
      [{ contact_custom_attributes: [1] }, 'contact_custom_attributes'],
      [{ contact_custom_attributes: { deep: { a: 1 } } }, 'contact_custom_attributes'],
    ];
    for (const [claims, field] of cases) {
      const body = assertError(await exchange(await signIdentity(chat.secret, claims)), 400, 'InputException', field);
      assert.match(body.message, new RegExp(field), field);
    }
    assertError(await exchange(''), 400, 'InputException');
    assertError(await exchange(5), 400, 'InputException');
  });

  it('a blocked contact cannot exchange (403) and its sessions stop working (401)', async () => {
    const session = await verifiedSession(t, chat, { external_user_id: 'blocked-1' }, clock.now());
    await t.call({ method: 'PUT', url: `/api/v1/contacts/${session.user.user_id}/block`, payload: { enabled: false } });
    assertError(await widgetCall(t, { url: 'chat/auth/me', inbox: chat.uuid, token: session.session_token }), 401, 'UnauthorizedException');
    assertError(await exchange(await signIdentity(chat.secret, { external_user_id: 'blocked-1' })), 403, 'PermissionException');
  });

  it('sessions of verified contacts last the inbox session_duration, sliding', async () => {
    const session = await verifiedSession(t, chat, {}, clock.now());
    clock.advance(50 * 60_000);
    dataOf(await widgetCall(t, { url: 'chat/auth/me', inbox: chat.uuid, token: session.session_token }));
    clock.advance(61 * 60_000);
    assertError(await widgetCall(t, { url: 'chat/auth/me', inbox: chat.uuid, token: session.session_token }), 401, 'UnauthorizedException');
  });

  it('merges a visitor into the verified contact in one go; a bad visitor token is ignored', async () => {
    const visitor = await startVisitor(t, chat.uuid, 'Before signing in');
    const session = await verifiedSession(t, chat, {}, clock.now());
    const ignored = await widgetCall(t, {
      url: 'chat/auth/me',
      inbox: chat.uuid,
      token: session.session_token,
      headers: { 'x-service-visitor-token': 'nonsense' },
    });
    assert.equal(ignored.headers['x-service-clear-visitor'], undefined);
    const merged = await widgetCall(t, {
      url: 'chat/conversations',
      inbox: chat.uuid,
      token: session.session_token,
      headers: { 'x-service-visitor-token': visitor.token },
    });
    assert.equal(merged.headers['x-service-clear-visitor'], 'true');
    assert.deepEqual(
      dataOf<Array<{ uuid: string }>>(merged).map((c) => c.uuid),
      [visitor.conversationUuid],
    );
    const messages = await t.deps.db
      .selectFrom('messages')
      .select('sender_id')
      .where('type', '=', 'incoming')
      .where('sender_id', '=', visitor.userId)
      .execute();
    assert.equal(messages.length, 0);
    const gone = await t.deps.db.selectFrom('users').select('deleted_at').where('id', '=', visitor.userId).executeTakeFirstOrThrow();
    assert.ok(gone.deleted_at);
    assertError(await widgetCall(t, { url: 'chat/auth/me', inbox: chat.uuid, token: visitor.token }), 401, 'UnauthorizedException');
    // A visitor session cannot merge anything.
    const other = await startVisitor(t, chat.uuid);
    const third = await startVisitor(t, chat.uuid);
    const res = await widgetCall(t, {
      url: 'chat/auth/me',
      inbox: chat.uuid,
      token: other.token,
      headers: { 'x-service-visitor-token': third.token },
    });
    assert.equal(res.headers['x-service-clear-visitor'], undefined);
  });
});
