// Conversations from the widget: init (visitors, permissions, pre-chat, the daily cap), list,
// get, message, last seen, and uploads that store nothing when refused.
import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { assertError, buildTestApp, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { createWidgetInbox, startVisitor, WIDGET, widgetCall } from '../../test/widget.ts';

describe('widget conversations', () => {
  const clock = fakeClock();
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ clock, env: { WIDGET_MESSAGE_RATE_LIMIT_PER_MINUTE: '1000' } });
  });
  after(() => t.close());
  const count = async (table: 'users' | 'conversations' | 'media' | 'messages') =>
    Number(
      (
        await t.deps.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('init as a new visitor answers the conversation, messages and a session; bad bodies create nothing', async () => {
    const chat = await createWidgetInbox(t);
    const users = await count('users');
    for (const payload of [
      {},
      { message: '' },
      { message: 'x'.repeat(10001) },
      { message: 'a\u0000b' },
      { message: 'hi', form_data: { a: { b: 1 } } },
      { message: 'hi', extra: 1 },
      { message: '   ' },
    ]) {
      assertError(
        await widgetCall(t, { method: 'POST', url: 'chat/conversations/init', inbox: chat.uuid, payload }),
        400,
        'InputException',
        JSON.stringify(payload).slice(0, 40),
      );
    }
    assert.equal(await count('users'), users, 'no visitor for a refused init');
    const res = dataOf<Record<string, unknown>>(
      await widgetCall(t, { method: 'POST', url: 'chat/conversations/init', inbox: chat.uuid, payload: { message: '<b>hi</b>' } }),
    );
    assert.deepEqual(Object.keys(res).sort(), [
      'business_hours_id',
      'conversation',
      'messages',
      'session_token',
      'user',
      'working_hours_utc_offset',
    ]);
    assert.equal((res['user'] as { is_visitor: boolean }).is_visitor, true);
    assert.equal((res['messages'] as Array<{ content: string }>)[0]?.content, '<b>hi</b>');
    const meta = await t.deps.db
      .selectFrom('conversations')
      .select(['meta'])
      .where('uuid', '=', (res['conversation'] as { uuid: string }).uuid)
      .executeTakeFirstOrThrow();
    assert.ok('ip' in meta.meta && 'user_agent' in meta.meta);
  });

  it('applies permissions and the pre-chat form', async () => {
    const closed = await createWidgetInbox(t, { visitors: { allow_start_conversation: false } });
    const users = await count('users');
    assertError(
      await widgetCall(t, { method: 'POST', url: 'chat/conversations/init', inbox: closed.uuid, payload: { message: 'hi' } }),
      403,
      'PermissionException',
    );
    assert.equal(await count('users'), users);
    const form = await createWidgetInbox(t, { prechat_form: { enabled: true } });
    const missing = assertError(
      await widgetCall(t, {
        method: 'POST',
        url: 'chat/conversations/init',
        inbox: form.uuid,
        payload: { message: 'hi', form_data: { name: 'Zoe' } },
      }),
      400,
      'InputException',
    );
    assert.match(missing.message, /email/);
    assertError(
      await widgetCall(t, {
        method: 'POST',
        url: 'chat/conversations/init',
        inbox: form.uuid,
        payload: { message: 'hi', form_data: { name: 'Zoe', email: 'nope' } },
      }),
      400,
      'InputException',
    );
    const ok = await startVisitor(t, form.uuid, 'hi', { name: 'Zoe', email: 'zoe@example.com' });
    const me = dataOf<{ first_name: string }>(await widgetCall(t, { url: 'chat/auth/me', inbox: form.uuid, token: ok.token }));
    assert.equal(me.first_name, 'Zoe');
    const single = await createWidgetInbox(t, { visitors: { prevent_multiple_conversations: true } });
    const v = await startVisitor(t, single.uuid);
    assertError(
      await widgetCall(t, {
        method: 'POST',
        url: 'chat/conversations/init',
        inbox: single.uuid,
        token: v.token,
        payload: { message: 'again' },
      }),
      403,
      'PermissionException',
    );
  });

  it("stores the pre-chat form's first and last name as the contact's; a whole name as the first name", async () => {
    const form = await createWidgetInbox(t, { prechat_form: { enabled: true } });
    const contactOf = async (token: string) => {
      const me = dataOf<{ user_id: number }>(await widgetCall(t, { url: 'chat/auth/me', inbox: form.uuid, token }));
      return t.deps.db.selectFrom('users').select(['first_name', 'last_name']).where('id', '=', me.user_id).executeTakeFirstOrThrow();
    };
    const split = await startVisitor(t, form.uuid, 'hi', { first_name: ' Ada ', last_name: 'Lovelace', email: 'ada@example.com' });
    assert.deepEqual(await contactOf(split.token), { first_name: 'Ada', last_name: 'Lovelace' });
    const firstOnly = await startVisitor(t, form.uuid, 'hi', { first_name: 'Grace', email: 'grace@example.com' });
    assert.deepEqual(await contactOf(firstOnly.token), { first_name: 'Grace', last_name: '' });
    const whole = await startVisitor(t, form.uuid, 'hi', { name: 'Alan Turing', email: 'alan@example.com' });
    assert.deepEqual(await contactOf(whole.token), { first_name: 'Alan Turing', last_name: '' });
    const init = (formData: Record<string, unknown>) =>
      widgetCall(t, { method: 'POST', url: 'chat/conversations/init', inbox: form.uuid, payload: { message: 'hi', form_data: formData } });
    const users = await count('users');
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['a last name alone', { last_name: 'Lovelace', email: 'x@example.com' }, 'form_data.first_name'],
      ['no name at all', { email: 'x@example.com' }, 'form_data.first_name'],
      ['a blank first name', { first_name: '  ', last_name: 'L', email: 'x@example.com' }, 'form_data.first_name'],
      ['a first name too long', { first_name: 'a'.repeat(129), email: 'x@example.com' }, 'form_data.first_name'],
      ['a last name too long', { first_name: 'Ada', last_name: 'b'.repeat(129), email: 'x@example.com' }, 'form_data.last_name'],
      ['a number as last name', { first_name: 'Ada', last_name: 7, email: 'x@example.com' }, 'form_data.last_name'],
    ];
    for (const [label, formData, field] of cases) {
      const refused = assertError(await init(formData), 400, 'InputException', label);
      assert.deepEqual(
        (refused.data as { errors: Array<{ field: string }> }).errors.map((e) => e.field),
        [field],
        label,
      );
    }
    assert.equal(await count('users'), users, 'no visitor for a refused form');
  });

  it('caps new conversations at 50 per contact per 24 h (429 with Retry-After)', async () => {
    const chat = await createWidgetInbox(t);
    const v = await startVisitor(t, chat.uuid);
    for (let i = 1; i < 50; i += 1)
      dataOf(
        await widgetCall(t, {
          method: 'POST',
          url: 'chat/conversations/init',
          inbox: chat.uuid,
          token: v.token,
          payload: { message: `n${i}` },
        }),
      );
    const refused = await widgetCall(t, {
      method: 'POST',
      url: 'chat/conversations/init',
      inbox: chat.uuid,
      token: v.token,
      payload: { message: 'one too many' },
    });
    assertError(refused, 429, 'RateLimitException');
    assert.ok(Number(refused.headers['retry-after']) > 0);
    clock.advance(24 * 3_600_000 + 1000);
    dataOf(
      await widgetCall(t, {
        method: 'POST',
        url: 'chat/conversations/init',
        inbox: chat.uuid,
        token: v.token,
        payload: { message: 'next day' },
      }),
    );
  });

  it('lists, reads, sends, reopens, refuses Closed when configured, marks seen; other contacts get 403, unknown 404', async () => {
    const chat = await createWidgetInbox(t, { visitors: { prevent_reply_to_closed_conversation: true } });
    const v = await startVisitor(t, chat.uuid);
    const stranger = await startVisitor(t, chat.uuid);
    const url = `chat/conversations/${v.conversationUuid}`;
    assert.equal(dataOf<unknown[]>(await widgetCall(t, { url: 'chat/conversations', inbox: chat.uuid, token: v.token })).length, 1);
    assertError(await widgetCall(t, { url, inbox: chat.uuid, token: stranger.token }), 403, 'PermissionException');
    assertError(
      await widgetCall(t, { url: 'chat/conversations/00000000-0000-4000-8000-000000000000', inbox: chat.uuid, token: v.token }),
      404,
      'NotFoundException',
    );
    assertError(await widgetCall(t, { url: 'chat/conversations/not-a-uuid', inbox: chat.uuid, token: v.token }), 404, 'NotFoundException');
    await t.call({ method: 'POST', url: `/api/v1/conversations/${v.conversationUuid}/messages`, payload: { message: 'Agent reply' } });
    await t.call({
      method: 'POST',
      url: `/api/v1/conversations/${v.conversationUuid}/messages`,
      payload: { message: 'Secret', private: true },
    });
    const read = dataOf<{ conversation: { unread_message_count: number }; messages: Array<{ text_content: string }> }>(
      await widgetCall(t, { url, inbox: chat.uuid, token: v.token }),
    );
    assert.deepEqual(
      read.messages.map((m) => m.text_content),
      ['Agent reply', 'Hello from the widget'],
    );
    assert.equal(read.conversation.unread_message_count, 1);
    assert.equal(dataOf(await widgetCall(t, { method: 'POST', url: `${url}/update-last-seen`, inbox: chat.uuid, token: v.token })), true);
    const seen = dataOf<{ conversation: { unread_message_count: number } }>(await widgetCall(t, { url, inbox: chat.uuid, token: v.token }));
    assert.equal(seen.conversation.unread_message_count, 0);
    assertError(
      await widgetCall(t, { method: 'POST', url: `${url}/update-last-seen`, inbox: chat.uuid, token: stranger.token }),
      403,
      'PermissionException',
    );
    await t.call({ method: 'PUT', url: `/api/v1/conversations/${v.conversationUuid}/status`, payload: { status: 'Resolved' } });
    const sent = dataOf<{ text_content: string }>(
      await widgetCall(t, { method: 'POST', url: `${url}/message`, inbox: chat.uuid, token: v.token, payload: { message: 'Back again' } }),
    );
    assert.equal(sent.text_content, 'Back again');
    const status = await t.call({ method: 'GET', url: `/api/v1/conversations/${v.conversationUuid}` });
    assert.equal(dataOf<{ status: string }>(status).status, 'Open');
    await t.call({ method: 'PUT', url: `/api/v1/conversations/${v.conversationUuid}/status`, payload: { status: 'Closed' } });
    assertError(
      await widgetCall(t, { method: 'POST', url: `${url}/message`, inbox: chat.uuid, token: v.token, payload: { message: 'Closed?' } }),
      403,
      'PermissionException',
    );
    assertError(
      await widgetCall(t, { method: 'POST', url: `${url}/message`, inbox: chat.uuid, token: v.token, payload: { message: 5 } }),
      400,
      'InputException',
    );
    assertError(
      await widgetCall(t, { method: 'POST', url: `${url}/message`, inbox: chat.uuid, payload: { message: 'x' } }),
      401,
      'UnauthorizedException',
    );
  });

  function multipart(parts: Array<{ name: string; filename?: string; content: Buffer | string; type?: string }>) {
    const boundary = 'widgetboundary';
    const chunks: Buffer[] = [];
    for (const part of parts) {
      const disposition = `form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}`;
      chunks.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: ${disposition}\r\n${part.filename ? `Content-Type: ${part.type ?? 'application/octet-stream'}\r\n` : ''}\r\n`,
        ),
      );
      chunks.push(Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content));
      chunks.push(Buffer.from('\r\n'));
    }
    chunks.push(Buffer.from(`--${boundary}--\r\n`));
    return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
  }

  it('uploads files as one message; refusals store nothing', async () => {
    const chat = await createWidgetInbox(t, { file_upload: { max_size_mb: 0.001, allowed_extensions: ['png', 'txt'] } });
    const v = await startVisitor(t, chat.uuid);
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100)]);
    const upload = (parts: Parameters<typeof multipart>[0], token = v.token) => {
      const body = multipart(parts);
      return t.app.inject({
        method: 'POST',
        url: `${WIDGET}/media/upload`,
        payload: body.payload,
        headers: { ...body.headers, 'x-service-inbox-id': chat.uuid, authorization: `Bearer ${token}` },
      });
    };
    const conv = { name: 'conversation_uuid', content: v.conversationUuid };
    const storedFiles = async () => {
      try {
        return (await readdir(join(t.deps.config.dataDir, 'uploads'), { recursive: true })).length;
      } catch {
        return 0;
      }
    };
    const before = { media: await count('media'), messages: await count('messages'), files: await storedFiles() };
    const refusals: Array<[Parameters<typeof multipart>[0], number]> = [
      [[conv], 400],
      [[conv, { name: 'files', filename: 'empty.txt', content: '' }], 400],
      [[conv, { name: 'files', filename: 'big.txt', content: 'x'.repeat(2000) }], 413],
      [[conv, { name: 'files', filename: 'evil.exe', content: 'MZ' }], 415],
      [[conv, { name: 'files', filename: 'fake.png', content: 'not a png' }], 415],
      [[conv, { name: 'files', filename: 'ok.txt', content: 'fine' }, { name: 'files', filename: 'bad.exe', content: 'MZ' }], 415],
      [[{ name: 'files', filename: 'ok.txt', content: 'fine' }], 400],
    ];
    for (const [parts, status] of refusals)
      assert.equal((await upload(parts)).statusCode, status, JSON.stringify(parts.map((p) => p.filename)));
    assert.deepEqual({ media: await count('media'), messages: await count('messages'), files: await storedFiles() }, before);
    const res = await upload([
      conv,
      { name: 'files', filename: 'a.png', content: png, type: 'image/png' },
      { name: 'files', filename: 'b.txt', content: 'notes' },
    ]);
    const message = dataOf<{ attachments: Array<{ name: string; thumbnail_url: string; url: string }> }>(
      Object.assign(res, { json: () => JSON.parse(res.body) }),
    );
    assert.deepEqual(
      message.attachments.map((a) => a.name),
      ['a.png', 'b.txt'],
    );
    assert.ok(message.attachments[0]?.thumbnail_url);
    assert.equal(message.attachments[1]?.thumbnail_url, '');
    assert.equal(await count('messages'), before.messages + 1);
    const disabled = await createWidgetInbox(t, { file_upload: { enabled: false } });
    const dv = await startVisitor(t, disabled.uuid);
    const body = multipart([
      { name: 'conversation_uuid', content: dv.conversationUuid },
      { name: 'files', filename: 'a.txt', content: 'x' },
    ]);
    const off = await t.app.inject({
      method: 'POST',
      url: `${WIDGET}/media/upload`,
      payload: body.payload,
      headers: { ...body.headers, 'x-service-inbox-id': disabled.uuid, authorization: `Bearer ${dv.token}` },
    });
    assert.equal(off.statusCode, 403);
  });
});
