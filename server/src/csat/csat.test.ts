// CSAT surveys: one survey on the first resolve of a conversation whose inbox has csat_enabled
// (none on a reopen and second resolve, none when disabled), the survey message the widget sees,
// the conversation's `csat`, and the public API with its refusals, window and rate limit.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createConversation, createInbox } from '../../test/factories.ts';
import { assertError, buildTestApp, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { startVisitor, widgetCall } from '../../test/widget.ts';

type Survey = { uuid: string; conversation_uuid: string; sent_via: string; rating: number | null; editable_until: string };
type Detail = { uuid: string; csat: Survey | null; first_reply_at: string | null; last_reply_at: string | null; status: string };
type ChatMessage = { content: string; text_content: string; meta: Record<string, unknown>; author: { id: number | null } };

const DAY = 24 * 3_600_000;

async function setStatus(t: TestApp, uuid: string, status: string) {
  return dataOf<Detail>(await t.call({ method: 'PUT', url: `/api/v1/conversations/${uuid}/status`, payload: { status } }));
}

async function detail(t: TestApp, uuid: string) {
  return dataOf<Detail>(await t.call({ method: 'GET', url: `/api/v1/conversations/${uuid}` }));
}

async function surveyCount(t: TestApp, conversationUuid: string): Promise<number> {
  const row = await t.deps.db
    .selectFrom('csat_surveys as s')
    .innerJoin('conversations as c', 'c.id', 's.conversation_id')
    .where('c.uuid', '=', conversationUuid)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function surveyMessages(t: TestApp, conversationUuid: string) {
  return t.deps.db
    .selectFrom('messages as m')
    .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
    .where('c.uuid', '=', conversationUuid)
    .where(({ ref }) => ref('m.meta', '->>').key('csat_uuid' as never), 'is not', null)
    .select(['m.type', 'm.private', 'm.sender_id', 'm.status'])
    .execute();
}

describe('CSAT surveys', () => {
  const clock = fakeClock();
  let t: TestApp;

  before(async () => {
    t = await buildTestApp({ clock });
  });
  after(() => t.close());

  it('live chat: the first resolve creates one survey and a message the widget shows with meta.csat_uuid', async () => {
    const inbox = await createInbox(t, { csat_enabled: true });
    const visitor = await startVisitor(t, inbox.uuid);
    const resolved = await setStatus(t, visitor.conversationUuid, 'Resolved');
    const survey = resolved.csat;
    assert.ok(survey, 'the change answers the conversation with its survey');
    assert.equal(survey.conversation_uuid, visitor.conversationUuid);
    assert.equal(survey.sent_via, 'livechat');
    assert.equal(survey.rating, null);
    assert.equal(new Date(survey.editable_until).getTime(), clock.now().getTime() + 7 * DAY);
    assert.deepEqual((await detail(t, visitor.conversationUuid)).csat, survey);
    // Not an agent reply: no first or last reply time.
    assert.equal(resolved.first_reply_at, null);
    assert.equal(resolved.last_reply_at, null);

    const read = dataOf<{ messages: ChatMessage[] }>(
      await widgetCall(t, { url: `chat/conversations/${visitor.conversationUuid}`, inbox: inbox.uuid, token: visitor.token }),
    );
    const asked = read.messages.filter((m) => m.meta['csat_uuid'] !== undefined);
    assert.equal(asked.length, 1);
    assert.equal(asked[0]?.meta['csat_uuid'], survey.uuid);
    assert.equal(asked[0]?.author.id, null);
    assert.match(asked[0]?.text_content ?? '', new RegExp(`http://localhost:9000/csat/${survey.uuid}`));
    // The contact's own message carries no meta.
    assert.ok(read.messages.some((m) => m.meta['csat_uuid'] === undefined));
    assert.deepEqual(await surveyMessages(t, visitor.conversationUuid), [
      { type: 'outgoing', private: false, sender_id: null, status: 'pending' },
    ]);
  });

  it('a reopen and a second resolve (and Resolved → Closed) create no other survey', async () => {
    const inbox = await createInbox(t, { csat_enabled: true });
    const conversation = await createConversation(t, { inbox_id: inbox.id });
    const first = (await setStatus(t, conversation.uuid, 'Resolved')).csat;
    assert.ok(first);
    await setStatus(t, conversation.uuid, 'Closed');
    await setStatus(t, conversation.uuid, 'Open');
    const again = await setStatus(t, conversation.uuid, 'Resolved');
    assert.deepEqual(again.csat, first);
    assert.equal(await surveyCount(t, conversation.uuid), 1);
    assert.equal((await surveyMessages(t, conversation.uuid)).length, 1);
  });

  it('no survey when the inbox has CSAT off, nor on a change that is not into resolved', async () => {
    const off = await createInbox(t);
    const conversation = await createConversation(t, { inbox_id: off.id });
    assert.equal((await setStatus(t, conversation.uuid, 'Resolved')).csat, null);
    const on = await createInbox(t, { csat_enabled: true });
    const other = await createConversation(t, { inbox_id: on.id });
    const snoozed = dataOf<Detail>(
      await t.call({
        method: 'PUT',
        url: `/api/v1/conversations/${other.uuid}/status`,
        payload: { status: 'Snoozed', snoozed_until: '2h' },
      }),
    );
    assert.equal(snoozed.csat, null);
    assert.equal(await surveyCount(t, conversation.uuid), 0);
    assert.equal(await surveyCount(t, other.uuid), 0);
  });

  it('no survey from a disabled inbox, nor later: only the first resolve sends one', async () => {
    const inbox = await createInbox(t, { csat_enabled: true });
    const conversation = await createConversation(t, { inbox_id: inbox.id });
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/inboxes/${inbox.id}`, payload: { enabled: false } }));
    assert.equal((await setStatus(t, conversation.uuid, 'Resolved')).csat, null);
    await setStatus(t, conversation.uuid, 'Open');
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/inboxes/${inbox.id}`, payload: { enabled: true } }));
    assert.equal((await setStatus(t, conversation.uuid, 'Resolved')).csat, null, 'resolved before: not the first time');
    const fresh = await createConversation(t, { inbox_id: inbox.id });
    assert.ok((await setStatus(t, fresh.uuid, 'Resolved')).csat, 'a first resolve in the enabled inbox');
  });

  it('a macro that resolves sends the survey too', async () => {
    const inbox = await createInbox(t, { csat_enabled: true });
    const conversation = await createConversation(t, { inbox_id: inbox.id });
    const macro = dataOf<{ id: number }>(
      await t.call({
        method: 'POST',
        url: '/api/v1/macros',
        payload: { name: `Resolve ${conversation.uuid}`, actions: { set_status: 'Resolved' }, visibility: 'global' },
      }),
    );
    const applied = dataOf<{ conversation: Detail }>(
      await t.call({ method: 'POST', url: `/api/v1/conversations/${conversation.uuid}/macros/${macro.id}/apply`, payload: {} }),
    );
    assert.ok(applied.conversation.csat);
    assert.equal(await surveyCount(t, conversation.uuid), 1);
  });

  describe('the public API', () => {
    let uuid: string;
    let subject: string;

    before(async () => {
      const inbox = await createInbox(t, {
        csat_enabled: true,
        name: 'Chat of Acme',
        config: { brand_name: 'Acme', logo_url: 'https://acme.example/logo.png', colors: { primary: '#ff0000' } },
      });
      const conversation = await createConversation(t, { inbox_id: inbox.id, subject: 'Broken <b>invoice</b>' });
      subject = conversation.subject;
      uuid = (await setStatus(t, conversation.uuid, 'Resolved')).csat!.uuid;
    });

    const read = (id: string) => t.call({ method: 'GET', url: `/api/v1/csat/${id}`, as: null });
    const answer = (id: string, payload: unknown) =>
      t.call({ method: 'POST', url: `/api/v1/csat/${id}/response`, as: null, payload: payload as Record<string, unknown> });

    it('GET answers the survey with its brand, without credentials', async () => {
      const res = await read(uuid);
      const data = dataOf<Record<string, unknown>>(res);
      assert.deepEqual(Object.keys(data).sort(), [
        'brand',
        'conversation_subject',
        'editable_until',
        'feedback',
        'inbox_name',
        'rating',
        'submitted_at',
        'uuid',
      ]);
      assert.equal(data['conversation_subject'], subject);
      assert.equal(data['inbox_name'], 'Chat of Acme');
      assert.deepEqual(data['brand'], { name: 'Acme', logo_url: 'https://acme.example/logo.png', primary_color: '#ff0000' });
      assert.equal(data['rating'], null);
    });

    it('an email inbox brands with its name and nulls', async () => {
      const inbox = await createInbox(t, { channel: 'email', csat_enabled: true });
      const conversation = await createConversation(t, { inbox_id: inbox.id });
      const id = (await setStatus(t, conversation.uuid, 'Resolved')).csat!.uuid;
      const data = dataOf<{ brand: unknown; inbox_name: string }>(await read(id));
      assert.deepEqual(data.brand, { name: inbox.name, logo_url: null, primary_color: null });
    });

    it('POST answers, then changes the answer; the conversation carries it', async () => {
      const first = dataOf<{ rating: number; feedback: string; submitted_at: string }>(
        await answer(uuid, { rating: 4, feedback: '  Quick and kind.\r\nThanks  ' }),
      );
      assert.equal(first.rating, 4);
      assert.equal(first.feedback, 'Quick and kind.\nThanks');
      assert.equal(first.submitted_at, clock.now().toISOString());
      clock.advance(DAY);
      const second = dataOf<{ rating: number; feedback: string }>(await answer(uuid, { rating: 5 }));
      assert.deepEqual([second.rating, second.feedback], [5, 'Quick and kind.\nThanks'], 'an omitted feedback keeps the stored one');
      const data = dataOf<{ rating: number }>(await read(uuid));
      assert.equal(data.rating, 5);
      const row = await t.deps.db
        .selectFrom('csat_surveys as s')
        .innerJoin('conversations as c', 'c.id', 's.conversation_id')
        .where('s.uuid', '=', uuid)
        .select('c.uuid')
        .executeTakeFirstOrThrow();
      assert.equal((await detail(t, row.uuid)).csat?.rating, 5);
    });

    it('unknown and malformed uuids: 404', async () => {
      const unknown = '00000000-0000-4000-8000-000000000000';
      assertError(await read(unknown), 404, 'NotFoundException');
      assertError(await read('not-a-uuid'), 404, 'NotFoundException');
      assertError(await answer(unknown, { rating: 3 }), 404, 'NotFoundException');
      assertError(await answer('not-a-uuid', { rating: 3 }), 404, 'NotFoundException');
    });

    const refused: Array<[string, unknown, string]> = [
      ['rating 0', { rating: 0 }, 'rating'],
      ['rating 6', { rating: 6 }, 'rating'],
      ['rating "5"', { rating: '5' }, 'rating'],
      ['rating 4.5', { rating: 4.5 }, 'rating'],
      ['rating null', { rating: null }, 'rating'],
      ['no rating', { feedback: 'nice' }, 'rating'],
      ['NUL in feedback', { rating: 3, feedback: 'a\u0000b' }, 'feedback'],
      ['huge feedback', { rating: 3, feedback: 'x'.repeat(2001) }, 'feedback'],
      ['a numeric feedback', { rating: 3, feedback: 5 }, 'feedback'],
      ['an unknown field', { rating: 3, score: 3 }, 'score'],
    ];
    for (const [label, payload, field] of refused) {
      it(`400 for ${label}, and nothing changes`, async () => {
        const before = dataOf<unknown>(await read(uuid));
        const error = assertError(await answer(uuid, payload), 400, 'InputException', label);
        assert.match(error.message, new RegExp(field));
        assert.deepEqual(dataOf<unknown>(await read(uuid)), before);
      });
    }

    it('a body that is not JSON: 400 or 415', async () => {
      const res = await t.call({
        method: 'POST',
        url: `/api/v1/csat/${uuid}/response`,
        as: null,
        payload: 'rating=5',
        headers: { 'content-type': 'text/plain' },
      });
      assertError(res, 415, 'InputException');
    });

    it('7 days after the survey was sent: 422, the answer kept', async () => {
      const inbox = await createInbox(t, { csat_enabled: true });
      const conversation = await createConversation(t, { inbox_id: inbox.id });
      const survey = (await setStatus(t, conversation.uuid, 'Resolved')).csat!;
      clock.set(new Date(new Date(survey.editable_until).getTime()));
      dataOf(await answer(survey.uuid, { rating: 2 }));
      clock.advance(1);
      assertError(await answer(survey.uuid, { rating: 5 }), 422, 'DataException');
      assert.equal(dataOf<{ rating: number }>(await read(survey.uuid)).rating, 2);
    });
  });
});

describe('CSAT rate limit', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ env: { WIDGET_RATE_LIMIT_PER_MINUTE: '3' } });
  });
  after(() => t.close());

  it('per client address, across the API and the page: 429 with Retry-After', async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (let i = 0; i < 2; i++)
      assertError(await t.call({ method: 'GET', url: `/api/v1/csat/${unknown}`, as: null }), 404, 'NotFoundException');
    assert.equal((await t.call({ method: 'GET', url: `/csat/${unknown}`, as: null })).statusCode, 404);
    const limited = await t.call({ method: 'POST', url: `/api/v1/csat/${unknown}/response`, as: null, payload: { rating: 5 } });
    assertError(limited, 429, 'RateLimitException');
    assert.ok(Number(limited.headers['retry-after']) > 0);
    const page = await t.call({ method: 'GET', url: `/csat/${unknown}`, as: null });
    assert.equal(page.statusCode, 429);
    assert.match(String(page.headers['content-type']), /text\/html/);
    assert.ok(Number(page.headers['retry-after']) > 0);
    // Another address is not limited.
    const other = await t.app.inject({ method: 'GET', url: `/api/v1/csat/${unknown}`, remoteAddress: '10.0.0.9' });
    assert.equal(other.statusCode, 404);
  });
});
