// Media storage backends: the local disk, S3 through the AWS SDK against a local fake S3
// server, and their configuration.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import pino from 'pino';
import { buildTestApp, type TestApp } from '../../test/helpers.ts';
import { fails, file, filesUnder, mediaRows, multipart, PNG, pathOf } from '../../test/media.ts';
import { type FakeS3, startFakeS3 } from '../../test/s3-fake.ts';
import { ConfigError, loadConfig } from '../config.ts';
import type { AttachmentRecord } from './media.schema.ts';
import { purgeOrphanMedia, storeMedia } from './media.service.ts';
import { localStorage, type MediaStorage } from './media.storage.ts';
import { s3Storage } from './media.storage-s3.ts';

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
