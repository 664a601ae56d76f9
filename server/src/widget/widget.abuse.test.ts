// The widget's public routes under hostile input: unstorable text, deep nesting and huge values
// change nothing; the per-user message limit answers 429 with Retry-After; a visitor token of
// another inbox merges nothing.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, buildTestApp, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { createWidgetInbox, startVisitor, type Visitor, verifiedSession, type WidgetInboxFixture, widgetCall } from '../../test/widget.ts';

describe('widget: hostile input', () => {
  const clock = fakeClock();
  let t: TestApp;
  let chat: WidgetInboxFixture;
  let visitor: Visitor;
  before(async () => {
    t = await buildTestApp({ clock, env: { WIDGET_MESSAGE_RATE_LIMIT_PER_MINUTE: '5' } });
    chat = await createWidgetInbox(t);
    visitor = await startVisitor(t, chat.uuid);
  });
  after(() => t.close());
  const rows = async () => {
    const [m, c, u] = await Promise.all(
      (['messages', 'conversations', 'users'] as const).map((table) =>
        t.deps.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow(),
      ),
    );
    return [Number(m.n), Number(c.n), Number(u.n)];
  };

  it('NUL, unpaired surrogates, deep nesting, huge and mistyped values are a 400 and store nothing', async () => {
    const before = await rows();
    const deep = JSON.parse(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`);
    const bodies: Array<[string, unknown]> = [
      ['init', { message: 'a\u0000b' }],
      ['init', { message: 'hi', form_data: { name: 'x\u0000' } }],
      ['init', { message: 'hi', form_data: deep }],
      ['init', { message: 'x'.repeat(10_001) }],
      ['init', { message: '' }],
      ['init', { message: 42 }],
      ['init', {}],
      ['init', { message: 'hi', form_data: 'not an object' }],
      ['message', { message: 'a\u0000b' }],
      ['message', { message: 'x'.repeat(10_001) }],
      ['message', { message: ['array'] }],
      ['message', {}],
      ['exchange', { jwt: 'a\u0000b' }],
      ['exchange', { jwt: 12 }],
      ['exchange', {}],
    ];
    for (const [route, payload] of bodies) {
      const url =
        route === 'init'
          ? 'chat/conversations/init'
          : route === 'exchange'
            ? 'chat/auth/exchange'
            : `chat/conversations/${visitor.conversationUuid}/message`;
      const res = await widgetCall(t, {
        method: 'POST',
        url,
        inbox: chat.uuid,
        payload,
        ...(route === 'message' ? { token: visitor.token } : {}),
      });
      assertError(res, 400, 'InputException', `${route} ${JSON.stringify(payload).slice(0, 60)}`);
    }
    // A raw surrogate escape the JSON parser sees.
    const raw = await t.call({
      method: 'POST',
      url: '/api/v1/widget/chat/conversations/init',
      as: null,
      headers: { 'x-service-inbox-id': chat.uuid, 'content-type': 'application/json' },
      payload: '{"message":"\\ud800"}',
    });
    assertError(raw, 400, 'InputException', 'unpaired surrogate');
    // NUL in the inbox header or the bearer token.
    assertError(await widgetCall(t, { url: 'chat/settings', inbox: `${chat.uuid}\u0000` }), 400, 'InputException', 'NUL inbox');
    assertError(await widgetCall(t, { url: 'chat/auth/me', inbox: chat.uuid, token: 'a\u0000b' }), 400, 'InputException', 'NUL token');
    assert.deepEqual(await rows(), before, 'nothing stored');
  });

  it('a user sending too fast gets 429 RateLimitException with Retry-After, and nothing stored past the limit', async () => {
    const send = () =>
      widgetCall(t, {
        method: 'POST',
        url: `chat/conversations/${visitor.conversationUuid}/message`,
        inbox: chat.uuid,
        token: visitor.token,
        payload: { message: 'again' },
      });
    let refused = null;
    for (let i = 0; i < 10 && !refused; i++) {
      const res = await send();
      if (res.statusCode === 429) refused = res;
      else dataOf(res);
    }
    assert.ok(refused, 'the limit of 5 a minute is reached');
    assertError(refused, 429, 'RateLimitException');
    assert.ok(Number(refused.headers['retry-after']) > 0, 'Retry-After is given');
    const [messagesBefore] = await rows();
    assertError(await send(), 429, 'RateLimitException');
    assert.equal((await rows())[0], messagesBefore);
    if (t.deps.redis === null) {
      // The in-process window follows the app's clock; Redis expires its windows in real time.
      clock.advance(61_000);
      dataOf(await send(), 'a minute later it is accepted again');
    }
  });

  it('a visitor token of another inbox merges nothing', async () => {
    const other = await createWidgetInbox(t);
    const foreign = await startVisitor(t, other.uuid, 'on another site');
    const session = await verifiedSession(t, chat, {}, clock.now());
    const res = await widgetCall(t, {
      url: 'chat/conversations',
      inbox: chat.uuid,
      token: session.session_token,
      headers: { 'x-service-visitor-token': foreign.token },
    });
    assert.equal(res.headers['x-service-clear-visitor'], undefined);
    assert.deepEqual(dataOf<unknown[]>(res), []);
    const still = await t.deps.db.selectFrom('users').select('deleted_at').where('id', '=', foreign.userId).executeTakeFirstOrThrow();
    assert.equal(still.deleted_at, null);
    dataOf(await widgetCall(t, { url: 'chat/auth/me', inbox: other.uuid, token: foreign.token }), 'the foreign visitor still works');
  });
});
