// Every /api/v1 route is authenticated unless its config says `auth: 'public'`,
// and checks the permission its config names. 401 = who are you; 403 = not allowed.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { authenticateApiKey, authenticateSession, CSRF_COOKIE, CSRF_HEADER, csrfMatches, SESSION_COOKIE } from '../auth/auth.service.ts';
import type { Principal } from '../auth/credential-cache.ts';
import type { AppDeps } from '../deps.ts';
import { PermissionError, UnauthorizedError } from '../errors.ts';
import { errors } from './schemas.ts';
import { type Permission, requirePermission } from '../roles/permissions.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `public`: no credentials needed. Default: an authenticated agent. */
    auth?: 'public';
    /** The permission the route needs, checked after authentication. */
    permission?: Permission;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export function registerAccessControl(app: FastifyInstance, deps: AppDeps): void {
  app.decorateRequest('principal', null);

  // Document who may call each route, from the same config that enforces it.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/v1') || route.config?.auth === 'public' || !route.schema) return;
    const schema = route.schema as Record<string, unknown>;
    schema['security'] = [{ basicAuth: [] }, { tokenAuth: [] }, { sessionCookie: [] }];
    // API credentials not yet verified are refused with 429 once their address failed too often (AUTH_FAILURE_LIMIT_PER_MINUTE).
    const response = (schema['response'] ?? {}) as Record<string | number, unknown>;
    if (!response[429] && !response['429']) schema['response'] = { ...response, ...errors(429) };
    const permission = route.config?.permission;
    if (permission) {
      const text = `Requires permission \`${permission}\`.`;
      schema['description'] = schema['description'] ? `${schema['description']}\n\n${text}` : text;
    }
  });

  app.addHook('onRequest', async (request: FastifyRequest) => {
    const config = request.routeOptions.config;
    if (!request.routeOptions.url?.startsWith('/api/v1') || config.auth === 'public') return;
    const principal = await authenticate(deps, request);
    request.principal = principal;
    if (config.permission) requirePermission(principal, config.permission);
  });
}

async function authenticate(deps: AppDeps, request: FastifyRequest): Promise<Principal> {
  const header = request.headers.authorization;
  if (header) return authenticateApiKey(deps, header, request.ip);
  const token = request.cookies[SESSION_COOKIE];
  if (!token) throw new UnauthorizedError('Authentication required: send API credentials or log in');
  const principal = await authenticateSession(deps, token);
  if (UNSAFE_METHODS.has(request.method) && !csrfMatches(request.cookies[CSRF_COOKIE], request.headers[CSRF_HEADER])) {
    throw new PermissionError('CSRF token missing or mismatched: send the csrf_token cookie value in X-CSRF-Token');
  }
  return principal;
}

/** The caller of an authenticated route (the hook guarantees it is set). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new UnauthorizedError();
  return request.principal;
}
