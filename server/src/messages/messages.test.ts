// Messages under a conversation: list, get one (spec), send with sanitising and Idempotency-Key.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { agentWith, createInbox } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, fakeClock, type TestApp } from '../../test/helpers.ts';
import { deliverLivechatMessage } from './messages.delivery.ts';

type Json = Record<string, unknown>;
type Message = Json & {
  id: number;
  uuid: string;
  type: string;
  status: string;
  conversation_id: number;
  conversation_uuid: string;
  content: string;
  text_content: string;
  content_type: string;
  private: boolean;
  sender_id: number | null;
  sender_type: string;
  meta: { to: string[]; cc: string[]; bcc: string[]; from: string[]; subject: string } & Json;
  attachments: Array<Json & { uuid: string; name: string; url: string }>;
};
type Paged<T> = { results: T[]; total: number; per_page: number; total_pages: number; page: number };

const MESSAGE_FIELDS = [
  'attachments',
  'content',
  'content_type',
  'conversation_id',
  'conversation_uuid',
  'created_at',
  'id',
  'meta',
  'private',
  'sender_id',
  'sender_type',
  'status',
  'text_content',
  'type',
  'updated_at',
  'uuid',
].sort();

let seq = 0;
const email = () => `m-${process.pid}-${++seq}@example.com`;

function multipart(files: Array<{ name: string; type: string; data: Buffer }>) {
  const boundary = `----parley${Date.now()}${++seq}`;
  const parts: Buffer[] = [];
  for (const f of files) {
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${f.name}"\r\nContent-Type: ${f.type}\r\n\r\n`),
    );
    parts.push(f.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('messages', () => {
  const clock = fakeClock();
  let t: TestApp;
  let inboxId: number;
  let alice: Caller;
  let reader: Caller; // messages:read but not messages:write
  let conversation: { uuid: string; id: number };

  const as = (caller?: Caller | null) => (caller !== undefined ? { as: caller } : {});
  const send = (uuid: string, payload: Json, caller?: Caller | null, headers: Record<string, string> = {}) => {
    clock.advance(1000);
    return t.call({ method: 'POST', url: `/api/v1/conversations/${uuid}/messages`, payload, headers, ...as(caller) });
  };
  const list = (uuid: string, query = '', caller?: Caller | null) =>
    t.call({ method: 'GET', url: `/api/v1/conversations/${uuid}/messages${query}`, ...as(caller) });
  const getOne = (cuuid: string, uuid: string, caller?: Caller | null) =>
    t.call({ method: 'GET', url: `/api/v1/conversations/${cuuid}/messages/${uuid}`, ...as(caller) });
  const start = async (extra: Json = {}) =>
    dataOf<{ uuid: string; id: number }>(
      await t.call({
        method: 'POST',
        url: '/api/v1/conversations',
        payload: { inbox_id: inboxId, contact_email: email(), content: 'Hello', initiator: 'contact', ...extra },
      }),
    );
  const count = async (conversationId: number) =>
    (
      await t.deps.db
        .selectFrom('messages')
        .where('conversation_id', '=', conversationId)
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n;

  before(async () => {
    t = await buildTestApp({ clock });
    inboxId = (await createInbox(t, { name: 'Chat' })).id;
    alice = await t.makeAgent();
    reader = await agentWith(t, ['conversations:read', 'conversations:read_all', 'messages:read']);
    conversation = await start();
  });
  after(() => t.close());

  describe('POST /conversations/{uuid}/messages', () => {
    it('a reply: HTML sanitised, text derived, pending, the conversation updated, an event recorded', async () => {
      const m = dataOf<Message>(
        await send(conversation.uuid, {
          message:
            '<p onclick="x()">Thanks, <b>fixed</b>! <a href="javascript:alert(1)">link</a><script>alert(1)</script><img src="x" onerror="y()"></p>',
        }),
      );
      assert.deepEqual(Object.keys(m).sort(), MESSAGE_FIELDS);
      assert.equal(m.type, 'outgoing');
      assert.equal(m.status, 'pending');
      assert.equal(m.private, false);
      assert.equal(m.sender_type, 'agent');
      assert.equal(m.sender_id, t.admin.id);
      assert.equal(m.content_type, 'html');
      assert.equal(m.conversation_uuid, conversation.uuid);
      assert.equal(m.conversation_id, conversation.id);
      assert.doesNotMatch(m.content, /script|onclick|onerror|javascript:/);
      assert.match(m.content, /<b>fixed<\/b>/);
      assert.equal(m.text_content, 'Thanks, fixed! link');
      assert.deepEqual(m.meta, { to: [], cc: [], bcc: [], from: [], subject: '' });
      assert.deepEqual(m.attachments, []);
      const c = dataOf<Json>(await t.call({ method: 'GET', url: `/api/v1/conversations/${conversation.uuid}` }));
      assert.equal(c['last_message'], 'Thanks, fixed! link');
      assert.equal(c['last_message_sender'], 'agent');
      assert.equal(c['waiting_since'], null, 'a reply ends the wait');
      assert.ok(c['first_reply_at']);
      const event = await t.deps.db
        .selectFrom('domain_events')
        .where('type', '=', 'message.created')
        .select('payload')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      assert.equal((event.payload as Json)['message_uuid'], m.uuid);
    });

    it('a live-chat reply becomes sent when its delivery job runs (once, even when retried)', async () => {
      const c = await start();
      const m = dataOf<Message>(await send(c.uuid, { message: 'delivered?' }));
      assert.equal(m.status, 'pending');
      const job = await t.deps.db
        .selectFrom('jobs')
        .where('kind', '=', 'livechat.deliver')
        .select('payload')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      assert.equal((job.payload as Json)['message_uuid'], m.uuid);
      await deliverLivechatMessage(t.deps, job.payload as Json);
      await deliverLivechatMessage(t.deps, job.payload as Json);
      assert.equal(dataOf<Message>(await getOne(c.uuid, m.uuid)).status, 'sent');
      const updates = await t.deps.db.selectFrom('domain_events').where('type', '=', 'message.updated').select('payload').execute();
      assert.equal(updates.filter((e) => (e.payload as Json)['message_uuid'] === m.uuid).length, 1);
      await assert.rejects(deliverLivechatMessage(t.deps, { message_id: 'x' }), /message_id/);
    });

    it('delivers many replies run at once together: each is sent, with one message.updated each', async () => {
      const replies = [];
      for (let i = 0; i < 6; i++) replies.push(dataOf<Message>(await send(conversation.uuid, { message: `<p>batch ${i}</p>` })));
      const jobs = await t.deps.db
        .selectFrom('jobs')
        .where('kind', '=', 'livechat.deliver')
        .select('payload')
        .orderBy('id', 'desc')
        .limit(replies.length)
        .execute();
      // The same job twice at once too (a retry racing its first run): still one update.
      await Promise.all([...jobs, jobs[0]].map((job) => deliverLivechatMessage(t.deps, job?.payload as Json)));
      const updates = await t.deps.db.selectFrom('domain_events').where('type', '=', 'message.updated').select('payload').execute();
      for (const reply of replies) {
        assert.equal(dataOf<Message>(await getOne(conversation.uuid, reply.uuid)).status, 'sent');
        assert.equal(updates.filter((e) => (e.payload as Json)['message_uuid'] === reply.uuid).length, 1, reply.uuid);
      }
    });

    it('a private note is sent at once and does not touch the preview; plain text is kept as text', async () => {
      const before = dataOf<Json>(await t.call({ method: 'GET', url: `/api/v1/conversations/${conversation.uuid}` }));
      const note = dataOf<Message>(await send(conversation.uuid, { message: 'internal <b>only</b>', private: true, content_type: 'text' }));
      assert.equal(note.private, true);
      assert.equal(note.status, 'sent');
      assert.equal(note.content, 'internal <b>only</b>');
      assert.equal(note.text_content, 'internal <b>only</b>');
      const afterNote = dataOf<Json>(await t.call({ method: 'GET', url: `/api/v1/conversations/${conversation.uuid}` }));
      assert.equal(afterNote['last_message'], before['last_message']);
    });

    it('to/cc/bcc are kept in meta', async () => {
      const m = dataOf<Message>(
        await send(conversation.uuid, { message: 'cc', to: ['a@example.com'], cc: ['b@example.com'], bcc: ['c@example.com'] }),
      );
      assert.deepEqual([m.meta.to, m.meta.cc, m.meta.bcc], [['a@example.com'], ['b@example.com'], ['c@example.com']]);
    });

    it('bad input is a 400 and stores nothing', async () => {
      const before = await count(conversation.id);
      const cases: Array<[string, Json]> = [
        ['no message', {}],
        ['message not a string', { message: 5 }],
        ['blank html', { message: '<p>  </p><script>1</script>' }],
        ['bad content type', { message: 'x', content_type: 'markdown' }],
        ['private not a boolean', { message: 'x', private: 'yes' }],
        ['bad cc', { message: 'x', cc: ['nope'] }],
        ['unknown attachment', { message: 'x', attachments: ['00000000-0000-4000-8000-000000000000'] }],
        ['attachment not a uuid', { message: 'x', attachments: ['abc'] }],
        ['unknown property', { message: 'x', colour: 1 }],
      ];
      for (const [label, payload] of cases) {
        const res = await send(conversation.uuid, payload);
        assert.equal(res.statusCode, 400, `${label}: ${res.body}`);
        assertError(res, 400, 'InputException');
      }
      assert.equal(await count(conversation.id), before);
    });

    it('HTML nested deeper than 100 levels is a 400 naming the field, not a 500; 100 levels are fine', async () => {
      const before = await count(conversation.id);
      for (const message of [
        '<div>'.repeat(3000),
        '<b>'.repeat(20000),
        '<x-unknown>'.repeat(101),
        `${'<div>'.repeat(101)}x${'</div>'.repeat(101)}`,
      ]) {
        const res = await send(conversation.uuid, { message });
        const err = assertError(res, 400, 'InputException');
        assert.equal(err.message, 'message: HTML is nested deeper than 100 levels');
        assert.deepEqual(err.data, { errors: [{ field: 'message', reason: 'HTML is nested deeper than 100 levels' }] });
      }
      assert.equal(await count(conversation.id), before, 'nothing stored');
      // Void elements and implied end tags do not nest: a long list of unclosed items is one level.
      const flat = dataOf<Message>(await send(conversation.uuid, { message: `<ul>${'<li>item<br>'.repeat(500)}</ul>` }));
      assert.match(flat.text_content, /item/);
      const deepest = dataOf<Message>(await send(conversation.uuid, { message: `${'<div>'.repeat(100)}deep${'</div>'.repeat(100)}` }));
      assert.equal(deepest.text_content, 'deep');
      // Plain text is never parsed as HTML.
      assert.equal(
        dataOf<Message>(await send(conversation.uuid, { message: '<div>'.repeat(3000), content_type: 'text' })).content_type,
        'text',
      );
    });

    it('unknown conversation 404, no credentials 401, no messages:write 403, someone else’s conversation 403', async () => {
      assertError(await send('00000000-0000-4000-8000-000000000000', { message: 'x' }), 404, 'NotFoundException');
      assertError(await send('nope', { message: 'x' }), 404, 'NotFoundException');
      assertError(await send(conversation.uuid, { message: 'x' }, null), 401, 'UnauthorizedException');
      assertError(await send(conversation.uuid, { message: 'x' }, reader), 403, 'PermissionException');
      const someoneElses = await start({ assignee_id: t.admin.id });
      assertError(await send(someoneElses.uuid, { message: 'x' }, alice), 403, 'PermissionException');
      assert.equal(await count(someoneElses.id), 1);
    });

    it('Idempotency-Key: a retry returns the first message; another request with the key is a 422; concurrent retries make one message', async () => {
      const c = await start();
      const key = { 'idempotency-key': `key-${Date.now()}` };
      const first = dataOf<Message>(await send(c.uuid, { message: 'once' }, undefined, key));
      const retry = dataOf<Message>(await send(c.uuid, { message: 'once' }, undefined, key));
      assert.equal(retry.uuid, first.uuid);
      assert.equal(await count(c.id), 2);
      assertError(await send(c.uuid, { message: 'different' }, undefined, key), 422, 'DataException');
      const otherAgentSameKey = dataOf<Message>(await send(c.uuid, { message: 'once' }, alice, key));
      assert.notEqual(otherAgentSameKey.uuid, first.uuid, 'keys belong to one agent');
      const raceKey = { 'idempotency-key': `race-${Date.now()}` };
      const results = await Promise.all(Array.from({ length: 5 }, () => send(c.uuid, { message: 'race' }, undefined, raceKey)));
      const uuids = new Set(results.map((r) => dataOf<Message>(r).uuid));
      assert.equal(uuids.size, 1);
      assert.equal(await count(c.id), 4);
      assertError(await send(c.uuid, { message: 'x' }, undefined, { 'idempotency-key': 'has space' }), 400, 'InputException');
    });

    it('attachments from the upload endpoint are attached once, with signed URLs', async () => {
      const c = await start();
      const upload = multipart([{ name: 'report.pdf', type: 'application/pdf', data: Buffer.from('%PDF-1.4 test') }]);
      const res = await t.call({ method: 'POST', url: '/api/v1/media/upload', ...upload, headers: { ...upload.headers } });
      const files = dataOf<Array<{ uuid: string }>>(res);
      const media = files[0];
      assert.ok(media);
      const m = dataOf<Message>(await send(c.uuid, { message: '', attachments: [media.uuid] }));
      assert.equal(m.attachments.length, 1);
      assert.equal(m.attachments[0]?.name, 'report.pdf');
      assert.match(m.attachments[0]?.url ?? '', /sig=/);
      const preview = dataOf<Json>(await t.call({ method: 'GET', url: `/api/v1/conversations/${c.uuid}` }));
      assert.equal(preview['last_message'], 'File');
      assertError(await send(c.uuid, { message: 'again', attachments: [media.uuid] }), 400, 'InputException');
      const listed = dataOf<Paged<Message>>(await list(c.uuid));
      assert.equal(listed.results[0]?.attachments[0]?.uuid, media.uuid);
    });
  });

  describe('GET messages', () => {
    it('the list is newest first and paged; one message exactly per spec; another conversation’s message is 404', async () => {
      const c = await start();
      for (let i = 1; i <= 4; i += 1) dataOf(await send(c.uuid, { message: `reply ${i}` }));
      const page = dataOf<Paged<Message>>(await list(c.uuid, '?page_size=2'));
      assert.equal(page.total, 5);
      assert.equal(page.total_pages, 3);
      assert.deepEqual(
        page.results.map((m) => m.text_content),
        ['reply 4', 'reply 3'],
      );
      const last = dataOf<Paged<Message>>(await list(c.uuid, '?page=3&page_size=2'));
      assert.deepEqual(
        last.results.map((m) => m.type),
        ['incoming'],
      );
      const one = dataOf<Message>(await getOne(c.uuid, page.results[0]?.uuid ?? ''));
      assert.deepEqual(Object.keys(one).sort(), MESSAGE_FIELDS);
      assert.equal(one.text_content, 'reply 4');
      assertError(await getOne(conversation.uuid, one.uuid), 404, 'NotFoundException');
      assertError(await getOne(c.uuid, '00000000-0000-4000-8000-000000000000'), 404, 'NotFoundException');
      assertError(await getOne(c.uuid, 'x'), 404, 'NotFoundException');
      assertError(await list(c.uuid, '?page=x'), 400, 'InputException');
      assertError(await list(c.uuid, '', null), 401, 'UnauthorizedException');
      dataOf(await list(c.uuid, '', reader));
    });

    it('a conversation the caller may not read: 403 on the list and on one message', async () => {
      const c = await start({ assignee_id: t.admin.id });
      const first = dataOf<Paged<Message>>(await list(c.uuid)).results[0];
      assert.ok(first);
      assertError(await list(c.uuid, '', alice), 403, 'PermissionException');
      assertError(await getOne(c.uuid, first.uuid, alice), 403, 'PermissionException');
    });
  });
});
