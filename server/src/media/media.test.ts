// Media: uploads (POST /api/v1/media/upload), signed downloads (GET /api/v1/media/{uuid}),
// the functions the messages and channel code call, orphan purge, and both storage
// backends (local disk; S3 through the AWS SDK against a local fake S3 server).
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { KyselyPlugin } from 'kysely';
import pino from 'pino';
import { agentWith, createConversation } from '../../test/factories.ts';
import { assertError, buildTestApp, type Caller, dataOf, type ErrorBody, fakeClock, type TestApp } from '../../test/helpers.ts';
import { type FakeS3, startFakeS3 } from '../../test/s3-fake.ts';
import { ConfigError, loadConfig } from '../config.ts';
import type { DB } from '../db/database.ts';
import type { AttachmentRecord } from './media.schema.ts';
import { sanitiseFilename } from './media.files.ts';
import { attachMediaToMessage, attachmentsByMessage, purgeOrphanMedia, storeMedia } from './media.service.ts';
import { signedMediaUrl } from './media.signing.ts';
import { localStorage, type MediaStorage } from './media.storage.ts';
import { s3Storage } from './media.storage-s3.ts';

type Response = { statusCode: number; body: string; rawPayload: Buffer; headers: Record<string, unknown>; json: () => unknown };

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(64)]);
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(64)]);
const GIF = Buffer.concat([Buffer.from('GIF89a', 'latin1'), randomBytes(32)]);
const WEBP = Buffer.concat([
  Buffer.from('RIFF', 'latin1'),
  Buffer.from([0x10, 0, 0, 0]),
  Buffer.from('WEBPVP8 ', 'latin1'),
  randomBytes(32),
]);

interface Part {
  name: string;
  filename?: string;
  type?: string;
  data: Buffer | string;
  /** Raw Content-Disposition parameters after the name, replacing filename. */
  disposition?: string;
}

/** A multipart/form-data body built by hand, as a browser would send it. */
function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----ParleyTest${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const filename = part.disposition ?? (part.filename !== undefined ? `; filename="${part.filename}"` : '');
    const type = part.type ? `Content-Type: ${part.type}\r\n` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${filename}\r\n${type}\r\n`, 'utf8'));
    chunks.push(Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data, 'utf8'));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

function file(filename: string, data: Buffer | string, type = 'text/plain'): Part {
  return { name: 'files', filename, type, data };
}

/** An error envelope whose message names no internals (Fastify codes, stack frames) and matches pattern. */
function fails(response: Response, status: number, errorType: string, pattern?: RegExp): ErrorBody {
  const body = assertError(response, status, errorType);
  assert.doesNotMatch(body.message, /FST_|stack|at .*\.ts/);
  if (pattern) assert.match(body.message, pattern);
  return body;
}

/** Every file under dir, relative to it. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

async function mediaRows(db: DB) {
  return db
    .selectFrom('media')
    .select(['id', 'uuid', 'filename', 'content_type', 'size', 'storage_key', 'disposition', 'message_id', 'uploaded_by'])
    .orderBy('id')
    .execute();
}

function uploadsDir(t: TestApp): string {
  const storage = t.deps.config.storage;
  assert.equal(storage.kind, 'local');
  return storage.kind === 'local' ? storage.dir : '';
}

/** The path and query of an absolute signed URL, for inject. */
function pathOf(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

function withQuery(url: string, change: (params: URLSearchParams) => void): string {
  const parsed = new URL(url);
  change(parsed.searchParams);
  return parsed.pathname + parsed.search;
}

/** A message to attach uploads to: a reply in a new conversation. */
async function makeMessage(t: TestApp): Promise<number> {
  const conversation = await createConversation(t);
  const payload = { message: 'see attached' };
  return dataOf<{ id: number }>(await t.call({ method: 'POST', url: `/api/v1/conversations/${conversation.uuid}/messages`, payload })).id;
}

describe('media (local disk storage)', () => {
  const clock = fakeClock();
  let t: TestApp;
  let writer: Caller;
  let reader: Caller;

  before(async () => {
    t = await buildTestApp({ clock });
    writer = await t.makeAgent({ roles: ['Agent'] });
    reader = await agentWith(t, ['messages:read', 'conversations:read']);
  });
  after(() => t.close());

  const upload = (parts: Part[], as?: Caller | null) => {
    const body = multipart(parts);
    return t.call({
      method: 'POST',
      url: '/api/v1/media/upload',
      payload: body.payload,
      headers: body.headers,
      ...(as !== undefined ? { as } : {}),
    });
  };
  const uploaded = async (parts: Part[], as?: Caller | null) => dataOf<AttachmentRecord[]>(await upload(parts, as));
  const download = (url: string) => t.call({ method: 'GET', url: url.startsWith('http') ? pathOf(url) : url, as: null });

  /** Runs a refused request and checks it changed nothing: no row, no stored file, no temporary file. */
  async function refusedWithoutTrace(request: () => Promise<Response>, status: number, pattern?: RegExp): Promise<ErrorBody> {
    const rowsBefore = await mediaRows(t.deps.db);
    const filesBefore = filesUnder(uploadsDir(t));
    const body = fails(await request(), status, 'InputException', pattern);
    assert.deepEqual(await mediaRows(t.deps.db), rowsBefore, 'no media row written');
    assert.deepEqual(filesUnder(uploadsDir(t)), filesBefore, 'no file stored');
    assert.deepEqual(filesUnder(join(t.deps.config.dataDir, 'tmp')), [], 'no temporary file left');
    return body;
  }

  describe('POST /api/v1/media/upload', () => {
    it('stores a file and answers it as an unattached attachment with a signed URL', async () => {
      const [attachment] = await uploaded([file('notes.txt', 'hello, world\n')], writer);
      assert.ok(attachment);
      assert.deepEqual(Object.keys(attachment).sort(), ['content_id', 'content_type', 'disposition', 'name', 'size', 'url', 'uuid']);
      assert.match(attachment.uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      assert.equal(attachment.name, 'notes.txt');
      assert.equal(attachment.content_type, 'text/plain');
      assert.equal(attachment.size, 13);
      assert.equal(attachment.disposition, 'attachment');
      assert.equal(attachment.content_id, null);
      const url = new URL(attachment.url);
      assert.equal(url.origin, 'http://localhost:9000');
      assert.equal(url.pathname, `/api/v1/media/${attachment.uuid}`);
      assert.equal(Number(url.searchParams.get('exp')), Math.floor(clock.now().getTime() / 1000) + 3600, 'valid one hour');
      assert.match(url.searchParams.get('sig') ?? '', /^[A-Za-z0-9_-]{43}$/);

      const row = (await mediaRows(t.deps.db)).find((r) => r.uuid === attachment.uuid);
      assert.ok(row);
      assert.equal(row.uploaded_by, writer.id);
      assert.equal(row.message_id, null);
      assert.doesNotMatch(row.storage_key, /notes/, 'the client file name never reaches the storage key');
      assert.equal(readFileSync(join(uploadsDir(t), row.storage_key), 'utf8'), 'hello, world\n');
    });

    it('stores several files in order; real raster images are inline whatever their declared type', async () => {
      const data = await uploaded(
        [
          file('photo.png', PNG, 'application/octet-stream'),
          file('report.pdf', '%PDF-1.4 fake', 'application/pdf'),
          file('a.jpg', JPEG, 'image/jpeg'),
          file('b.gif', GIF, 'image/gif'),
          file('c.webp', WEBP, 'image/webp'),
          file('fake.png', '<html><script>alert(1)</script></html>', 'image/png'),
          file('logo.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'image/svg+xml'),
          file('odd.bin', 'x', 'not a media type'),
          file('typed.txt', 'x', 'Text/Plain; charset=UTF-8'),
        ],
        writer,
      );
      assert.deepEqual(
        data.map((a) => [a.name, a.content_type, a.disposition]),
        [
          ['photo.png', 'image/png', 'inline'],
          ['report.pdf', 'application/pdf', 'attachment'],
          ['a.jpg', 'image/jpeg', 'inline'],
          ['b.gif', 'image/gif', 'inline'],
          ['c.webp', 'image/webp', 'inline'],
          ['fake.png', 'image/png', 'attachment'],
          ['logo.svg', 'image/svg+xml', 'attachment'],
          ['odd.bin', 'application/octet-stream', 'attachment'],
          ['typed.txt', 'text/plain', 'attachment'],
        ],
      );
      assert.equal(new Set(data.map((a) => a.uuid)).size, data.length);
    });

    it('neutralises path traversal, control characters and over-long names', async () => {
      const long = `${'a'.repeat(300)}.pdf`;
      const data = await uploaded(
        [
          file('../../../etc/passwd', 'x'),
          file('..\\..\\windows\\evil.exe', 'x'),
          { name: 'files', disposition: `; filename*=UTF-8''..%2F..%2Fsecret%00%1B.txt`, type: 'text/plain', data: 'x' },
          file('..', 'x'),
          file('.htaccess', 'x'),
          file('invoice\u202Efdp.exe', 'x'),
          file('café résumé.txt', 'x'),
          file(long, 'x'),
        ],
        writer,
      );
      const names = data.map((a) => a.name);
      assert.deepEqual(names.slice(0, 7), ['passwd', 'evil.exe', 'secret.txt', 'file', 'htaccess', 'invoicefdp.exe', 'café résumé.txt']);
      assert.equal(names[7]?.length, 255);
      assert.ok(names[7]?.endsWith('.pdf'));
      for (const key of (await mediaRows(t.deps.db)).map((r) => r.storage_key)) assert.match(key, /^media\/\d{4}\/\d{2}\/[0-9a-f-]{36}$/);
      assert.ok(!existsSync(join(t.deps.config.dataDir, '..', 'etc')));
    });

    it('sanitiseFilename (table)', () => {
      const cases: Array<[string, string]> = [
        ['report.pdf', 'report.pdf'],
        ['/abs/path/x.txt', 'x.txt'],
        ['C:\\Users\\me\\x.txt', 'x.txt'],
        ['a/b/../../c.txt', 'c.txt'],
        ['', 'file'],
        ['...', 'file'],
        ['  spaced  .txt  ', 'spaced  .txt'],
        ['tab\there\u0000.txt', 'tabhere.txt'],
        ['\u0085bell\u0007.txt', 'bell.txt'],
        ['e\u0301.txt', 'é.txt'],
        ['😀'.repeat(300), '😀'.repeat(255)],
      ];
      for (const [raw, expected] of cases) assert.equal(sanitiseFilename(raw), expected, JSON.stringify(raw));
    });

    it('refuses an empty file, and stores nothing of the other files', async () => {
      await refusedWithoutTrace(() => upload([file('empty.txt', '')], writer), 400, /empty\.txt.*empty/);
      await refusedWithoutTrace(
        () => upload([file('good.txt', 'fine'), file('empty.txt', ''), file('late.txt', 'late')], writer),
        400,
        /empty/,
      );
    });

    it('refuses a request without file parts, a file under another field name, and too many files', async () => {
      await refusedWithoutTrace(() => upload([{ name: 'note', data: 'just text' }], writer), 400, /files/);
      await refusedWithoutTrace(() => upload([], writer), 400, /files/);
      await refusedWithoutTrace(
        () => upload([{ name: 'attachment', filename: 'x.txt', type: 'text/plain', data: 'x' }], writer),
        400,
        /attachment.*files/,
      );
      await refusedWithoutTrace(
        () =>
          upload(
            Array.from({ length: 21 }, (_, i) => file(`f${i}.txt`, 'x')),
            writer,
          ),
        400,
        /at most 20/,
      );
    });

    it('refuses bodies that are not multipart/form-data with 415, and malformed multipart with 400', async () => {
      const post = (payload: string | Buffer | undefined, contentType: string | undefined) =>
        t.call({
          method: 'POST',
          url: '/api/v1/media/upload',
          as: writer,
          ...(payload !== undefined ? { payload } : {}),
          headers: contentType ? { 'content-type': contentType } : {},
        });
      await refusedWithoutTrace(() => post('{"files":[]}', 'application/json'), 415, /multipart\/form-data/);
      await refusedWithoutTrace(() => post('hello', 'text/plain'), 415, /multipart\/form-data/);
      await refusedWithoutTrace(() => post(undefined, undefined), 415, /multipart\/form-data/);
      await refusedWithoutTrace(() => post('a=b', 'application/x-www-form-urlencoded'), 415);
      await refusedWithoutTrace(
        () => post('--x\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\n\r\nabc', 'multipart/form-data; boundary=x'),
        400,
        /[Mm]alformed/,
      );
      await refusedWithoutTrace(() => post('no boundary here', 'multipart/form-data'), 400, /[Mm]alformed/);
      const good = multipart([file('a.txt', 'abc')]);
      await refusedWithoutTrace(() => post(good.payload.subarray(0, good.payload.length - 20), good.headers['content-type']), 400);
    });

    it('needs credentials (401) and messages:write (403)', async () => {
      fails(await upload([file('a.txt', 'abc')], null), 401, 'UnauthorizedException');
      fails(await upload([file('a.txt', 'abc')], reader), 403, 'PermissionException', /messages:write/);
      const bogus = { ...writer, headers: { authorization: `Basic ${Buffer.from('nope:nope').toString('base64')}` } };
      fails(await upload([file('a.txt', 'abc')], bogus), 401, 'UnauthorizedException');
    });
  });

  describe('GET /api/v1/media/{uuid} (signed URLs)', () => {
    it('serves the bytes of an attachment with safe headers', async () => {
      const body = Buffer.concat([Buffer.from('<html><script>alert(document.cookie)</script>'), randomBytes(2000)]);
      const [attachment] = await uploaded(
        [{ name: 'files', disposition: `; filename*=UTF-8''page%20%221%22.html`, type: 'text/html', data: body }],
        writer,
      );
      assert.ok(attachment);
      const response = await download(attachment.url);
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.rawPayload, body);
      assert.equal(response.headers['content-type'], 'application/octet-stream');
      assert.equal(response.headers['content-length'], String(body.length));
      assert.equal(response.headers['content-disposition'], `attachment; filename="page _1_.html"; filename*=UTF-8''page%20%221%22.html`);
      assert.equal(response.headers['x-content-type-options'], 'nosniff');
      assert.equal(response.headers['content-security-policy'], 'sandbox');
      assert.equal(response.headers['cache-control'], 'private, max-age=3600');

      const head = await t.call({ method: 'HEAD', url: pathOf(attachment.url), as: null });
      assert.equal(head.statusCode, 200);
      assert.equal(head.body, '');
      for (const name of [
        'content-type',
        'content-length',
        'content-disposition',
        'x-content-type-options',
        'content-security-policy',
        'cache-control',
      ]) {
        assert.equal(head.headers[name], response.headers[name], name);
      }
      assert.equal((await t.call({ method: 'HEAD', url: withQuery(attachment.url, (p) => p.delete('sig')), as: null })).statusCode, 403);
    });

    it('serves a real raster image inline as its sniffed type, with a UTF-8 file name', async () => {
      const [image] = await uploaded([file('фото.png', PNG, 'text/html')], writer);
      assert.ok(image);
      const response = await download(image.url);
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.rawPayload, PNG);
      assert.equal(response.headers['content-type'], 'image/png');
      assert.equal(response.headers['content-disposition'], `inline; filename="____.png"; filename*=UTF-8''%D1%84%D0%BE%D1%82%D0%BE.png`);
      assert.equal(response.headers['x-content-type-options'], 'nosniff');
    });

    it('refuses a tampered, foreign, malformed or missing signature with 403', async () => {
      const [a, b] = await uploaded([file('a.txt', 'aaa'), file('b.txt', 'bbb')], writer);
      assert.ok(a && b);
      const sig = new URL(a.url).searchParams.get('sig') ?? '';
      const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
      const variants = [
        withQuery(a.url, (p) => p.set('sig', flipped)),
        withQuery(a.url, (p) => p.set('exp', String(Number(p.get('exp')) + 3600))),
        withQuery(a.url, (p) => p.set('sig', new URL(b.url).searchParams.get('sig') ?? '')),
        withQuery(a.url, (p) => p.delete('sig')),
        withQuery(a.url, (p) => p.delete('exp')),
        withQuery(a.url, (p) => {
          p.delete('exp');
          p.delete('sig');
        }),
        withQuery(a.url, (p) => p.set('exp', 'soon')),
        withQuery(a.url, (p) => p.set('exp', '-1')),
        withQuery(a.url, (p) => p.set('sig', `${sig}=`)),
        withQuery(a.url, (p) => p.set('sig', sig.slice(0, 20))),
        withQuery(a.url, (p) => p.set('sig', 'x'.repeat(500))),
        withQuery(a.url, (p) => p.append('sig', sig)),
      ];
      for (const url of variants) fails(await download(url), 403, 'PermissionException', /media link/);
      // Credentials do not replace a signature.
      fails(await t.call({ method: 'GET', url: `/api/v1/media/${a.uuid}` }), 403, 'PermissionException');
    });

    it('expires: 403 after the lifetime, and Cache-Control never outlives the link', async () => {
      const [attachment] = await uploaded([file('a.txt', 'abc')], writer);
      assert.ok(attachment);
      const start = clock.now();
      try {
        clock.advance(3000 * 1000);
        const response = await download(attachment.url);
        assert.equal(response.statusCode, 200);
        assert.equal(response.headers['cache-control'], 'private, max-age=600');
        clock.advance(600 * 1000);
        fails(await download(attachment.url), 403, 'PermissionException');
        // A fresh link works again, and a custom lifetime is honoured.
        const short = signedMediaUrl(t.deps, attachment.uuid, 60);
        assert.equal((await download(short)).headers['cache-control'], 'private, max-age=60');
        clock.advance(61 * 1000);
        fails(await download(short), 403, 'PermissionException');
      } finally {
        clock.set(start);
      }
    });

    it('answers 404 for an unknown uuid with a valid signature, and for a malformed uuid', async () => {
      fails(await download(signedMediaUrl(t.deps, randomUUID())), 404, 'NotFoundException');
      fails(await download('/api/v1/media/not-a-uuid?exp=1&sig=x'), 404, 'NotFoundException');
      fails(await download('/api/v1/media/urn:uuid:6fa459ea-ee8a-3ca4-894e-db77e160355e'), 404, 'NotFoundException');
    });

    it('accepts an upper-case uuid in the path (the signature covers the canonical uuid)', async () => {
      const [attachment] = await uploaded([file('a.txt', 'abc')], writer);
      assert.ok(attachment);
      const url = new URL(attachment.url);
      const response = await download(url.pathname.toUpperCase().replace('/API/V1/MEDIA/', '/api/v1/media/') + url.search);
      assert.equal(response.statusCode, 200, response.body);
    });

    it('is in the OpenAPI document, public, with its parameters; the upload documents its multipart body', async () => {
      const doc = (await t.call({ method: 'GET', url: '/api/v1/openapi.json', as: null })).json() as {
        paths: Record<
          string,
          Record<
            string,
            {
              security?: unknown;
              parameters?: Array<{ name: string; in: string }>;
              requestBody?: { content: Record<string, unknown> };
              responses: Record<string, { content?: Record<string, unknown> }>;
            }
          >
        >;
      };
      const get = doc.paths['/api/v1/media/{uuid}']?.['get'];
      assert.ok(get);
      assert.equal(get.security, undefined);
      assert.deepEqual(get.parameters?.map((p) => `${p.in}:${p.name}`).sort(), ['path:uuid', 'query:exp', 'query:sig']);
      assert.ok(get.responses['200']?.content?.['application/octet-stream']);
      assert.ok(get.responses['403'] && get.responses['404']);
      const post = doc.paths['/api/v1/media/upload']?.['post'];
      assert.ok(post?.security);
      assert.ok(post.requestBody?.content['multipart/form-data']);
      assert.ok(post.responses['200']?.content?.['application/json']);
      assert.ok(post.responses['413'] && post.responses['415']);
    });
  });

  describe('attachMediaToMessage and attachmentsByMessage', () => {
    it('attaches a caller’s unattached uploads to a message and lists them in upload order', async () => {
      const messageId = await makeMessage(t);
      const files = await uploaded([file('one.txt', '1'), file('two.png', PNG, 'image/png'), file('three.txt', '333')], writer);
      // Attach in a different order than uploaded: the listing keeps upload order.
      const uuids = [files[2]!.uuid, files[0]!.uuid, files[1]!.uuid.toUpperCase()];
      await t.deps.db
        .transaction()
        .execute((trx) => attachMediaToMessage(t.deps, trx, { mediaUuids: uuids, uploaderId: writer.id, messageId }));
      const rows = (await mediaRows(t.deps.db)).filter((r) => files.some((f) => f.uuid === r.uuid));
      assert.deepEqual(
        rows.map((r) => r.message_id),
        [messageId, messageId, messageId],
      );

      const other = await makeMessage(t);
      const map = await attachmentsByMessage(t.deps, t.deps.db, [messageId, other]);
      assert.deepEqual([...map.keys()].sort(), [messageId, other].sort());
      assert.deepEqual(map.get(other), []);
      const listed = map.get(messageId) ?? [];
      assert.deepEqual(
        listed.map((a) => [a.name, a.size, a.disposition]),
        [
          ['one.txt', 1, 'attachment'],
          ['two.png', PNG.length, 'inline'],
          ['three.txt', 3, 'attachment'],
        ],
      );
      for (const a of listed) assert.equal((await download(a.url)).statusCode, 200, 'each listed URL is freshly signed');
      assert.deepEqual(await attachmentsByMessage(t.deps, t.deps.db, []), new Map());
    });

    it('reads the attachments of many messages with one query', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 5; i += 1) {
        const messageId = await makeMessage(t);
        const files = await uploaded([file(`m${i}-a.txt`, 'a'), file(`m${i}-b.txt`, 'b')], writer);
        await attachMediaToMessage(t.deps, t.deps.db, { mediaUuids: files.map((f) => f.uuid), uploaderId: writer.id, messageId });
        ids.push(messageId);
      }
      let queries = 0;
      const counter: KyselyPlugin = {
        transformQuery: (args) => {
          queries += 1;
          return args.node;
        },
        transformResult: async (args) => args.result,
      };
      const map = await attachmentsByMessage(t.deps, t.deps.db.withPlugin(counter), ids);
      assert.equal(queries, 1);
      assert.deepEqual(
        ids.map((id) => map.get(id)?.map((a) => a.name)),
        ids.map((_, i) => [`m${i}-a.txt`, `m${i}-b.txt`]),
      );
    });

    it('refuses unknown, foreign, attached, duplicate, malformed and too many uploads, naming the uuid, and changes nothing', async () => {
      const messageId = await makeMessage(t);
      const [mine, mine2] = await uploaded([file('mine.txt', 'm'), file('mine2.txt', 'm')], writer);
      const [theirs] = await uploaded([file('theirs.txt', 't')]);
      const [attached] = await uploaded([file('attached.txt', 'a')], writer);
      assert.ok(mine && mine2 && theirs && attached);
      await attachMediaToMessage(t.deps, t.deps.db, {
        mediaUuids: [attached.uuid],
        uploaderId: writer.id,
        messageId: await makeMessage(t),
      });
      const unknown = randomUUID();
      const cases: Array<[string[], RegExp]> = [
        [[mine.uuid, unknown], new RegExp(unknown)],
        [[mine.uuid, theirs.uuid], new RegExp(theirs.uuid)],
        [[attached.uuid], new RegExp(`${attached.uuid}.*already attached`)],
        [[mine.uuid, mine.uuid.toUpperCase()], new RegExp(`${mine.uuid}.*twice`)],
        [[mine.uuid, 'not-a-uuid'], /not-a-uuid/],
        [[mine.uuid, "'; drop table media; --"], /not a media uuid/],
        [Array.from({ length: 21 }, () => randomUUID()), /at most 20/],
      ];
      for (const [mediaUuids, pattern] of cases) {
        await assert.rejects(
          t.deps.db.transaction().execute((trx) => attachMediaToMessage(t.deps, trx, { mediaUuids, uploaderId: writer.id, messageId })),
          (error: unknown) => {
            const e = error as { statusCode?: number; errorType?: string; message?: string; data?: { errors?: Array<{ field: string }> } };
            assert.equal(e.statusCode, 400);
            assert.equal(e.errorType, 'InputException');
            assert.equal(e.data?.errors?.[0]?.field, 'attachments');
            assert.match(e.message ?? '', pattern);
            return true;
          },
        );
      }
      const rows = await mediaRows(t.deps.db);
      assert.equal(rows.find((r) => r.uuid === mine.uuid)?.message_id, null, 'nothing attached by a refused call');
      assert.equal(rows.find((r) => r.uuid === theirs.uuid)?.message_id, null);
      // Nothing to attach is fine.
      await attachMediaToMessage(t.deps, t.deps.db, { mediaUuids: [], uploaderId: writer.id, messageId });
    });

    it('lets only one of two messages claim the same upload, even concurrently', async () => {
      const [upload1] = await uploaded([file('race.txt', 'r')], writer);
      assert.ok(upload1);
      const first = await makeMessage(t);
      const second = await makeMessage(t);
      const claim = (messageId: number) =>
        t.deps.db.transaction().execute(async (trx) => {
          await attachMediaToMessage(t.deps, trx, { mediaUuids: [upload1.uuid], uploaderId: writer.id, messageId });
          // Hold the lock a moment so the other claim really waits on it.
          await new Promise((resolve) => setTimeout(resolve, 50));
          return messageId;
        });
      const results = await Promise.allSettled([claim(first), claim(second)]);
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r) => r.status === 'rejected');
      assert.equal(won.length, 1);
      assert.equal(lost.length, 1);
      assert.match(String((lost[0] as PromiseRejectedResult).reason.message), /already attached/);
      const row = (await mediaRows(t.deps.db)).find((r) => r.uuid === upload1.uuid);
      assert.equal(row?.message_id, (won[0] as PromiseFulfilledResult<number>).value);
    });
  });

  describe('storeMedia', () => {
    it('stores a buffer for the channels, attached or not, inside the caller’s transaction', async () => {
      const messageId = await makeMessage(t);
      const record = await t.deps.db
        .transaction()
        .execute((trx) =>
          storeMedia(t.deps, trx, { filename: '../inbound/photo.jpg', contentType: 'image/jpeg', data: JPEG, uploaderId: null, messageId }),
        );
      assert.equal(record.name, 'photo.jpg');
      assert.equal(record.content_type, 'image/jpeg');
      assert.equal(record.disposition, 'inline');
      assert.equal(record.size, JPEG.length);
      const response = await download(record.url);
      assert.deepEqual(response.rawPayload, JPEG);
      assert.deepEqual(
        (await attachmentsByMessage(t.deps, t.deps.db, [messageId])).get(messageId)?.map((a) => a.uuid),
        [record.uuid],
      );
      const loose = await storeMedia(t.deps, t.deps.db, {
        filename: 'x.csv',
        contentType: 'text/csv',
        data: Buffer.from('a,b\n'),
        uploaderId: writer.id,
      });
      assert.equal((await mediaRows(t.deps.db)).find((r) => r.uuid === loose.uuid)?.message_id, null);
      await assert.rejects(
        storeMedia(t.deps, t.deps.db, { filename: 'e.txt', contentType: 'text/plain', data: Buffer.alloc(0), uploaderId: null }),
        /empty/,
      );
    });
  });

  describe('purgeOrphanMedia', () => {
    it('removes unattached uploads older than the cut-off, rows and files, and keeps the rest', async () => {
      const start = clock.now();
      try {
        const [old, oldAttached] = await uploaded([file('old.txt', 'o'), file('old-attached.txt', 'a')], writer);
        assert.ok(old && oldAttached);
        await attachMediaToMessage(t.deps, t.deps.db, {
          mediaUuids: [oldAttached.uuid],
          uploaderId: writer.id,
          messageId: await makeMessage(t),
        });
        clock.advance(25 * 3600 * 1000);
        const [fresh] = await uploaded([file('fresh.txt', 'f')], writer);
        assert.ok(fresh);
        const before = await mediaRows(t.deps.db);
        const oldRow = before.find((r) => r.uuid === old.uuid)!;
        const orphansBefore = before.filter((r) => r.message_id === null && r.uuid !== fresh.uuid).length;
        assert.ok(existsSync(join(uploadsDir(t), oldRow.storage_key)));

        // Spool folders of requests that died with the process: one old, one recent.
        for (const name of ['upload-stale', 'upload-fresh']) mkdirSync(join(t.deps.config.dataDir, 'tmp', name, 'x'), { recursive: true });
        utimesSync(join(t.deps.config.dataDir, 'tmp', 'upload-stale'), new Date('2025-01-01'), new Date('2025-01-01'));

        const removed = await purgeOrphanMedia(t.deps, new Date(clock.now().getTime() - 24 * 3600 * 1000));
        assert.equal(removed, orphansBefore);
        const after = await mediaRows(t.deps.db);
        assert.equal(
          after.find((r) => r.uuid === old.uuid),
          undefined,
        );
        assert.ok(after.find((r) => r.uuid === oldAttached.uuid));
        assert.ok(after.find((r) => r.uuid === fresh.uuid));
        assert.ok(after.every((r) => r.message_id !== null || r.uuid === fresh.uuid));
        assert.ok(!existsSync(join(uploadsDir(t), oldRow.storage_key)), 'the stored file is gone');
        assert.deepEqual(
          filesUnder(uploadsDir(t)).filter((f) => f.endsWith('.tmp')),
          [],
        );
        assert.equal(after.length, filesUnder(uploadsDir(t)).length, 'one stored file per row');
        fails(await download(signedMediaUrl(t.deps, old.uuid)), 404, 'NotFoundException');
        assert.deepEqual(
          readdirSync(join(t.deps.config.dataDir, 'tmp')),
          ['upload-fresh'],
          'a crashed request’s old spool folder is removed too',
        );
        assert.equal(await purgeOrphanMedia(t.deps, new Date(clock.now().getTime() - 24 * 3600 * 1000)), 0);
        rmSync(join(t.deps.config.dataDir, 'tmp', 'upload-fresh'), { recursive: true });
      } finally {
        clock.set(start);
      }
    });
  });
});

describe('media: UPLOAD_MAX_BYTES', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp({ env: { UPLOAD_MAX_BYTES: '1024' } });
  });
  after(() => t.close());

  it('refuses a file over the limit with 413 and stores nothing, not even the files before it', async () => {
    const uploads = t.deps.config.storage.kind === 'local' ? t.deps.config.storage.dir : '';
    for (const parts of [
      [file('big.bin', randomBytes(1025))],
      [file('small.txt', 'ok'), file('big.bin', randomBytes(5000)), file('after.txt', 'x')],
    ]) {
      const body = multipart(parts);
      const response = await t.call({ method: 'POST', url: '/api/v1/media/upload', payload: body.payload, headers: body.headers });
      const error = fails(response, 413, 'InputException', /big\.bin.*1024 bytes/);
      assert.deepEqual(error.data, { errors: [{ field: 'files', reason: '"big.bin" is too large' }] });
      assert.equal((await mediaRows(t.deps.db)).length, 0);
      assert.deepEqual(filesUnder(uploads), []);
      assert.deepEqual(filesUnder(join(t.deps.config.dataDir, 'tmp')), []);
    }
    const exact = multipart([file('exact.bin', randomBytes(1024))]);
    assert.equal(
      (await t.call({ method: 'POST', url: '/api/v1/media/upload', payload: exact.payload, headers: exact.headers })).statusCode,
      200,
    );
  });
});

describe('media: local storage backend', () => {
  let root: string;
  let storage: MediaStorage;
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'parley-storage-'));
    storage = localStorage(join(root, 'uploads'));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('puts, gets and deletes buffers and streams', async () => {
    await storage.put('media/2026/01/a', Buffer.from('alpha'), 'text/plain');
    await storage.put('media/2026/01/b', Readable.from([Buffer.from('be'), Buffer.from('ta')]), 'text/plain');
    const got = await storage.get('media/2026/01/b');
    assert.ok(got);
    assert.equal(got.size, 4);
    assert.equal(Buffer.concat(await got.stream.toArray()).toString(), 'beta');
    await storage.put('media/2026/01/a', Buffer.from('replaced'), 'text/plain');
    assert.equal(Buffer.concat(await (await storage.get('media/2026/01/a'))!.stream.toArray()).toString(), 'replaced');
    await storage.delete('media/2026/01/a');
    await storage.delete('media/2026/01/a');
    assert.equal(await storage.get('media/2026/01/a'), null);
    assert.equal(await storage.get('media/never'), null);
    assert.deepEqual(filesUnder(join(root, 'uploads')), ['media/2026/01/b']);
  });

  it('refuses keys that could leave its folder', async () => {
    for (const key of [
      '../escape',
      'a/../../escape',
      '/etc/passwd',
      'media/./x',
      '.hidden',
      'a\\..\\b',
      'a//b',
      'a/',
      '',
      'x\u0000y',
      'a/b/c/d/e/f/g/h/i',
    ]) {
      await assert.rejects(storage.put(key, Buffer.from('x'), 'text/plain'), { name: 'StorageKeyError' }, JSON.stringify(key));
      await assert.rejects(storage.get(key), { name: 'StorageKeyError' });
      await assert.rejects(storage.delete(key), { name: 'StorageKeyError' });
    }
    assert.deepEqual(readdirSync(root), ['uploads']);
  });
});

describe('media: S3 storage (AWS SDK against a local fake S3 server)', () => {
  let fake: FakeS3;
  let t: TestApp;
  before(async () => {
    fake = await startFakeS3();
    t = await buildTestApp({ env: fake.env() });
  });
  after(async () => {
    await t?.close();
    await fake?.close();
  });

  it('the fake speaks S3: SigV4-signed Put/Head/Get/Delete through the SDK, and refuses a wrong secret', async () => {
    const client = (secretAccessKey: string) =>
      new S3Client({
        region: fake.region,
        endpoint: fake.endpoint,
        forcePathStyle: true,
        credentials: { accessKeyId: fake.accessKeyId, secretAccessKey },
      });
    const good = client(fake.secretAccessKey);
    const storage = s3Storage(
      {
        kind: 's3',
        bucket: fake.bucket,
        region: fake.region,
        endpoint: fake.endpoint,
        credentials: { accessKeyId: fake.accessKeyId, secretAccessKey: fake.secretAccessKey },
        forcePathStyle: true,
      },
      pino({ level: 'silent' }),
    );
    try {
      await storage.put('media/2026/01/k', Readable.from([Buffer.from('stre'), Buffer.from('amed')]), 'text/plain', 8);
      const head = await good.send(new HeadObjectCommand({ Bucket: fake.bucket, Key: 'media/2026/01/k' }));
      assert.equal(head.ContentLength, 8);
      assert.equal(head.ContentType, 'text/plain');
      const got = await storage.get('media/2026/01/k');
      assert.equal(got?.size, 8);
      assert.equal(Buffer.concat(await got!.stream.toArray()).toString(), 'streamed');
      assert.equal(await storage.get('media/2026/01/missing'), null);
      await assert.rejects(good.send(new HeadObjectCommand({ Bucket: fake.bucket, Key: 'media/2026/01/missing' })), { name: 'NotFound' });
      await storage.delete('media/2026/01/k');
      await storage.delete('media/2026/01/k');
      assert.equal(fake.objects.size, 0);
      await assert.rejects(
        client('wrong-secret').send(new HeadObjectCommand({ Bucket: fake.bucket, Key: 'x' })),
        (error: { $metadata?: { httpStatusCode?: number } }) => error.$metadata?.httpStatusCode === 403,
      );
      await assert.rejects(storage.put('../x', Buffer.from('x'), 'text/plain'), { name: 'StorageKeyError' });
    } finally {
      good.destroy();
      await storage.close();
    }
  });

  it('uploads go to the bucket; signed URLs stream them back; purge deletes the objects', async () => {
    const body = multipart([file('doc.txt', 'in the bucket'), file('pic.png', PNG, 'image/png')]);
    const response = await t.call({ method: 'POST', url: '/api/v1/media/upload', payload: body.payload, headers: body.headers });
    assert.equal(response.statusCode, 200, response.body);
    const [doc, pic] = (response.json() as { data: AttachmentRecord[] }).data;
    assert.ok(doc && pic);
    const rows = await mediaRows(t.deps.db);
    assert.deepEqual([...fake.objects.keys()].sort(), rows.map((r) => r.storage_key).sort());
    const stored = fake.objects.get(rows.find((r) => r.uuid === pic.uuid)!.storage_key);
    assert.deepEqual(stored?.body, PNG);
    assert.equal(stored?.contentType, 'image/png');
    assert.ok(!existsSync(join(t.deps.config.dataDir, 'uploads')), 'nothing written to the local disk');

    const got = await t.call({ method: 'GET', url: pathOf(doc.url), as: null });
    assert.equal(got.statusCode, 200);
    assert.equal(got.body, 'in the bucket');
    assert.equal(got.headers['content-length'], '13');
    assert.equal(got.headers['content-disposition'], `attachment; filename="doc.txt"; filename*=UTF-8''doc.txt`);
    const image = await t.call({ method: 'GET', url: pathOf(pic.url), as: null });
    assert.deepEqual(image.rawPayload, PNG);
    assert.equal(image.headers['content-type'], 'image/png');

    const removed = await purgeOrphanMedia(t.deps, new Date(t.deps.clock.now().getTime() + 1000));
    assert.equal(removed, 2);
    assert.equal(fake.objects.size, 0);
    assert.equal((await mediaRows(t.deps.db)).length, 0);
    assert.ok(fake.requests.some((r) => r.method === 'DELETE' && r.status === 204));
  });

  it('a missing object behind a row is a 404, not a 500', async () => {
    const record = await storeMedia(t.deps, t.deps.db, {
      filename: 'gone.txt',
      contentType: 'text/plain',
      data: Buffer.from('x'),
      uploaderId: null,
    });
    fake.objects.clear();
    fails(await t.call({ method: 'GET', url: pathOf(record.url), as: null }), 404, 'NotFoundException');
    await purgeOrphanMedia(t.deps, new Date(t.deps.clock.now().getTime() + 1000));
  });

  it('a storage that refuses the credentials answers 502 and records nothing', async () => {
    const bad = await buildTestApp({ env: { ...fake.env(), S3_SECRET_ACCESS_KEY: 'not-the-secret' } });
    try {
      const body = multipart([file('a.txt', 'abc')]);
      const response = await bad.call({ method: 'POST', url: '/api/v1/media/upload', payload: body.payload, headers: body.headers });
      const error = fails(response, 502, 'NetworkException');
      assert.doesNotMatch(error.message, /not-the-secret|SignatureDoesNotMatch/);
      assert.equal((await mediaRows(bad.deps.db)).length, 0);
      assert.equal(fake.objects.size, 0);
    } finally {
      await bad.close();
    }
  });
});

describe('media: configuration', () => {
  // With SECRET_KEY given, loading the configuration writes nothing to DATA_DIR.
  const base = () => ({ DATA_DIR: join(tmpdir(), 'parley-config-never-created'), SECRET_KEY: 'k'.repeat(40) });

  it('defaults: local disk under DATA_DIR/uploads, 25 MiB uploads, one-hour links', () => {
    const env = base();
    const config = loadConfig(env);
    assert.deepEqual(config.storage, { kind: 'local', dir: join(env.DATA_DIR, 'uploads') });
    assert.equal(config.uploadMaxBytes, 25 * 1024 * 1024);
    assert.equal(config.mediaUrlTtlSeconds, 3600);
    assert.ok(!existsSync(env.DATA_DIR));
  });

  it('reads the S3 settings', () => {
    const config = loadConfig({
      ...base(),
      S3_BUCKET: 'my-bucket.files',
      S3_REGION: 'eu-west-3',
      S3_ENDPOINT: 'https://s3.example.com',
      S3_ACCESS_KEY_ID: 'AKIAEXAMPLE',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_FORCE_PATH_STYLE: 'true',
      UPLOAD_MAX_BYTES: '1048576',
      MEDIA_URL_TTL_SECONDS: '600',
    });
    assert.deepEqual(config.storage, {
      kind: 's3',
      bucket: 'my-bucket.files',
      region: 'eu-west-3',
      endpoint: 'https://s3.example.com',
      credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret' },
      forcePathStyle: true,
    });
    assert.equal(config.uploadMaxBytes, 1048576);
    assert.equal(config.mediaUrlTtlSeconds, 600);
    const minimal = loadConfig({ ...base(), S3_BUCKET: 'bucket' });
    assert.deepEqual(minimal.storage, {
      kind: 's3',
      bucket: 'bucket',
      region: 'us-east-1',
      endpoint: null,
      credentials: null,
      forcePathStyle: false,
    });
  });

  it('stops on a bad value with one line naming the variable', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ S3_BUCKET: 'Bad_Bucket' }, 'S3_BUCKET'],
      [{ S3_BUCKET: 'ab' }, 'S3_BUCKET'],
      [{ S3_BUCKET: 'a..b' }, 'S3_BUCKET'],
      [{ S3_BUCKET: 'bucket', S3_REGION: 'EU West' }, 'S3_REGION'],
      [{ S3_BUCKET: 'bucket', S3_ENDPOINT: 'not a url' }, 'S3_ENDPOINT'],
      [{ S3_BUCKET: 'bucket', S3_ENDPOINT: 'ftp://x' }, 'S3_ENDPOINT'],
      [{ S3_BUCKET: 'bucket', S3_ACCESS_KEY_ID: 'AKIA' }, 'S3_SECRET_ACCESS_KEY'],
      [{ S3_BUCKET: 'bucket', S3_SECRET_ACCESS_KEY: 's' }, 'S3_ACCESS_KEY_ID'],
      [{ S3_BUCKET: 'bucket', S3_FORCE_PATH_STYLE: 'maybe' }, 'S3_FORCE_PATH_STYLE'],
      [{ S3_ENDPOINT: 'http://minio:9000' }, 'S3_ENDPOINT'],
      [{ UPLOAD_MAX_BYTES: 'lots' }, 'UPLOAD_MAX_BYTES'],
      [{ UPLOAD_MAX_BYTES: '0' }, 'UPLOAD_MAX_BYTES'],
      [{ UPLOAD_MAX_BYTES: '3000000000' }, 'UPLOAD_MAX_BYTES'],
      [{ MEDIA_URL_TTL_SECONDS: '1' }, 'MEDIA_URL_TTL_SECONDS'],
    ];
    for (const [env, name] of cases) {
      assert.throws(
        () => loadConfig({ ...base(), ...env }),
        (error: unknown) => error instanceof ConfigError && error.message.includes(name) && !error.message.includes('\n'),
        `${JSON.stringify(env)} names ${name}`,
      );
    }
  });
});
