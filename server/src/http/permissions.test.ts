// The whole route table against the access rules (docs/api.md, Permissions and access): every
// /api/v1 route of the built app must have its rule decided here, state it in the OpenAPI
// document, and enforce it: 401 without credentials unless public, 403 for an agent without any
// permission exactly where the route declares one.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { assertError, buildTestApp, type Caller, registeredRoutes, type TestApp } from '../../test/helpers.ts';

/** `public`: no credentials; `any`: any authenticated agent; otherwise the permission the route requires. */
const EXPECTED: Record<string, string> = {
  'POST /api/v1/auth/login': 'public',
  'POST /api/v1/auth/logout': 'any',
  'POST /api/v1/auth/password-reset': 'public',
  'POST /api/v1/auth/password-reset/confirm': 'public',
  'POST /api/v1/agents/{id}/invite': 'users:manage',
  'GET /api/v1/system-mail/status': 'any',
  'POST /api/v1/auth/mfa': 'public',
  'POST /api/v1/agents/me/2fa/setup': 'any',
  'POST /api/v1/agents/me/2fa/enable': 'any',
  'POST /api/v1/agents/me/2fa/disable': 'any',
  'DELETE /api/v1/agents/{id}/2fa': 'users:manage',
  'GET /api/v1/agents': 'users:manage',
  'POST /api/v1/agents': 'users:manage',
  'GET /api/v1/agents/compact': 'any',
  'GET /api/v1/agents/me': 'any',
  'PUT /api/v1/agents/me': 'any',
  'PUT /api/v1/agents/me/availability': 'any',
  'POST /api/v1/agents/me/api-key': 'any',
  'DELETE /api/v1/agents/me/api-key': 'any',
  'GET /api/v1/agents/me/sessions': 'any',
  'DELETE /api/v1/agents/me/sessions': 'any',
  'DELETE /api/v1/agents/me/sessions/{id}': 'any',
  'GET /api/v1/push/vapid-public-key': 'any',
  'GET /api/v1/agents/me/push-subscriptions': 'any',
  'POST /api/v1/agents/me/push-subscriptions': 'any',
  'DELETE /api/v1/agents/me/push-subscriptions/{id}': 'any',
  'GET /api/v1/agents/me/notification-settings': 'any',
  'PUT /api/v1/agents/me/notification-settings': 'any',
  'GET /api/v1/notifications': 'any',
  'GET /api/v1/notifications/unread-count': 'any',
  'POST /api/v1/notifications/read-all': 'any',
  'PUT /api/v1/notifications/{id}/read': 'any',
  'PUT /api/v1/notifications/{id}/unread': 'any',
  'DELETE /api/v1/notifications/{id}': 'any',
  'GET /api/v1/agents/{id}': 'users:manage',
  'PUT /api/v1/agents/{id}': 'users:manage',
  'DELETE /api/v1/agents/{id}': 'users:manage',
  'POST /api/v1/agents/{id}/api-key': 'users:manage',
  'DELETE /api/v1/agents/{id}/api-key': 'users:manage',
  'GET /api/v1/permissions': 'any',
  'GET /api/v1/roles': 'roles:manage',
  'POST /api/v1/roles': 'roles:manage',
  'GET /api/v1/roles/{id}': 'roles:manage',
  'PUT /api/v1/roles/{id}': 'roles:manage',
  'DELETE /api/v1/roles/{id}': 'roles:manage',
  'GET /api/v1/teams': 'any',
  'POST /api/v1/teams': 'teams:manage',
  'GET /api/v1/teams/compact': 'any',
  'GET /api/v1/teams/{id}': 'any',
  'PUT /api/v1/teams/{id}': 'teams:manage',
  'DELETE /api/v1/teams/{id}': 'teams:manage',
  'GET /api/v1/teams/{id}/members': 'any',
  'PUT /api/v1/teams/{id}/members': 'teams:manage',
  'POST /api/v1/teams/{id}/members': 'teams:manage',
  'DELETE /api/v1/teams/{id}/members/{user_id}': 'teams:manage',
  'GET /api/v1/tags': 'any',
  'POST /api/v1/tags': 'tags:manage',
  'PUT /api/v1/tags/{id}': 'tags:manage',
  'DELETE /api/v1/tags/{id}': 'tags:manage',
  'GET /api/v1/statuses': 'any',
  'POST /api/v1/statuses': 'status:manage',
  'PUT /api/v1/statuses/{id}': 'status:manage',
  'DELETE /api/v1/statuses/{id}': 'status:manage',
  'GET /api/v1/business-hours': 'any',
  'POST /api/v1/business-hours': 'business_hours:manage',
  'GET /api/v1/business-hours/{id}': 'any',
  'PUT /api/v1/business-hours/{id}': 'business_hours:manage',
  'DELETE /api/v1/business-hours/{id}': 'business_hours:manage',
  'GET /api/v1/sla': 'any',
  'POST /api/v1/sla': 'sla:manage',
  'GET /api/v1/sla/{id}': 'any',
  'PUT /api/v1/sla/{id}': 'sla:manage',
  'DELETE /api/v1/sla/{id}': 'sla:manage',
  'GET /api/v1/audit-log': 'audit:read',
  'GET /api/v1/audit-log/actions': 'audit:read',
  'GET /api/v1/audit-log/export': 'audit:read',
  'GET /api/v1/settings/general': 'general_settings:manage',
  'PUT /api/v1/settings/general': 'general_settings:manage',
  'GET /api/v1/priorities': 'any',
  'GET /api/v1/contacts': 'contacts:read_all',
  'POST /api/v1/contacts': 'contacts:write',
  'GET /api/v1/contacts/{id}': 'contacts:read',
  'GET /api/v1/contacts/{id}/page-visits': 'contacts:read',
  'GET /api/v1/conversations/{cuuid}/viewers': 'any',
  'PUT /api/v1/contacts/{id}': 'contacts:write',
  'PUT /api/v1/contacts/{id}/block': 'contacts:block',
  'GET /api/v1/contacts/{id}/notes': 'contact_notes:read',
  'POST /api/v1/contacts/{id}/notes': 'contact_notes:write',
  'DELETE /api/v1/contacts/{id}/notes/{note_id}': 'any',
  'GET /api/v1/inboxes': 'inboxes:manage',
  'POST /api/v1/inboxes': 'inboxes:manage',
  'GET /api/v1/inboxes/compact': 'any',
  'GET /api/v1/inboxes/{id}': 'inboxes:manage',
  'PUT /api/v1/inboxes/{id}': 'inboxes:manage',
  'DELETE /api/v1/inboxes/{id}': 'inboxes:manage',
  'PUT /api/v1/inboxes/{id}/toggle': 'inboxes:manage',
  'GET /api/v1/inboxes/{id}/email/status': 'inboxes:manage',
  'GET /api/v1/inboxes/{id}/email/skipped': 'inboxes:manage',
  'POST /api/v1/inboxes/{id}/email/test': 'inboxes:manage',
  'POST /api/v1/media/upload': 'messages:write',
  'GET /api/v1/media/{uuid}': 'public',
  'HEAD /api/v1/media/{uuid}': 'public',
  'GET /api/v1/conversations/all': 'conversations:read_all',
  'GET /api/v1/conversations/assigned': 'conversations:read_assigned',
  'GET /api/v1/conversations/unassigned': 'conversations:read_unassigned',
  'GET /api/v1/conversations/counts': 'conversations:read',
  'GET /api/v1/teams/{id}/conversations/unassigned': 'any',
  'POST /api/v1/conversations': 'conversations:write',
  'GET /api/v1/conversations/{cuuid}': 'any',
  'PUT /api/v1/conversations/{cuuid}/status': 'conversations:update_status',
  'PUT /api/v1/conversations/{cuuid}/priority': 'conversations:update_priority',
  'PUT /api/v1/conversations/{cuuid}/assignee/user': 'conversations:update_user_assignee',
  'PUT /api/v1/conversations/{cuuid}/assignee/team': 'conversations:update_team_assignee',
  'PUT /api/v1/conversations/{cuuid}/assignee/user/remove': 'conversations:update_user_assignee',
  'PUT /api/v1/conversations/{cuuid}/assignee/team/remove': 'conversations:update_team_assignee',
  'POST /api/v1/conversations/{cuuid}/tags': 'conversations:update_tags',
  'GET /api/v1/conversations/{cuuid}/sla': 'any',
  'PUT /api/v1/conversations/{cuuid}/sla': 'any',
  'PUT /api/v1/conversations/{cuuid}/last-seen': 'any',
  'PUT /api/v1/conversations/{cuuid}/mark-unread': 'any',
  'GET /api/v1/macros': 'any',
  'POST /api/v1/macros': 'any',
  'GET /api/v1/macros/{id}': 'any',
  'PUT /api/v1/macros/{id}': 'any',
  'DELETE /api/v1/macros/{id}': 'any',
  'POST /api/v1/conversations/{cuuid}/macros/{id}/apply': 'any',
  'GET /api/v1/conversations/{cuuid}/draft': 'any',
  'PUT /api/v1/conversations/{cuuid}/draft': 'any',
  'DELETE /api/v1/conversations/{cuuid}/draft': 'any',
  'GET /api/v1/conversations/{cuuid}/drafts': 'any',
  'GET /api/v1/conversations/{cuuid}/messages': 'messages:read',
  'POST /api/v1/conversations/{cuuid}/messages': 'messages:write',
  'GET /api/v1/conversations/{cuuid}/messages/{uuid}': 'messages:read',
  'GET /api/v1/conversations/mentioned': 'conversations:read',
  'GET /api/v1/conversations/{cuuid}/followers': 'conversations:read',
  'POST /api/v1/conversations/{cuuid}/followers': 'conversations:read',
  'DELETE /api/v1/conversations/{cuuid}/followers/{agent_id}': 'conversations:read',
  'GET /api/v1/reports/overview/tags': 'reports:manage',
  'GET /api/v1/reports/service': 'reports:manage',
  'GET /api/v1/reports/overview/counts': 'reports:manage',
  'GET /api/v1/search': 'any',
  'POST /api/v1/inboxes/{id}/secret/rotate': 'inboxes:manage',
  'POST /api/v1/inboxes/{id}/widget-preview': 'inboxes:manage',
  'POST /api/v1/inboxes/{id}/widget-origin-check': 'inboxes:manage',
  'GET /api/v1/webhooks': 'webhooks:manage',
  'POST /api/v1/webhooks': 'webhooks:manage',
  'GET /api/v1/webhooks/compact': 'webhooks:manage',
  'GET /api/v1/webhooks/{id}': 'webhooks:manage',
  'PUT /api/v1/webhooks/{id}': 'webhooks:manage',
  'DELETE /api/v1/webhooks/{id}': 'webhooks:manage',
  'PUT /api/v1/webhooks/{id}/toggle': 'webhooks:manage',
  'POST /api/v1/webhooks/{id}/secret/rotate': 'webhooks:manage',
  'GET /api/v1/webhooks/{id}/deliveries': 'webhooks:manage',
  'GET /api/v1/webhooks/{id}/deliveries/{delivery_id}': 'webhooks:manage',
  'POST /api/v1/webhooks/{id}/test': 'webhooks:manage',
  'POST /api/v1/webhooks/{id}/deliveries/{delivery_id}/retry': 'webhooks:manage',
  'GET /api/v1/widget/chat/settings/launcher': 'public',
  'GET /api/v1/widget/chat/settings': 'public',
  'POST /api/v1/widget/chat/auth/exchange': 'public',
  'GET /api/v1/widget/chat/auth/me': 'public',
  'POST /api/v1/widget/chat/conversations/init': 'public',
  'GET /api/v1/widget/chat/conversations': 'public',
  'GET /api/v1/widget/chat/conversations/{uuid}': 'public',
  'POST /api/v1/widget/chat/conversations/{uuid}/message': 'public',
  'POST /api/v1/widget/chat/conversations/{uuid}/update-last-seen': 'public',
  'POST /api/v1/widget/media/upload': 'public',
  'GET /api/v1/oidc': 'oidc:manage',
  'POST /api/v1/oidc': 'oidc:manage',
  'GET /api/v1/oidc/enabled': 'public',
  'GET /api/v1/setup': 'public',
  'POST /api/v1/setup': 'public',
  'GET /api/v1/oidc/{id}': 'oidc:manage',
  'PUT /api/v1/oidc/{id}': 'oidc:manage',
  'DELETE /api/v1/oidc/{id}': 'oidc:manage',
  'POST /api/v1/oidc/{id}/test': 'oidc:manage',
  'GET /api/v1/oidc/{id}/login': 'public',
  'GET /api/v1/oidc/{id}/finish': 'public',
  'GET /api/v1/ai/provider': 'ai:manage',
  'PUT /api/v1/ai/provider': 'ai:manage',
  'DELETE /api/v1/ai/provider': 'ai:manage',
  'GET /api/v1/ai/status': 'any',
  'GET /api/v1/ai/prompts': 'any',
  'POST /api/v1/ai/prompts': 'ai:manage',
  'PUT /api/v1/ai/prompts/{key}': 'ai:manage',
  'DELETE /api/v1/ai/prompts/{key}': 'ai:manage',
  'POST /api/v1/ai/completion': 'messages:write',
  'GET /api/v1/csat/{uuid}': 'public',
  'POST /api/v1/csat/{uuid}/response': 'public',
  // Not in the OpenAPI document: the document itself.
  'GET /api/v1/openapi.json': 'public',
};

/** Routes open to any agent whose service then decides per resource, and the rule it applies. */
const SERVICE_RULES: Record<string, string> = {
  'GET /api/v1/contacts/{id}': 'contact',
  'GET /api/v1/contacts/{id}/page-visits': 'contact',
  'PUT /api/v1/contacts/{id}': 'contact_update',
  'PUT /api/v1/contacts/{id}/block': 'contact',
  'GET /api/v1/contacts/{id}/notes': 'contact',
  'POST /api/v1/contacts/{id}/notes': 'contact',
  'DELETE /api/v1/contacts/{id}/notes/{note_id}': 'contact_note_author',
  'GET /api/v1/teams/{id}/conversations/unassigned': 'team_inbox',
  'GET /api/v1/conversations/{cuuid}': 'conversation',
  'PUT /api/v1/conversations/{cuuid}/last-seen': 'conversation',
  'PUT /api/v1/conversations/{cuuid}/mark-unread': 'conversation',
  'GET /api/v1/conversations/{cuuid}/sla': 'conversation',
  'GET /api/v1/conversations/{cuuid}/viewers': 'conversation_hidden',
  'GET /api/v1/conversations/{cuuid}/draft': 'conversation_draft',
  'PUT /api/v1/conversations/{cuuid}/draft': 'conversation_draft',
  'DELETE /api/v1/conversations/{cuuid}/draft': 'conversation_draft',
  'GET /api/v1/conversations/{cuuid}/drafts': 'conversation_draft',
  'PUT /api/v1/conversations/{cuuid}/sla': 'conversation_sla',
  'GET /api/v1/macros': 'macro',
  'POST /api/v1/macros': 'macro',
  'GET /api/v1/macros/{id}': 'macro',
  'PUT /api/v1/macros/{id}': 'macro',
  'DELETE /api/v1/macros/{id}': 'macro',
  'POST /api/v1/conversations/{cuuid}/macros/{id}/apply': 'macro',
  'GET /api/v1/search': 'search',
};

/** Routes hidden from the OpenAPI document on purpose. */
// (The widget's CORS preflight, OPTIONS /api/v1/widget/*, is public; Fastify's route printer lists it as `*`, outside this table.)
const UNDOCUMENTED = new Set(['GET /api/v1/openapi.json', 'HEAD /api/v1/media/{uuid}']);

/** These change the caller's own credentials: the caller is replaced after them. */
const CONSUMES_CREDENTIALS = new Set(['POST /api/v1/agents/me/api-key', 'DELETE /api/v1/agents/me/api-key']);

interface Operation {
  description?: string;
  'x-access'?: string;
  'x-permission'?: string;
  'x-service-rule'?: string;
}

/** Every /api/v1 route of the app as `METHOD /path/{param}`. */
function routeTable(app: FastifyInstance): string[] {
  return registeredRoutes(app)
    .filter((route) => route.path.startsWith('/api/v1/'))
    .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`)
    .sort();
}

/** The rule of a route, as the OpenAPI document states it. */
function documentedRule(operation: Operation): string {
  if (operation['x-access'] === 'permission') return operation['x-permission'] ?? 'permission without a name';
  return operation['x-access'] === 'authenticated' ? 'any' : String(operation['x-access']);
}

/** A URL for the route with ids that fail validation: a request that passes the route's access check stops there, before any service. */
function invalidUrl(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_whole, name: string) => (name.endsWith('uuid') ? 'not-a-uuid' : '0'));
}

describe('the route table and its access rules', () => {
  let t: TestApp;
  let routes: string[];
  let document: { paths: Record<string, Record<string, Operation>> };
  let nobody: Caller;

  before(async () => {
    t = await buildTestApp();
    routes = routeTable(t.app);
    document = t.app.swagger() as typeof document;
    nobody = await t.makeAgent({ roles: [] });
  });
  after(() => t.close());

  /** Every route but the automatic HEAD of a GET, which has the GET's rule. */
  const decided = () => routes.filter((route) => !route.startsWith('HEAD ') || EXPECTED[route] !== undefined);
  const ruleOf = (route: string) => EXPECTED[route] ?? EXPECTED[route.replace(/^HEAD /, 'GET ')];
  const operationOf = (route: string) => {
    const [method, path] = route.split(' ') as [string, string];
    return document.paths[path]?.[method.toLowerCase()];
  };
  const send = (route: string, as: Caller | null) => {
    const [method, path] = route.split(' ') as [string, string];
    const withBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
    return t.call({ method: method as 'GET', url: invalidUrl(path), as, ...(withBody ? { payload: {} } : {}) });
  };

  it('finds the routes of the app', () => {
    assert.ok(routes.length > 80, `only ${routes.length} routes found: ${routes.join(', ')}`);
    assert.ok(routes.includes('GET /api/v1/agents/{id}') && routes.includes('HEAD /api/v1/agents/{id}'));
  });

  it('every route has its rule decided in this test, and every rule here names a route', () => {
    assert.deepEqual(
      decided().filter((route) => EXPECTED[route] === undefined),
      [],
      'routes without a decided rule',
    );
    assert.deepEqual(
      Object.keys(EXPECTED).filter((route) => !routes.includes(route)),
      [],
      'rules of routes that do not exist',
    );
  });

  it('the OpenAPI document states each rule: x-access, x-permission, x-service-rule and a sentence', () => {
    for (const route of decided().filter((r) => !UNDOCUMENTED.has(r))) {
      const operation = operationOf(route);
      assert.ok(operation, `${route} is missing from the OpenAPI document`);
      assert.equal(documentedRule(operation), EXPECTED[route], route);
      assert.equal(operation['x-service-rule'], SERVICE_RULES[route], `${route}: service rule`);
      const rule = EXPECTED[route]!;
      const sentence =
        rule === 'public' ? 'Public: no credentials.' : rule === 'any' ? 'Any authenticated agent' : `Requires permission \`${rule}\``;
      assert.ok(operation.description?.includes(sentence), `${route}: description lacks "${sentence}": ${operation.description}`);
      assert.equal(operation.description?.split(sentence).length, 2, `${route}: the rule is stated once`);
    }
  });

  it('without credentials: 401 for every route but the public ones', async () => {
    for (const route of routes) {
      const res = await send(route, null);
      if (ruleOf(route) === 'public') assert.notEqual(res.statusCode, 401, `${route} is public: ${res.body}`);
      else assert.equal(res.statusCode, 401, `${route}: ${res.body}`);
    }
  });

  it('an agent without any permission: 403 exactly where the route declares a permission', async () => {
    for (const route of routes) {
      const rule = ruleOf(route);
      if (rule === 'public') continue;
      const res = await send(route, nobody);
      if (rule === 'any') {
        // Past the access check, the invalid ids stop the request at validation (or the service answers): never 401/403.
        assert.ok(res.statusCode !== 401 && res.statusCode !== 403, `${route} is open to any agent: ${res.statusCode} ${res.body}`);
      } else {
        assert.equal(res.statusCode, 403, `${route} requires ${rule}: ${res.body}`);
        // A HEAD answer has no body to read.
        if (!route.startsWith('HEAD ')) assert.match(assertError(res, 403, 'PermissionException').message, new RegExp(rule));
      }
      if (CONSUMES_CREDENTIALS.has(route)) nobody = await t.makeAgent({ roles: [] });
    }
  });
});
