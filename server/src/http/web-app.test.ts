// The web app served by the API server (http/web-app.ts): caching of hashed assets and of the
// index, the client-side routes for browser navigations only, the server's own paths untouched,
// and the page shown when the app is not built. Also: the web app's generated API types match the
// document (run `npm run openapi` after changing a route schema).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import { CLIENT_TYPES_FILE, clientTypesOf } from '../../scripts/openapi-client.ts';
import { assertError, buildTestApp, type TestApp } from '../../test/helpers.ts';
import { WEB_APP_CSP } from './web-app.ts';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const INDEX = '<!doctype html><html><head><script type="module" src="/assets/index-AbC123.js"></script></head><body></body></html>';

describe('the web app, built', () => {
  let t: TestApp;
  let dist: string;
  before(async () => {
    dist = mkdtempSync(join(tmpdir(), 'parley-web-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), INDEX);
    writeFileSync(join(dist, 'assets', 'index-AbC123.js'), 'console.log("app")');
    writeFileSync(join(dist, 'assets', 'index-AbC123.js.br'), brotliCompressSync('console.log("app")'));
    writeFileSync(join(dist, 'assets', 'index-AbC123.js.gz'), gzipSync('console.log("app")'));
    writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    t = await buildTestApp({ webDistDir: dist });
  });
  after(async () => {
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves the index at / without caching, with the app CSP', async () => {
    const res = await t.call({ method: 'GET', url: '/', as: null });
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, INDEX);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.equal(res.headers['cache-control'], 'no-cache');
    assert.equal(res.headers['content-security-policy'], WEB_APP_CSP);
    assert.match(WEB_APP_CSP, /script-src 'self'(;|$)/, 'no inline or remote script');
    assert.match(WEB_APP_CSP, /frame-ancestors 'none'/);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
  });

  it('caches hashed assets for a year, other files for minutes', async () => {
    const js = await t.call({ method: 'GET', url: '/assets/index-AbC123.js', as: null });
    assert.equal(js.statusCode, 200);
    assert.equal(js.body, 'console.log("app")');
    assert.equal(js.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.match(String(js.headers['content-type']), /javascript/);
    // Compressed at build time: brotli when accepted, else gzip, else as is; immutable either way.
    const br = await t.call({
      method: 'GET',
      url: '/assets/index-AbC123.js',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
      as: null,
    });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(brotliDecompressSync(br.rawPayload).toString(), 'console.log("app")');
    assert.match(String(br.headers.vary), /accept-encoding/i);
    assert.equal(br.headers['cache-control'], 'public, max-age=31536000, immutable');
    const gz = await t.call({ method: 'GET', url: '/assets/index-AbC123.js', headers: { 'accept-encoding': 'gzip' }, as: null });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(js.headers['content-encoding'], undefined, 'no Accept-Encoding: the plain file');
    const icon = await t.call({ method: 'GET', url: '/favicon.svg', as: null });
    assert.equal(icon.statusCode, 200);
    assert.equal(icon.headers['cache-control'], 'public, max-age=300');
  });

  it('answers the index for a browser navigation to an app route, and 404 otherwise', async () => {
    for (const url of ['/inbox/mine', '/inbox/team/3/c/0b7e2a52-7d1c-4f61-9d7d-2f0c6f6c7f11', '/setup?token=abc', '/login']) {
      const res = await t.call({ method: 'GET', url, headers: { accept: BROWSER }, as: null });
      assert.equal(res.statusCode, 200, url);
      assert.equal(res.body, INDEX, url);
      assert.equal(res.headers['cache-control'], 'no-cache');
    }
    // An API client (no text/html), a missing asset, a file name, another method: the JSON 404.
    assertError(await t.call({ method: 'GET', url: '/inbox/mine', as: null }), 404, 'NotFoundException');
    assertError(
      await t.call({ method: 'GET', url: '/assets/index-old.js', headers: { accept: BROWSER }, as: null }),
      404,
      'NotFoundException',
    );
    assertError(await t.call({ method: 'GET', url: '/robots.txt', headers: { accept: BROWSER }, as: null }), 404, 'NotFoundException');
    assertError(await t.call({ method: 'POST', url: '/inbox/mine', headers: { accept: BROWSER }, as: null }), 404, 'NotFoundException');
  });

  it("never answers the index under the server's own paths", async () => {
    for (const url of ['/api/v1/nothing', '/api', '/widget/nothing', '/ws/x', '/csat', '/health/x']) {
      const res = await t.call({ method: 'GET', url, headers: { accept: BROWSER }, as: null });
      assert.notEqual(res.body, INDEX, url);
      assert.equal(res.statusCode, 404, url);
    }
    // Wrong methods keep their 405 with Allow.
    const res = await t.call({ method: 'DELETE', url: '/', as: null });
    assertError(res, 405, 'GeneralException');
    assert.equal(res.headers.allow, 'GET, HEAD');
  });
});

describe('the web app, not built', () => {
  let t: TestApp;
  before(async () => {
    t = await buildTestApp();
  });
  after(() => t.close());

  it('answers / and app navigations with a 503 page saying how to build', async () => {
    for (const [url, headers] of [
      ['/', {}],
      ['/inbox/mine', { accept: BROWSER }],
    ] as const) {
      const res = await t.call({ method: 'GET', url, headers, as: null });
      assert.equal(res.statusCode, 503, url);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.match(res.body, /npm run build/);
      assert.equal(res.headers['cache-control'], 'no-store');
    }
  });
});

describe("the web app's generated API types", () => {
  it('match the OpenAPI document (else run `npm run openapi`)', async () => {
    const t = await buildTestApp();
    try {
      const expected = await clientTypesOf(t.app.swagger());
      const committed = readFileSync(CLIENT_TYPES_FILE, 'utf8');
      assert.ok(committed === expected, `${CLIENT_TYPES_FILE} is stale: run \`npm run openapi\` and commit the result`);
    } finally {
      await t.close();
    }
  });
});
