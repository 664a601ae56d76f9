// Media uploads: POST /api/v1/media/upload (file names, sniffed types, refusals that store
// nothing, access) and the UPLOAD_MAX_BYTES limit.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { agentWith } from '../../test/factories.ts';
import { buildTestApp, type Caller, fakeClock, type TestApp } from '../../test/helpers.ts';
import { fails, file, filesUnder, GIF, JPEG, mediaCalls, mediaRows, multipart, PNG, uploadsDir, WEBP } from '../../test/media.ts';
import { sanitiseFilename } from './media.files.ts';

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

  const { upload, uploaded, refusedWithoutTrace } = mediaCalls(() => t);

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
