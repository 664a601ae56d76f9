// A mail's files, and all-or-nothing: attachments and inline images stored and served, and a
// failure anywhere in taking a mail in (storage, a statement) writes nothing, so the reader's
// next attempt takes it in once.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readCursor } from './email.cursor.ts';
import { ingestMail } from './email.ingest.ts';
import { uniqueEmail } from '../../test/factories.ts';
import { ingestSuite } from '../../test/email-ingest.ts';
import { buildMail, newMessageId, nextSource } from '../../test/mail.ts';

type Attachment = {
  uuid: string;
  name: string;
  content_type: string;
  size: number;
  disposition: string;
  content_id: string | null;
  url: string;
};
type Message = { uuid: string; type: string; content: string; attachments: Attachment[] };

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

describe('email ingestion: files, and nothing written on failure', () => {
  const suite = ingestSuite<Message>();

  const counts = async () => {
    const attached = await suite.t.deps.db
      .selectFrom('media')
      .where('message_id', 'is not', null)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return {
      conversations: await suite.count('conversations'),
      messages: await suite.count('messages'),
      users: await suite.count('users'),
      mail_ids: await suite.count('mail_ids'),
      events: await suite.count('domain_events'),
      attached: Number(attached.n),
      cursor: (await readCursor(suite.t.deps.db, suite.inbox.id)) ?? null,
    };
  };
  const withFiles = (messageId = newMessageId()) =>
    buildMail({
      from: `Pat <${uniqueEmail('pat')}>`,
      to: suite.inbox.from,
      subject: 'Screenshot and invoice',
      html: '<p>See <img src="cid:shot-1@pat.example" alt="screenshot"> and the invoice.</p>',
      text: 'See the screenshot and the invoice.',
      messageId,
      attachments: [
        { filename: 'screenshot.png', content: PNG, contentType: 'image/png', cid: 'shot-1@pat.example' },
        { filename: 'invoice.pdf', content: PDF, contentType: 'application/pdf' },
      ],
    });

  it('stores attachments and inline images, with the Content-ID the HTML names, served by their signed URLs', async () => {
    const outcome = await ingestMail(suite.t.deps, suite.inbox, await withFiles(), nextSource());
    assert.equal(outcome.kind, 'stored');
    if (outcome.kind !== 'stored') return;
    const [message] = await suite.messages(outcome.conversationUuid);
    const byName = new Map(message?.attachments.map((a) => [a.name, a]));
    const inline = byName.get('screenshot.png');
    const file = byName.get('invoice.pdf');
    assert.deepEqual(
      { content_type: inline?.content_type, size: inline?.size, disposition: inline?.disposition, content_id: inline?.content_id },
      { content_type: 'image/png', size: PNG.length, disposition: 'inline', content_id: 'shot-1@pat.example' },
    );
    assert.deepEqual(
      { content_type: file?.content_type, size: file?.size, disposition: file?.disposition, content_id: file?.content_id },
      { content_type: 'application/pdf', size: PDF.length, disposition: 'attachment', content_id: null },
    );
    // Stored with its cid: link; read with the link pointing at the image's signed URL, which serves it.
    const row = await suite.t.deps.db
      .selectFrom('messages')
      .where('uuid', '=', outcome.messageUuid)
      .select('content')
      .executeTakeFirstOrThrow();
    assert.equal(row.content, '<p>See <img src="cid:shot-1@pat.example" alt="screenshot" /> and the invoice.</p>');
    const src = /<img src="([^"]+)"/.exec(message?.content ?? '')?.[1]?.replace(/&amp;/g, '&');
    assert.equal(src, inline?.url);
    const target = new URL(String(src));
    const served = await suite.t.call({ method: 'GET', url: target.pathname + target.search, as: null });
    assert.equal(served.statusCode, 200);
    assert.equal(served.headers['content-type'], 'image/png');
    assert.deepEqual(served.rawPayload, PNG);
  });

  it('writes nothing when storage fails part-way, and takes the mail in once on the next attempt', async () => {
    const raw = await withFiles();
    const before = await counts();
    const put = suite.t.deps.storage.put;
    let calls = 0;
    suite.t.deps.storage.put = async (...args) => {
      calls += 1;
      if (calls === 2) throw Object.assign(new Error('disk full'), { code: 'ENOSPC' });
      return put.apply(suite.t.deps.storage, args);
    };
    try {
      await assert.rejects(ingestMail(suite.t.deps, suite.inbox, raw, nextSource()), /disk full/);
    } finally {
      suite.t.deps.storage.put = put;
    }
    assert.deepEqual(await counts(), before);
    const outcome = await ingestMail(suite.t.deps, suite.inbox, raw, nextSource());
    assert.equal(outcome.kind, 'stored');
    assert.deepEqual(await ingestMail(suite.t.deps, suite.inbox, raw, nextSource()), { kind: 'duplicate' });
  });

  it('writes nothing when the last statement of the transaction fails (the cursor), contact and conversation included', async () => {
    const raw = await withFiles();
    const before = await counts();
    // A UIDVALIDITY beyond bigint: advanceCursor, the transaction's last statement, fails.
    const broken = { mailbox: 'INBOX', uidvalidity: 2 ** 70, uid: 1 };
    await assert.rejects(ingestMail(suite.t.deps, suite.inbox, raw, broken));
    assert.deepEqual(await counts(), before);
    const outcome = await ingestMail(suite.t.deps, suite.inbox, raw, nextSource());
    assert.equal(outcome.kind, 'stored');
    if (outcome.kind === 'stored') assert.equal((await suite.messages(outcome.conversationUuid))[0]?.attachments.length, 2);
  });

  it('takes a mail handed over twice at once in exactly once', async () => {
    const messageId = newMessageId();
    const raw = await withFiles(messageId);
    const outcomes = await Promise.all([
      ingestMail(suite.t.deps, suite.inbox, raw, nextSource()),
      ingestMail(suite.t.deps, suite.inbox, raw, nextSource()),
    ]);
    assert.deepEqual(outcomes.map((o) => o.kind).sort(), ['duplicate', 'stored']);
    const rows = await suite.t.deps.db.selectFrom('messages').where('source_id', '=', messageId).select('id').execute();
    assert.equal(rows.length, 1);
  });
});
