// Media downloads: GET /api/v1/media/{uuid} through signed URLs (headers, signatures, expiry,
// unknown uuids, the OpenAPI document).
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { buildTestApp, type Caller, fakeClock, type TestApp } from '../../test/helpers.ts';
import { fails, file, mediaCalls, PNG, pathOf, withQuery } from '../../test/media.ts';
import { signedMediaUrl } from './media.signing.ts';

describe('media (local disk storage)', () => {
  const clock = fakeClock();
  let t: TestApp;
  let writer: Caller;

  before(async () => {
    t = await buildTestApp({ clock });
    writer = await t.makeAgent({ roles: ['Agent'] });
  });
  after(() => t.close());

  const { uploaded, download } = mediaCalls(() => t);

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
});
