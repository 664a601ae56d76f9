// Every refusal of a sign-in, against a real OpenID provider on loopback: an off-site `next`,
// a tampered or missing state, another provider's cookie, a wrong nonce or PKCE verifier, a
// forged ID token signature, the
// provider's own error, an identity Parley does not accept, a provider gone. None opens a session.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createContact } from '../../test/factories.ts';
import { assertError, dataOf } from '../../test/helpers.ts';
import { cookieOf, createSsoProvider, providerBody, type SignInFixture, startSignInFixture } from '../../test/oidc-provider.ts';
import { openState, sealState, STATE_COOKIE } from './oidc.flow.ts';

describe('single sign-on: refusals', () => {
  let sso: SignInFixture;
  before(async () => {
    sso = await startSignInFixture();
  });
  after(() => sso.close());

  /** A sign-in whose authorization request had `param` changed on its way to the provider: refused (401). Answers the message. */
  async function refusedWithAltered(param: string, value: string, sessions: number): Promise<string> {
    const { idp, provider, driver } = sso;
    const { location, cookie } = await driver.start(provider);
    const altered = new URL(location);
    altered.searchParams.set(param, value);
    const callback = await idp.signIn(altered.href, 'ann');
    return driver.assertRefused(await driver.finish(provider, callback, cookie), 401, 'UnauthorizedException', sessions);
  }

  it('refuses a next that leaves the site (400) and sets no cookie', async () => {
    const { t, provider } = sso;
    for (const next of [
      '//evil.example',
      'https://evil.example',
      '/\\evil.example',
      '\\\\evil.example',
      'evil.example',
      'javascript:alert(1)',
      '/\tevil',
      '/a\u0085b',
      ' /x',
    ]) {
      const res = await t.call({ method: 'GET', url: `/api/v1/oidc/${provider.id}/login?next=${encodeURIComponent(next)}`, as: null });
      const body = assertError(res, 400, 'InputException', JSON.stringify(next));
      assert.match(body.message, /next/);
      assert.equal(cookieOf(res, STATE_COOKIE), undefined);
    }
    assertError(await t.call({ method: 'GET', url: `/api/v1/oidc/${provider.id}/login?next=%00`, as: null }), 400, 'InputException');
    assertError(
      await t.call({ method: 'GET', url: `/api/v1/oidc/${provider.id}/login?next=/${'a'.repeat(3000)}`, as: null }),
      400,
      'InputException',
    );
    assertError(await t.call({ method: 'GET', url: `/api/v1/oidc/${provider.id}/login?redirect=/x`, as: null }), 400, 'InputException');
  });

  it('refuses a tampered state (403), and a missing, altered or expired state cookie (400), without a session', async () => {
    const { t, idp, provider, driver } = sso;
    const sessions = await driver.sessionCount();
    const { location, cookie } = await driver.start(provider);
    const callback = await idp.signIn(location.href, 'ann');

    const tampered = new URL(callback);
    tampered.searchParams.set('state', `${callback.searchParams.get('state')}x`);
    assert.match(
      await driver.assertRefused(await driver.finish(provider, tampered, cookie), 403, 'PermissionException', sessions, 'tampered state'),
      /state/,
    );
    const noState = new URL(callback);
    noState.searchParams.delete('state');
    await driver.assertRefused(await driver.finish(provider, noState, cookie), 403, 'PermissionException', sessions, 'no state');

    assert.match(
      await driver.assertRefused(await driver.finish(provider, callback), 400, 'InputException', sessions, 'no cookie'),
      /start again/,
    );
    // The second-to-last character always carries whole bits of the sealed value: change it, whatever it is.
    const altered = `${cookie.slice(0, -2)}${cookie.at(-2) === 'A' ? 'B' : 'A'}${cookie.slice(-1)}`;
    await driver.assertRefused(await driver.finish(provider, callback, altered), 400, 'InputException', sessions, 'altered cookie');
    await driver.assertRefused(
      await driver.finish(provider, callback, 'not-a-sealed-state'),
      400,
      'InputException',
      sessions,
      'garbage cookie',
    );
    const expired = sealState(t.deps, {
      purpose: 'oidc-login',
      provider_id: provider.id,
      state: callback.searchParams.get('state')!,
      nonce: location.searchParams.get('nonce')!,
      code_verifier: 'v'.repeat(43),
      next: '/',
      expires_at: Date.now() - 1000,
    });
    await driver.assertRefused(await driver.finish(provider, callback, expired), 400, 'InputException', sessions, 'expired cookie');
  });

  it('refuses the state cookie of a sign-in started with another provider (400)', async () => {
    const { t, idp, provider, driver } = sso;
    const sessions = await driver.sessionCount();
    const other = await createSsoProvider(t, idp);
    const { location, cookie } = await driver.start(provider);
    const callback = await idp.signIn(location.href, 'ann');
    const message = await driver.assertRefused(await driver.finish(other, callback, cookie), 400, 'InputException', sessions);
    assert.match(message, /another single sign-on provider/);
  });

  it('refuses an ID token issued for another nonce (401): asked of the provider, or changed in the sealed state', async () => {
    const { t, idp, provider, driver } = sso;
    const sessions = await driver.sessionCount();
    const message = await refusedWithAltered('nonce', 'a-nonce-this-browser-never-sent-0123456789', sessions);
    assert.match(message, /verification \(claim nonce\)/);

    // The state cookie's own nonce changed (sealed with the key, as only the server can): the code exchange
    // itself succeeds (same verifier), the ID token's nonce no longer matches.
    const second = await driver.start(provider);
    const callback = await idp.signIn(second.location.href, 'ann');
    const saved = openState(t.deps, decodeURIComponent(second.cookie));
    const resealed = sealState(t.deps, { ...saved, nonce: 'another-nonce-0123456789abcdefghijklmnopqrstu' });
    const tampered = await driver.assertRefused(await driver.finish(provider, callback, resealed), 401, 'UnauthorizedException', sessions);
    assert.match(tampered, /claim nonce/);
  });

  it('refuses an ID token from the token endpoint signed by a key not in the provider’s JWKS (401)', async () => {
    const { idp, provider, driver } = sso;
    const sessions = await driver.sessionCount();
    try {
      for (const mode of ['same-kid', 'unknown-kid'] as const) {
        idp.forgeIdTokens(mode);
        const message = await driver.assertRefused(await driver.signIn(provider, 'ann'), 401, 'UnauthorizedException', sessions, mode);
        assert.match(message, /failed verification/, mode);
      }
    } finally {
      idp.forgeIdTokens(null);
    }
    // The same sign-in with the provider's own signature goes through.
    const res = await driver.signIn(provider, 'ann');
    assert.equal(res.statusCode, 302, res.body);
  });

  it('refuses a code sent with another PKCE challenge, and a code used twice (401)', async () => {
    const { idp, provider, driver } = sso;
    const sessions = await driver.sessionCount();
    const message = await refusedWithAltered('code_challenge', 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', sessions);
    assert.match(message, /invalid_grant/);

    const good = await driver.start(provider);
    const callback = await idp.signIn(good.location.href, 'ann');
    assert.equal((await driver.finish(provider, callback, good.cookie)).statusCode, 302);
    // A replay of the whole answer (the cookie kept by an attacker): the provider refuses the used code.
    const replayed = await driver.sessionCount();
    await driver.assertRefused(await driver.finish(provider, callback, good.cookie), 401, 'UnauthorizedException', replayed, 'replay');
  });

  it('refuses when the provider reports an error (?error=access_denied): 401', async () => {
    const { idp, provider, driver } = sso;
    const sessions = await driver.sessionCount();
    const { location, cookie } = await driver.start(provider);
    const callback = await idp.signIn(location.href, 'ann', { deny: true });
    assert.equal(callback.searchParams.get('error'), 'access_denied');
    const message = await driver.assertRefused(await driver.finish(provider, callback, cookie), 401, 'UnauthorizedException', sessions);
    assert.match(message, /access_denied/);
  });

  it('refuses an unverified email, no email, an unknown agent, a contact, a disabled agent (401)', async () => {
    const { t, idp, provider, driver } = sso;
    const unverified = await t.makeAgent({ roles: ['Agent'] });
    idp.addAccount('unverified', { email: unverified.email, email_verified: false });
    idp.addAccount('no-email', { email: '', email_verified: true });
    idp.addAccount('stranger', { email: `stranger-${process.pid}@example.com`, email_verified: true });
    const contact = await createContact(t);
    idp.addAccount('contact', { email: String(contact.email), email_verified: true });
    const disabled = await t.makeAgent({ roles: ['Agent'] });
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/agents/${disabled.id}`, payload: { enabled: false } }));
    idp.addAccount('disabled', { email: disabled.email, email_verified: true });

    const agents = async () => (await t.deps.db.selectFrom('users').where('type', '=', 'agent').select('id').execute()).length;
    const agentsBefore = await agents();
    const sessions = await driver.sessionCount();
    const expectations: Array<[string, RegExp]> = [
      ['unverified', /not verified/],
      ['no-email', /no usable email/],
      ['stranger', /No agent has the email/],
      ['contact', /No agent has the email/],
      ['disabled', /disabled/],
    ];
    for (const [account, reason] of expectations) {
      const message = await driver.assertRefused(await driver.signIn(provider, account), 401, 'UnauthorizedException', sessions, account);
      assert.match(message, reason, account);
    }
    assert.equal(await agents(), agentsBefore, 'no agent was created');
  });

  it('refuses a disabled or deleted provider (404), at login and when the browser comes back', async () => {
    const { t, idp, driver } = sso;
    const sessions = await driver.sessionCount();
    const doomed = await createSsoProvider(t, idp);
    const { location, cookie } = await driver.start(doomed);
    const callback = await idp.signIn(location.href, 'ann');
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/oidc/${doomed.id}`, payload: { ...providerBody(doomed), enabled: false } }));
    await driver.assertRefused(await driver.finish(doomed, callback, cookie), 404, 'NotFoundException', sessions, 'disabled at finish');
    assertError(await t.call({ method: 'GET', url: `/api/v1/oidc/${doomed.id}/login`, as: null }), 404, 'NotFoundException');

    const deleted = await createSsoProvider(t, idp);
    const again = await driver.start(deleted);
    const back = await idp.signIn(again.location.href, 'ann');
    dataOf(await t.call({ method: 'DELETE', url: `/api/v1/oidc/${deleted.id}` }));
    await driver.assertRefused(await driver.finish(deleted, back, again.cookie), 404, 'NotFoundException', sessions, 'deleted at finish');
    assertError(await t.call({ method: 'GET', url: `/api/v1/oidc/${deleted.id}/login`, as: null }), 404, 'NotFoundException');
    assertError(await t.call({ method: 'GET', url: '/api/v1/oidc/999999/login', as: null }), 404, 'NotFoundException');
    assertError(await t.call({ method: 'GET', url: '/api/v1/oidc/nope/finish', as: null }), 404, 'NotFoundException');
  });

  it('a browser gets a page for a refusal, with the reason escaped; other clients get the envelope', async () => {
    const { t, idp, provider, driver } = sso;
    const { location, cookie } = await driver.start(provider);
    const callback = await idp.signIn(location.href, 'ann', { deny: true });
    const page = await driver.finish(provider, callback, cookie, { accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8' });
    assert.equal(page.statusCode, 401);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(String(page.headers['content-security-policy']), /default-src 'none'/);
    assert.equal(page.headers['cache-control'], 'no-store');
    assert.match(page.body, /Sign-in failed/);
    assert.match(page.body, /access_denied/);
    assert.match(page.body, /href="http:\/\/localhost:9000\/"/);
    assert.equal(cookieOf(page, 'parley_session'), undefined);
    // A provider's error text is shown escaped, never as markup.
    const crafted = new URL(callback);
    crafted.searchParams.set('error_description', '<script>alert(1)</script>');
    const second = await driver.start(provider);
    crafted.searchParams.set('state', (await idp.signIn(second.location.href, 'ann', { deny: true })).searchParams.get('state')!);
    const escaped = await driver.finish(provider, crafted, second.cookie, { accept: 'text/html' });
    assert.equal(escaped.statusCode, 401);
    assert.equal(escaped.body.includes('<script>'), false);
    assert.match(escaped.body, /&#60;script&#62;/);
    // The login route too: an off-site next, as a page.
    const login = await t.call({
      method: 'GET',
      url: `/api/v1/oidc/${provider.id}/login?next=//evil.example`,
      as: null,
      headers: { accept: 'text/html' },
    });
    assert.equal(login.statusCode, 400);
    assert.match(String(login.headers['content-type']), /^text\/html/);
  });
  it('refuses malformed answers from the browser (400) without reading further: repeated, huge or NUL parameters', async () => {
    const { t, provider, driver } = sso;
    const { cookie } = await driver.start(provider);
    const sessions = await driver.sessionCount();
    const base = `/api/v1/oidc/${provider.id}/finish`;
    for (const query of [
      '?state=a&state=b&code=c',
      `?state=a&code=${'c'.repeat(5000)}`,
      '?state=a%00&code=c',
      `?state=${'s'.repeat(600)}&code=c`,
    ]) {
      const res = await t.call({ method: 'GET', url: `${base}${query}`, as: null, headers: { cookie: `${STATE_COOKIE}=${cookie}` } });
      assertError(res, 400, 'InputException', query.slice(0, 40));
      assert.equal(cookieOf(res, 'parley_session'), undefined);
      assert.equal(cookieOf(res, STATE_COOKIE)?.maxAge, 0, 'the state cookie is cleared');
      assert.equal(typeof res.headers['set-cookie'], 'string', 'one Set-Cookie');
    }
    assert.equal(await driver.sessionCount(), sessions);
    // A provider's own extra parameters are accepted (and ignored): only the state decides here.
    const extra = await t.call({
      method: 'GET',
      url: `${base}?state=wrong&code=c&session_state=abc&scope=openid&authuser=0`,
      as: null,
      headers: { cookie: `${STATE_COOKIE}=${cookie}` },
    });
    assertError(extra, 403, 'PermissionException');
  });
});
