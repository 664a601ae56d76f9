// Every /api/v1 route is authenticated unless its config says `auth: 'public'`,
// and checks the permission its config names. 401 = who are you; 403 = not allowed.
// The same config states the rule in the OpenAPI document, so the two cannot drift apart.
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { authenticateApiKey, authenticateSession, CSRF_COOKIE, CSRF_HEADER, csrfMatches, SESSION_COOKIE } from '../auth/auth.service.ts';
import type { AuditActor } from '../audit/audit.service.ts';
import type { Principal } from '../auth/credential-cache.ts';
import { assertNotHeldAtEnrolment } from '../auth/mfa-hold.ts';
import type { AppDeps } from '../deps.ts';
import { PermissionError, UnauthorizedError } from '../errors.ts';
import { errors } from './schemas.ts';
import { type Permission, requirePermission } from '../auth/permissions.ts';

/**
 * Rules a service applies per resource, beyond the route's own (docs/api.md, Permissions and access).
 * A route names the one its service applies, and the OpenAPI document states it.
 */
export const SERVICE_RULES = {
  conversation: 'the conversation access rules: an unknown conversation is a 404, one the caller may not read a 403',
  conversation_hidden:
    'the conversation access rules, with one answer for unknown and not readable: a 404 (nothing tells that the conversation exists)',
  conversation_draft:
    'the conversation access rules, except that a conversation the caller may not read is a 404 like an unknown one; saving a draft also needs `messages:write` (403)',
  team_inbox: 'the team inbox rule: `conversations:read_all`, or `conversations:read_team_inbox` and membership of the team (else 403)',
  macro: 'macro visibility: a macro the caller may not see is a 404; global and team macros need `macros:manage` to change',
  search: 'read access per result: each section holds only what the caller may read',
  conversation_sla:
    '`sla:manage` or `conversations:update_team_assignee` (else 403, checked first, like the permission of the other conversation changes), then the conversation access rules (unknown → 404, not readable → 403)',
  contact:
    'the contact access rule: `contacts:read_all`, or a conversation of the contact the caller may read; an unknown contact is a 404, one the caller may not read a 403',
  contact_update:
    "the contact access rule (unknown → 404, not readable → 403); changing the email, or giving the contact its first `external_user_id`, needs `contacts:write_identity` (403); a set `external_user_id` belongs to the widget's identity token and cannot be changed (422)",
  contact_note_author:
    "the contact access rule (unknown → 404, not readable → 403), then note authorship: the author deletes their own note with `contact_notes:write`; another agent's note needs `contact_notes:delete`",
} as const;
export type ServiceRule = keyof typeof SERVICE_RULES;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** `public`: no credentials needed. Default: an authenticated agent. */
    auth?: 'public';
    /** The permission the route needs, checked after authentication. */
    permission?: Permission;
    /** The per-resource rule the route's service applies after the route's own check. */
    serviceRule?: ServiceRule;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const SECURITY = [{ basicAuth: [] }, { tokenAuth: [] }, { sessionCookie: [] }];

/** Who may call a route: `public`, any `authenticated` agent, or one holding `permission`. */
export type AccessLevel = 'public' | 'authenticated' | 'permission';

/**
 * States a route's rule in its OpenAPI operation: a sentence in the description and the
 * extensions `x-access` (AccessLevel), `x-permission` and `x-service-rule` (when there is one).
 */
function documentAccess(route: RouteOptions): void {
  const schema = route.schema as Record<string, unknown>;
  // GET and its HEAD route share one schema object: state the rule once.
  if (schema['x-access'] !== undefined) return;
  const config = route.config ?? {};
  const rule = config.serviceRule;
  let text: string;
  if (config.auth === 'public') {
    schema['x-access'] = 'public';
    text = 'Public: no credentials.';
  } else {
    schema['security'] = SECURITY;
    // API credentials not yet verified are refused with 429 once their address failed too often (AUTH_FAILURE_LIMIT_PER_MINUTE).
    const response = (schema['response'] ?? {}) as Record<string | number, unknown>;
    if (!response[429] && !response['429']) schema['response'] = { ...response, ...errors(429) };
    if (config.permission) {
      schema['x-access'] = 'permission';
      schema['x-permission'] = config.permission;
      text = `Requires permission \`${config.permission}\``;
    } else {
      schema['x-access'] = 'authenticated';
      text = rule ? 'Any authenticated agent at the route level' : 'Any authenticated agent';
    }
    if (rule) schema['x-service-rule'] = rule;
    text += rule ? `; the service then applies ${SERVICE_RULES[rule]}.` : '.';
  }
  schema['description'] = schema['description'] ? `${schema['description']}\n\n${text}` : text;
}

export function registerAccessControl(app: FastifyInstance, deps: AppDeps): void {
  app.decorateRequest('principal', null);
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/api/v1') && route.schema) documentAccess(route);
  });
  app.addHook('onRequest', async (request: FastifyRequest) => {
    const config = request.routeOptions.config;
    if (!request.routeOptions.url?.startsWith('/api/v1') || config.auth === 'public') return;
    const principal = await authenticate(deps, request);
    request.principal = principal;
    assertNotHeldAtEnrolment(principal, request.method, request.routeOptions.url);
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

/** Where a request came from, for audit entries (audit/audit.service.ts). */
export function requestOrigin(request: FastifyRequest): Pick<AuditActor, 'ip' | 'userAgent' | 'requestId'> {
  const agent = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof agent === 'string' ? agent.slice(0, 512) : null, requestId: String(request.id) };
}

/** The authenticated caller as the actor of the changes it makes: an agent, or an agent's API key. */
export function auditActorOf(request: FastifyRequest): AuditActor {
  const principal = principalOf(request);
  return {
    type: principal.method === 'api_key' ? 'api_key' : 'agent',
    id: principal.userId,
    name: `${principal.firstName} ${principal.lastName}`.trim(),
    ...requestOrigin(request),
  };
}
