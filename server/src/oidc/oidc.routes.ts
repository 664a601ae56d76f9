// Single sign-on (docs/api.md, Single sign-on (OIDC)): the providers' administration
// (`oidc:manage`), the public list for a sign-in page, and the two browser routes of a sign-in.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { setSessionCookies, secureCookies } from '../auth/session-cookies.ts';
import type { AppDeps } from '../deps.ts';
import { auditActorOf, principalOf } from '../http/access.ts';
import { Envelope, errors, IdParams, ok, TrueEnvelope, PutBody } from '../http/schemas.ts';
import { beginLogin, finishLogin, STATE_COOKIE, STATE_COOKIE_PATH, STATE_TTL_SECONDS } from './oidc.flow.ts';
import { signInErrorHandler } from './oidc.page.ts';
import {
  EnabledOidcProvider,
  FinishQuery,
  LoginQuery,
  OidcDiscoveryReport,
  OidcProviderBody,
  OidcProviderRecord,
  OidcProviderSpecEnvelope,
} from './oidc.schema.ts';
import * as service from './oidc.service.ts';

/** The public list is read by every sign-in page load: generous, but bounded per address. */
const PUBLIC_LIST_PER_MINUTE = 120;

const Redirect = (description: string) => ({
  type: 'null',
  description,
  headers: { location: { type: 'string', description: 'Where the browser goes next' } },
});

export function oidcRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  const stateCookie = { path: STATE_COOKIE_PATH, httpOnly: true, sameSite: 'lax' as const, secure: secureCookies(deps) };
  const signInLimit = { max: deps.config.loginRateLimitPerMinute, timeWindow: 60_000 };
  return async (app) => {
    const tags = ['Single sign-on'];
    const manage = { permission: 'oidc:manage' } as const;

    app.get(
      '/oidc',
      {
        config: manage,
        schema: {
          tags,
          operationId: 'listOidcProviders',
          summary: 'List single sign-on providers, by name',
          response: { 200: Envelope(Type.Array(OidcProviderRecord)), ...errors(401, 403) },
        },
      },
      async () => ok(await service.listProviders(deps)),
    );
    app.get(
      '/oidc/enabled',
      {
        config: { auth: 'public', rateLimit: { max: PUBLIC_LIST_PER_MINUTE, timeWindow: 60_000 } },
        schema: {
          tags,
          operationId: 'listEnabledOidcProviders',
          summary: 'The enabled single sign-on providers, for a sign-in page',
          description: `Nothing secret: name, label, logo and the URL that starts a sign-in. Rate limited to ${PUBLIC_LIST_PER_MINUTE} requests a minute per client address.`,
          response: { 200: Envelope(Type.Array(EnabledOidcProvider)), ...errors(429) },
        },
      },
      async () => ok(await service.listEnabledProviders(deps)),
    );
    app.post(
      '/oidc',
      {
        config: manage,
        schema: {
          tags,
          operationId: 'createOidcProvider',
          summary: 'Add a single sign-on provider',
          description:
            'Saved without contacting the provider (use `POST /oidc/{id}/test` to check it). `client_secret` is required and stored encrypted; the answer carries the `redirect_uri` to register at the provider.',
          body: OidcProviderBody,
          response: { 200: Envelope(OidcProviderRecord), ...errors(400, 401, 403, 409) },
        },
      },
      async (request) => ok(await service.createProvider(deps, principalOf(request), auditActorOf(request), request.body)),
    );
    app.get(
      '/oidc/:id',
      {
        config: manage,
        schema: {
          tags,
          operationId: 'getOidcProvider',
          summary: 'One single sign-on provider',
          description:
            'Answers `{"success": true, "data": …}`: the interface specification gives this one operation `success` in place of `status`. Errors use the usual envelope.',
          params: IdParams,
          response: { 200: OidcProviderSpecEnvelope, ...errors(401, 403, 404) },
        },
      },
      async (request) => ({ success: true as const, data: await service.getProvider(deps, request.params.id) }),
    );
    app.put(
      '/oidc/:id',
      {
        config: manage,
        schema: {
          tags,
          operationId: 'updateOidcProvider',
          summary: 'Replace a single sign-on provider',
          description:
            'The full object: a field with a default that is left out takes its default. Leave `client_secret` out, or send the mask, to keep the stored secret.',
          params: IdParams,
          body: PutBody(OidcProviderBody, OidcProviderRecord, { title: 'UpdateOidcProvider' }),
          response: { 200: Envelope(OidcProviderRecord), ...errors(400, 401, 403, 404, 409) },
        },
      },
      async (request) =>
        ok(await service.updateProvider(deps, principalOf(request), auditActorOf(request), request.params.id, request.body)),
    );
    app.delete(
      '/oidc/:id',
      {
        config: manage,
        schema: {
          tags,
          operationId: 'deleteOidcProvider',
          summary: 'Delete a single sign-on provider',
          description:
            'Sign-ins under way with it are refused when they come back, and the sessions it opened are ended. Agents keep their accounts.',
          params: IdParams,
          response: { 200: TrueEnvelope, ...errors(401, 403, 404) },
        },
      },
      async (request) => {
        await service.deleteProvider(deps, auditActorOf(request), request.params.id);
        return ok(true as const);
      },
    );
    app.post(
      '/oidc/:id/test',
      {
        config: manage,
        schema: {
          tags,
          operationId: 'testOidcProvider',
          summary: 'Check a provider: run its discovery now',
          description:
            'Reads `{provider_url}/.well-known/openid-configuration` (bypassing the cache) and reports the endpoints Parley will use. Unreachable or broken discovery → 502, too slow → 504.',
          params: IdParams,
          response: { 200: Envelope(OidcDiscoveryReport), ...errors(401, 403, 404, 422, 502, 504) },
        },
      },
      async (request) => ok(await service.testProvider(deps, request.params.id)),
    );

    app.get(
      '/oidc/:id/login',
      {
        exposeHeadRoute: false,
        errorHandler: signInErrorHandler(deps, 'login'),
        config: { auth: 'public', rateLimit: signInLimit },
        schema: {
          tags,
          operationId: 'startOidcLogin',
          summary: 'Start a sign-in with this provider (browser)',
          description:
            'Redirects (302) to the provider with `state`, `nonce` and a PKCE S256 challenge, and sets the short-lived (10 minutes), encrypted, HttpOnly `parley_oidc` cookie that the finish route reads. `next`: a path on this site to land on afterwards. A refusal is a small HTML page for a browser (Accept: text/html), else the error envelope. Rate limited per client address (LOGIN_RATE_LIMIT_PER_MINUTE).',
          params: IdParams,
          querystring: LoginQuery,
          response: { 302: Redirect('To the provider’s authorization endpoint'), ...errors(400, 404, 422, 429, 502, 504) },
        },
      },
      async (request, reply) => {
        const { location, sealed } = await beginLogin(deps, request.params.id, request.query.next);
        reply.setCookie(STATE_COOKIE, sealed, { ...stateCookie, maxAge: STATE_TTL_SECONDS });
        return reply.redirect(location, 302);
      },
    );
    app.get(
      '/oidc/:id/finish',
      {
        exposeHeadRoute: false,
        errorHandler: signInErrorHandler(deps, 'finish', (reply) => reply.clearCookie(STATE_COOKIE, stateCookie)),
        config: { auth: 'public', rateLimit: signInLimit },
        schema: {
          tags,
          operationId: 'finishOidcLogin',
          summary: 'Finish a sign-in: the redirect URI (browser)',
          description:
            'The provider sends the browser back here. Checks the state against the `parley_oidc` cookie (which it clears, whatever the outcome), exchanges the code with the PKCE verifier, verifies the ID token (signature, issuer, audience, expiry, nonce), requires a verified email and an enabled agent with it (or creates one when the provider auto-provisions), then sets the session cookies as `POST /auth/login` does and redirects (302) to `next`. A refusal is a small HTML page for a browser (Accept: text/html), else the error envelope; no session is opened.',
          params: IdParams,
          querystring: FinishQuery,
          response: { 302: Redirect('To `next` on this site, signed in'), ...errors(400, 401, 403, 404, 422, 429, 502, 504) },
        },
      },
      async (request, reply) => {
        // Single use: cleared on every outcome (and by the error handler for refusals at the edge).
        reply.clearCookie(STATE_COOKIE, stateCookie);
        const url = request.raw.url ?? '';
        const finished = await finishLogin(deps, {
          id: request.params.id,
          query: request.query,
          rawQuery: url.includes('?') ? url.slice(url.indexOf('?') + 1) : '',
          sealed: request.cookies[STATE_COOKIE],
          meta: { userAgent: request.headers['user-agent'] ?? null, ip: request.ip, requestId: String(request.id) },
        });
        setSessionCookies(reply, deps, finished.session);
        request.log.info(
          { oidcProviderId: request.params.id, agentId: finished.agentId, provisioned: finished.provisioned },
          'single sign-on succeeded',
        );
        return reply.redirect(finished.location, 302);
      },
    );
  };
}
