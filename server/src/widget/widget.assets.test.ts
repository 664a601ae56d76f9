// Serving the built widget (widget.assets.ts), on a scratch dist folder so that no build is
// needed: the loader's short cache, ETag and CORS; the frame page's CSP (frame-ancestors from the
// inbox's trusted_domains) and refusals; hashed assets cached for a year; compression; a missing
// build answered clearly. Then the frame's own API calls and socket, which come from Parley's
// origin, pass an inbox whose trusted_domains name only the customer's site.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { assertError, buildTestApp, type TestApp } from '../../test/helpers.ts';
import { listen, nextFrame, openSocket } from '../../test/sockets.ts';
import { createWidgetInbox, startVisitor, widgetCall } from '../../test/widget.ts';
import { registerErrorHandling } from '../errors.ts';
import { frameAncestors, widgetAssetRoutes } from './widget.assets.ts';

const LOADER = '(function(){console.log("parley loader")})();\n'.repeat(20);
const SCRIPT = 'import"./x.js";console.log("frame");\n'.repeat(20);

async function assetsApp(t: TestApp, dir: string): Promise<FastifyInstance> {
  // As buildApp's router: /widget/frame and /widget/frame/ are one route.
  const app = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
  registerErrorHandling(app, () => []);
  await app.register(widgetAssetRoutes(t.deps, { dir }));
  await app.ready();
  return app;
}

describe('the built widget, served', () => {
  let t: TestApp;
  let built: FastifyInstance;
  let missing: FastifyInstance;
  let dist: string;
  let trusted: string;
  let open: string;

  before(async () => {
    t = await buildTestApp();
    dist = mkdtempSync(join(tmpdir(), 'parley-widget-dist-'));
    mkdirSync(join(dist, 'frame', 'assets'), { recursive: true });
    writeFileSync(join(dist, 'widget.js'), LOADER);
    writeFileSync(join(dist, 'frame', 'index.html'), '<!doctype html><script type="module" src="./assets/index-AbC123.js"></script>');
    writeFileSync(join(dist, 'frame', 'assets', 'index-AbC123.js'), SCRIPT);
    built = await assetsApp(t, dist);
    missing = await assetsApp(t, join(dist, 'nothing-here'));
    trusted = (await createWidgetInbox(t, { trusted_domains: ['shop.example', '*.example.org', 'localhost:3000'] })).uuid;
    open = (await createWidgetInbox(t)).uuid;
  });
  after(async () => {
    await built.close();
    await missing.close();
    await t.close();
    rmSync(dist, { recursive: true, force: true });
  });

  it('serves /widget.js to any site, cached 5 minutes, revalidated by ETag, compressed when asked', async () => {
    const res = await built.inject({ url: '/widget.js' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, LOADER);
    assert.match(String(res.headers['content-type']), /^text\/javascript/);
    assert.equal(res.headers['cache-control'], 'public, max-age=300');
    assert.equal(res.headers['access-control-allow-origin'], '*');
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    const etag = String(res.headers['etag']);
    assert.match(etag, /^"[\w-]+"$/);
    const again = await built.inject({ url: '/widget.js', headers: { 'if-none-match': etag } });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
    const gz = await built.inject({ url: '/widget.js', headers: { 'accept-encoding': 'gzip, deflate' } });
    assert.equal(gz.headers['content-encoding'], 'gzip');
    assert.equal(gunzipSync(gz.rawPayload).toString(), LOADER);
    assert.ok(gz.rawPayload.length < LOADER.length / 4, 'compressed');
    const br = await built.inject({ url: '/widget.js', headers: { 'accept-encoding': 'gzip;q=0.5, br' } });
    assert.equal(br.headers['content-encoding'], 'br');
    assert.equal(brotliDecompressSync(br.rawPayload).toString(), LOADER);
    const refused = await built.inject({ url: '/widget.js', headers: { 'accept-encoding': 'br;q=0, gzip;q=0' } });
    assert.equal(refused.headers['content-encoding'], undefined);
    assert.equal(refused.body, LOADER);
  });

  it('serves the frame page with no-cache, a strict CSP and the inbox’s trusted sites as frame-ancestors', async () => {
    const res = await built.inject({ url: `/widget/frame/?inbox_id=${trusted}&origin=x` });
    assert.equal(res.statusCode, 200, res.body);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assert.equal(res.headers['cache-control'], 'no-cache');
    const csp = String(res.headers['content-security-policy']);
    assert.match(csp, /default-src 'none'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.match(csp, /base-uri 'none'/);
    assert.match(
      csp,
      /frame-ancestors 'self' http:\/\/shop\.example:\* https:\/\/shop\.example:\* http:\/\/\*\.example\.org:\* https:\/\/\*\.example\.org:\* http:\/\/localhost:3000 https:\/\/localhost:3000$/,
    );
    assert.match(csp, /connect-src 'self' ws:\/\/localhost:9000 wss:\/\/localhost:9000;/, 'BASE_URL’s host');
    const any = await built.inject({ url: `/widget/frame/?inbox_id=${open}` });
    assert.match(String(any.headers['content-security-policy']), /frame-ancestors 'self' \*$/, 'no list: any site');
    const redirect = await built.inject({ url: `/widget/frame?inbox_id=${open}` });
    assert.equal(redirect.statusCode, 301, 'relative asset URLs need the slash');
    assert.equal(redirect.headers['location'], `/widget/frame/?inbox_id=${open}`);
  });

  it('serves the preview page (no inbox) embeddable only by Parley and connecting nowhere', async () => {
    for (const query of ['?preview=1', `?preview=1&inbox_id=${trusted}`, '?preview=1&inbox_id=nope']) {
      const res = await built.inject({ url: `/widget/frame/${query}` });
      assert.equal(res.statusCode, 200, `${query} ${res.body}`);
      const csp = String(res.headers['content-security-policy']);
      assert.match(csp, /connect-src 'none'/, query);
      assert.match(csp, /frame-ancestors 'self'$/, query);
      assert.match(csp, /script-src 'self'(;|$)/, query);
    }
    assert.equal((await built.inject({ url: '/widget/frame/?preview=0' })).statusCode, 404, 'preview=1 only');
    assert.equal((await missing.inject({ url: '/widget/frame/?preview=1' })).statusCode, 503, 'not built');
  });

  it('writes nothing of a hostile Host or X-Forwarded-Host into the CSP', async () => {
    const clean = await built.inject({ url: `/widget/frame/?inbox_id=${trusted}` });
    const policy = String(clean.headers['content-security-policy']);
    for (const headers of [{ host: 'a; frame-ancestors *' }, { 'x-forwarded-host': 'a; frame-ancestors *' }, { host: 'evil.test' }]) {
      const res = await built.inject({ url: `/widget/frame/?inbox_id=${trusted}`, headers });
      assert.equal(res.statusCode, 200, res.body);
      assert.equal(res.headers['content-security-policy'], policy, JSON.stringify(headers));
    }
    assert.equal(policy.match(/frame-ancestors/g)?.length, 1);
    assert.doesNotMatch(policy, /evil|frame-ancestors \*/);
  });

  it('refuses the frame of an unknown, malformed or disabled inbox and of a blocked address, as small pages', async () => {
    for (const query of ['', '?inbox_id=nope', '?inbox_id=00000000-0000-4000-8000-000000000000']) {
      const res = await built.inject({ url: `/widget/frame/${query}` });
      assert.equal(res.statusCode, 404, query);
      assert.match(String(res.headers['content-type']), /^text\/html/);
      assert.match(res.body, /inbox not found/);
    }
    const blocked = (await createWidgetInbox(t, { blocked_ips: ['127.0.0.0/8'] })).uuid;
    const res = await built.inject({ url: `/widget/frame/?inbox_id=${blocked}` });
    assert.equal(res.statusCode, 403);
    assert.match(res.body, /Access denied/);
    assert.equal(res.headers['content-security-policy'], "default-src 'none'; style-src 'unsafe-inline'");
  });

  it('serves hashed assets for a year, and nothing outside the assets folder', async () => {
    const res = await built.inject({ url: '/widget/frame/assets/index-AbC123.js' });
    assert.equal(res.statusCode, 200);
    assert.equal(res.body, SCRIPT);
    assert.equal(res.headers['cache-control'], 'public, max-age=31536000, immutable');
    for (const url of ['/widget/frame/assets/nope.js', '/widget/frame/assets/..%2F..%2Fwidget.js', '/widget/frame/assets/.hidden']) {
      assertError(await built.inject({ url }), 404, 'NotFoundException', url);
    }
    // A path that climbs out is resolved before routing: it lands on the frame page, without an inbox.
    assert.equal((await built.inject({ url: '/widget/frame/assets/..' })).statusCode, 404);
  });

  it('says clearly that the widget is not built when widget/dist is missing', async () => {
    const loader = assertError(await missing.inject({ url: '/widget.js' }), 503, 'GeneralException');
    assert.match(loader.message, /npm run build/);
    const frame = await missing.inject({ url: `/widget/frame/?inbox_id=${open}` });
    assert.equal(frame.statusCode, 503);
    assert.match(frame.body, /npm run build/);
  });

  it('is mounted by the app at /widget.js', async () => {
    const res = await t.call({ method: 'GET', url: '/widget.js', as: null });
    assert.ok([200, 503].includes(res.statusCode), `${res.statusCode}`);
  });

  it('lets the frame’s own calls and socket through an inbox that trusts only the customer’s site', async () => {
    const chat = await createWidgetInbox(t, { trusted_domains: ['shop.example'] });
    const own = { origin: 'http://localhost:9000' };
    const settings = await widgetCall(t, { url: 'chat/settings', inbox: chat.uuid, headers: own });
    assert.equal(settings.statusCode, 200, 'BASE_URL’s origin: the frame');
    const sameHost = await widgetCall(t, {
      url: 'chat/settings',
      inbox: chat.uuid,
      headers: { origin: 'https://parley.internal', host: 'parley.internal' },
    });
    assertError(sameHost, 403, 'PermissionException', 'a page of the host the request names is not BASE_URL (DNS rebinding)');
    assertError(
      await widgetCall(t, { url: 'chat/settings', inbox: chat.uuid, headers: { origin: 'https://evil.test' } }),
      403,
      'PermissionException',
    );

    const visitor = await startVisitor(t, chat.uuid);
    const base = await listen(t.app);
    const frameSocket = await openSocket(`${base}/widget/ws`, own);
    const evilSocket = await openSocket(`${base}/widget/ws`, { origin: 'https://evil.test' });
    // The Origin names the host the socket was opened on, as under DNS rebinding: not BASE_URL.
    const rebound = await openSocket(`${base}/widget/ws`, { origin: base });
    try {
      rebound.send({ type: 'join', token: visitor.token, data: { inbox_id: chat.uuid } });
      assert.equal((await nextFrame(rebound)).type, 'error');
      frameSocket.send({ type: 'join', token: visitor.token, data: { inbox_id: chat.uuid } });
      assert.equal((await nextFrame(frameSocket)).type, 'joined');
      evilSocket.send({ type: 'join', token: visitor.token, data: { inbox_id: chat.uuid } });
      assert.equal((await nextFrame(evilSocket)).type, 'error');
    } finally {
      await frameSocket.close();
      await evilSocket.close();
      await rebound.close();
    }
  });
});

describe('frameAncestors', () => {
  it('writes host names for both schemes, any port unless one is named, and skips the rest', () => {
    assert.equal(frameAncestors([]), "frame-ancestors 'self' *");
    assert.equal(frameAncestors(['Example.com']), "frame-ancestors 'self' http://example.com:* https://example.com:*");
    assert.equal(frameAncestors(['[::1]:8080']), "frame-ancestors 'self' http://[::1]:8080 https://[::1]:8080");
    assert.equal(frameAncestors(['a.com/path', "x'y", 'https://a.com', '*']), "frame-ancestors 'self'", 'nothing else reaches the header');
  });
});
