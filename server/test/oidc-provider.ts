// A real OpenID provider for the single sign-on tests: the `oidc-provider` package on
// 127.0.0.1, port 0. Its sign-in and consent pages are replaced by a minimal interaction
// handler (no HTML, no browser): `signIn` follows the provider's redirects with a cookie jar,
// like a browser, and answers the login prompt with the account the test names. Clients are
// registered at run time (`registerClient`), since a redirect URI carries the Parley
// provider's id, known only once the test created it.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';
import { STATE_COOKIE } from '../src/oidc/oidc.flow.ts';
import { assertError, buildTestApp, type Caller, dataOf, type TestApp } from './helpers.ts';
import Provider, { type Account, type KoaContextLike } from 'oidc-provider';
import { createMemoryAdapter } from 'oidc-provider/lib/adapters/memory_adapter.js';

export interface TestAccount {
  email: string;
  email_verified: boolean;
  given_name?: string;
  family_name?: string;
}

export interface TestClient {
  clientId: string;
  clientSecret: string;
}

export interface TestIdp {
  /** The issuer URL (http://127.0.0.1:<port>): the provider_url to configure. */
  readonly issuer: string;
  /** Adds (or replaces) an account the provider can sign in. */
  addAccount(id: string, account: TestAccount): void;
  /** Registers a confidential client (client_secret_basic, as Parley authenticates) allowed to redirect to these URIs. */
  registerClient(redirectUris: string[]): Promise<TestClient>;
  /**
   * Plays the browser from the authorization URL Parley redirected to: signs `account` in
   * (or refuses, with `deny`) and follows the provider's redirects until one leaves it.
   * Answers that URL: the redirect URI with `code` and `state` (or `error`).
   */
  signIn(authorizationUrl: string, account: string, options?: { deny?: boolean }): Promise<URL>;
  /**
   * From now on, the token endpoint's ID tokens are re-signed (claims unchanged) with a key that
   * is not in the provider's JWKS: under the provider's own key id (`same-kid`) or another one
   * (`unknown-kid`); null stops it. A forger's token, as a man in the middle would send it.
   */
  forgeIdTokens(mode: 'same-kid' | 'unknown-kid' | null): void;
  close(): Promise<void>;
}

export interface TestIdpOptions {
  accounts?: Record<string, TestAccount>;
  /**
   * oidc-provider's default (true) leaves the scope claims (email, names) out of an ID token
   * issued with an access token: they come from the userinfo endpoint. false puts them in the
   * ID token, as Keycloak and Google do.
   */
  conformIdTokenClaims?: boolean;
  /**
   * The account a real browser signs in as: a browser reaches the login prompt without the
   * `?account=` that `signIn` adds, and this answers it instead (the browser tests).
   */
  browserAccount?: string;
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

export async function startOidcProvider(options: TestIdpOptions = {}): Promise<TestIdp> {
  const accounts = new Map<string, TestAccount>(Object.entries(options.accounts ?? {}));
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(privateKey)), alg: 'RS256', use: 'sig', kid: randomBytes(8).toString('hex') };

  let provider: Provider | undefined;
  let forging: 'same-kid' | 'unknown-kid' | null = null;
  const forger = (await generateKeyPair('RS256')).privateKey;
  const server = createServer((req, res) => {
    if (!provider) {
      res.statusCode = 503;
      res.end();
      return;
    }
    if (forging && req.method === 'POST' && req.url === '/token') {
      const kid = forging === 'same-kid' ? jwk.kid : `${jwk.kid}-forged`;
      rewriteIdToken(res, (payload) => new SignJWT(payload).setProtectedHeader({ alg: 'RS256', kid }).sign(forger));
    }
    if (req.url?.startsWith('/interaction/')) {
      interact(provider, req, res, options.browserAccount).catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
      return;
    }
    provider.callback()(req, res);
  });
  const port = await listen(server);
  const issuer = `http://127.0.0.1:${port}`;

  provider = new Provider(issuer, {
    adapter: createMemoryAdapter(),
    // Stated, so that the provider does not warn about its defaults.
    ttl: { AccessToken: 600, AuthorizationCode: 60, IdToken: 600, Interaction: 600, Grant: 600, Session: 600 },
    jwks: { keys: [jwk] },
    cookies: { keys: [randomBytes(16).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'given_name', 'family_name'] },
    conformIdTokenClaims: options.conformIdTokenClaims ?? true,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    // Every client is first-party here: consent is given by the sign-in itself.
    async loadExistingGrant(ctx: KoaContextLike) {
      const { oidc } = ctx;
      const existing = oidc.result?.consent?.grantId ?? oidc.session.grantIdFor(oidc.client.clientId);
      if (existing) return oidc.provider.Grant.find(existing);
      if (!oidc.session.accountId) return undefined;
      const grant = new oidc.provider.Grant({ accountId: oidc.session.accountId, clientId: oidc.client.clientId });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
    async findAccount(_ctx, id): Promise<Account | undefined> {
      const account = accounts.get(id);
      if (!account) return undefined;
      const name = [account.given_name, account.family_name].filter(Boolean).join(' ');
      return {
        accountId: id,
        claims: () => ({ sub: id, ...account, ...(name ? { name } : {}) }),
      };
    },
  });
  provider.proxy = false;

  return {
    issuer,
    addAccount(id, account) {
      accounts.set(id, account);
    },
    async registerClient(redirectUris) {
      const client = { clientId: `parley-${randomBytes(6).toString('hex')}`, clientSecret: randomBytes(24).toString('base64url') };
      await provider!.Client.adapter.upsert(client.clientId, {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      });
      return client;
    },
    signIn: (authorizationUrl, account, signInOptions = {}) => followSignIn(issuer, authorizationUrl, account, signInOptions.deny ?? false),
    forgeIdTokens(mode) {
      forging = mode;
    },
    close: () => closeServer(server),
  };
}

/**
 * Replaces the `id_token` of the JSON answer written to `res` by `sign(its claims)`: the token
 * endpoint's answer, rewritten on its way out (headers are not sent before `end`).
 */
function rewriteIdToken(res: ServerResponse, sign: (payload: JWTPayload) => Promise<string>): void {
  const end = res.end.bind(res) as (chunk?: string | Buffer) => ServerResponse;
  const replacement = (chunk?: unknown): ServerResponse => {
    if (typeof chunk !== 'string' && !Buffer.isBuffer(chunk)) return end();
    const body = JSON.parse(chunk.toString()) as { id_token?: unknown };
    if (typeof body.id_token !== 'string') return end(chunk);
    const claims = JSON.parse(Buffer.from(body.id_token.split('.')[1] ?? '', 'base64url').toString()) as JWTPayload;
    sign(claims).then(
      (forged) => {
        const text = JSON.stringify({ ...body, id_token: forged });
        res.setHeader('content-length', Buffer.byteLength(text));
        end(text);
      },
      (error: unknown) => res.destroy(error instanceof Error ? error : new Error(String(error))),
    );
    return res;
  };
  res.end = replacement as ServerResponse['end'];
}

/** The login prompt answered with the account named in the query (`?account=`), or refused with `?deny=1`. */
async function interact(provider: Provider, req: IncomingMessage, res: ServerResponse, browserAccount?: string): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://idp.invalid');
  const details = await provider.interactionDetails(req, res);
  if (url.searchParams.get('deny') === '1') {
    await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The user refused' });
    return;
  }
  const account = url.searchParams.get('account') ?? browserAccount;
  if (details.prompt.name !== 'login' || !account) {
    res.statusCode = 400;
    res.end(`unexpected prompt ${details.prompt.name}`);
    return;
  }
  await provider.interactionFinished(req, res, { login: { accountId: account } }, { mergeWithLastSubmission: false });
}

/** A browser's part: follows redirects within the provider, keeping its cookies, until one leaves it. */
async function followSignIn(issuer: string, authorizationUrl: string, account: string, deny: boolean): Promise<URL> {
  const jar = new Map<string, string>();
  const origin = new URL(issuer).origin;
  let url = new URL(authorizationUrl);
  for (let hop = 0; hop < 12; hop += 1) {
    if (url.origin !== origin) return url;
    if (url.pathname.startsWith('/interaction/')) {
      if (deny) url.searchParams.set('deny', '1');
      else url.searchParams.set('account', account);
    }
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {}, signal: AbortSignal.timeout(5000) });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=.*1970/i.test(a));
      if (expired) jar.delete(name);
      else jar.set(name, pair.slice(eq + 1).trim());
    }
    const location = response.headers.get('location');
    if (response.status < 300 || response.status >= 400 || !location) {
      throw new Error(`the provider stopped the sign-in at ${url.pathname}: ${response.status} ${await response.text()}`);
    }
    await response.body?.cancel();
    url = new URL(location, url);
  }
  throw new Error('the sign-in did not leave the provider after 12 redirects');
}

/** An address where nothing listens: a provider that is down. */
export async function unreachableUrl(): Promise<string> {
  const server = createServer();
  const port = await listen(server);
  await closeServer(server);
  return `http://127.0.0.1:${port}`;
}

/** A server that accepts connections and never answers: a provider that hangs. */
export async function silentServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(() => undefined);
  const port = await listen(server);
  return { url: `http://127.0.0.1:${port}`, close: () => closeServer(server) };
}

/** A Parley provider record, as the API answers it. */
export interface SsoProvider {
  id: number;
  name: string;
  enabled: boolean;
  client_id: string;
  client_secret: string;
  provider: string;
  provider_url: string;
  redirect_uri: string;
  logo_url: string;
  auto_provision: boolean;
  provision_role_id: number | null;
  configured_by: { id: number; name: string; enabled: boolean } | null;
  created_at: string;
  updated_at: string;
}

let providerCount = 0;

/**
 * A Parley single sign-on provider for this identity provider, through the API (as the test
 * app's admin, or `as`): created, its redirect URI registered at the provider with a new client, and
 * that client's credentials saved on it.
 */
export async function createSsoProvider(
  t: TestApp,
  idp: TestIdp,
  overrides: { auto_provision?: boolean; provision_role_id?: number | null; enabled?: boolean; name?: string } = {},
  as?: Caller,
): Promise<SsoProvider & { clientSecret: string }> {
  providerCount += 1;
  const body = {
    name: overrides.name ?? `Test IdP ${process.pid}-${providerCount}`,
    provider: 'Custom',
    provider_url: idp.issuer,
    client_id: 'registered-next',
    client_secret: 'registered-next',
  };
  const created = dataOf<SsoProvider>(await t.call({ method: 'POST', url: '/api/v1/oidc', payload: body, ...(as ? { as } : {}) }));
  const client = await idp.registerClient([created.redirect_uri]);
  const payload = { ...body, client_id: client.clientId, client_secret: client.clientSecret, ...overrides };
  const saved = dataOf<SsoProvider>(await t.call({ method: 'PUT', url: `/api/v1/oidc/${created.id}`, payload, ...(as ? { as } : {}) }));
  return { ...saved, clientSecret: client.clientSecret };
}

type Answer = LightMyRequestResponse & { json: () => unknown };

/** A Set-Cookie of an answer, by name. */
export function cookieOf(res: Answer, name: string) {
  return res.cookies.find((c) => c.name === name);
}

/**
 * The browser's side of a sign-in against the test app: `start` the login (302 and the state
 * cookie), `finish` with what the provider sent back, or `signIn` doing both with an account.
 */
export function signInDriver(t: TestApp, idp: TestIdp) {
  async function start(p: { id: number }, next?: string): Promise<{ location: URL; cookie: string; res: Answer }> {
    const query = next === undefined ? '' : `?next=${encodeURIComponent(next)}`;
    const res = await t.call({ method: 'GET', url: `/api/v1/oidc/${p.id}/login${query}`, as: null });
    assert.equal(res.statusCode, 302, res.body);
    const cookie = cookieOf(res, STATE_COOKIE);
    assert.ok(cookie, 'the state cookie is set');
    return { location: new URL(String(res.headers.location)), cookie: cookie.value, res };
  }

  function finish(p: { id: number }, callback: URL, cookie?: string, headers: Record<string, string> = {}) {
    return t.call({
      method: 'GET',
      url: `/api/v1/oidc/${p.id}/finish${callback.search}`,
      as: null,
      headers: { ...(cookie === undefined ? {} : { cookie: `${STATE_COOKIE}=${cookie}` }), ...headers },
    });
  }

  async function signIn(p: { id: number }, account: string, next?: string): Promise<Answer> {
    const { location, cookie } = await start(p, next);
    return finish(p, await idp.signIn(location.href, account), cookie);
  }

  const sessionCount = async () =>
    Number(
      (
        await t.deps.db
          .selectFrom('sessions')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** A refusal: this status and type, no session opened, the state cookie cleared. Answers the message. */
  async function assertRefused(res: Answer, status: number, type: string, sessionsBefore: number, label = ''): Promise<string> {
    const body = assertError(res, status, type, label);
    assert.equal(cookieOf(res, 'parley_session'), undefined, `${label}: no session cookie`);
    assert.equal(cookieOf(res, 'csrf_token'), undefined, `${label}: no CSRF cookie`);
    const cleared = cookieOf(res, STATE_COOKIE);
    assert.ok(cleared && cleared.value === '' && cleared.maxAge === 0, `${label}: the state cookie is cleared`);
    assert.equal(await sessionCount(), sessionsBefore, `${label}: no session row`);
    return body.message;
  }

  return { start, finish, signIn, sessionCount, assertRefused };
}

/** The body of a provider for PUT, with its real secret. */
export function providerBody(p: SsoProvider & { clientSecret: string }) {
  return { name: p.name, provider: p.provider, provider_url: p.provider_url, client_id: p.client_id, client_secret: p.clientSecret };
}

/** The setup of the sign-in tests: an app, an identity provider, a provider for it, Ann able to sign in. */
export interface SignInFixture {
  t: TestApp;
  idp: TestIdp;
  provider: SsoProvider & { clientSecret: string };
  ann: Caller;
  driver: ReturnType<typeof signInDriver>;
  close(): Promise<void>;
}

export async function startSignInFixture(): Promise<SignInFixture> {
  // Many sign-ins from one address: the per-address limit is tested in oidc.upstream.test.ts.
  const t = await buildTestApp({ env: { LOGIN_RATE_LIMIT_PER_MINUTE: '100000' } });
  const idp = await startOidcProvider();
  const ann = await t.makeAgent({ roles: ['Agent'], first_name: 'Ann' });
  // The provider's address in another case: emails are compared case-insensitively.
  idp.addAccount('ann', { email: ann.email.toUpperCase(), email_verified: true, given_name: 'Ann' });
  const provider = await createSsoProvider(t, idp);
  const driver = signInDriver(t, idp);
  return {
    t,
    idp,
    provider,
    ann,
    driver,
    async close() {
      await t.close();
      await idp.close();
    },
  };
}
