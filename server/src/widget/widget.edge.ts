// The edge of the widget API (docs/api.md, "Live chat (widget API)"), run before validation
// on every widget route: the per-address rate limit (its counters in http/public-limits.ts), the inbox selection (header
// X-Service-Inbox-ID, else query inbox_id), the blocked-address rule and CORS. Browsers call
// these routes cross-origin from the customer's site: only the launcher settings are open to
// every origin; the others to the inbox's trusted_domains (every origin when that list is empty).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../deps.ts';
import { InputError, NotFoundError, PermissionError } from '../errors.ts';
import { findWidgetInbox, isAddressBlocked, type WidgetInbox } from './widget.inbox.ts';

export const INBOX_HEADER = 'x-service-inbox-id';
export const VISITOR_HEADER = 'x-service-visitor-token';
export const CLEAR_VISITOR_HEADER = 'x-service-clear-visitor';
const ALLOW_HEADERS = 'Authorization, Content-Type, X-Service-Inbox-ID, X-Service-Visitor-Token';
const EXPOSE_HEADERS = 'X-Service-Clear-Visitor, Retry-After, X-Request-Id';
const ALLOW_METHODS = 'GET, POST, OPTIONS';
const PREFLIGHT_MAX_AGE = '600';

function single(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  return undefined;
}

/** The inbox uuid the request names: the header wins over the query parameter. Undefined when neither is given. */
export function requestedInbox(request: FastifyRequest): string | undefined {
  const header = request.headers[INBOX_HEADER];
  const fromHeader = Array.isArray(header) ? header[0] : header;
  if (fromHeader !== undefined && fromHeader.trim() !== '') return fromHeader.trim();
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = query?.['inbox_id'];
  if (fromQuery === undefined) return undefined;
  // A repeated parameter is not one inbox: answered like an unknown one.
  return single(fromQuery) ?? '';
}

/** The selected inbox: 400 when none is named, the same 404 for anything that is not an enabled live-chat inbox, 403 for a blocked address. */
export async function selectInbox(deps: AppDeps, request: FastifyRequest): Promise<WidgetInbox> {
  const uuid = requestedInbox(request);
  if (uuid === undefined || uuid === '') {
    if (uuid === undefined) {
      throw new InputError('Inbox required: send the X-Service-Inbox-ID header or the inbox_id query parameter', [
        { field: 'inbox_id', reason: 'is required' },
      ]);
    }
    throw new NotFoundError('Inbox not found');
  }
  const inbox = await findWidgetInbox(deps, uuid);
  if (!inbox) throw new NotFoundError('Inbox not found');
  if (isAddressBlocked(inbox.config.blocked_ips ?? [], request.ip)) throw new PermissionError('Access denied');
  return inbox;
}

/**
 * Whether a page of `origin` may call the inbox's widget API: every origin when the list is
 * empty; otherwise the origin's host equals an entry (with its port, when the entry names one),
 * or is a subdomain of a `*.example.com` entry (example.com itself is not).
 */
export function isOriginTrusted(trusted: readonly string[], origin: string): boolean {
  if (trusted.length === 0) return true;
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  const hostname = url.hostname.toLowerCase();
  const host = url.host.toLowerCase();
  return trusted.some((raw) => {
    const entry = raw.trim().toLowerCase();
    if (entry.startsWith('*.')) {
      const suffix = entry.slice(1);
      const target = suffix.includes(':') ? host : hostname;
      return target.endsWith(suffix) && target.length > suffix.length;
    }
    return entry.includes(':') ? host === entry : hostname === entry;
  });
}

function originOf(request: FastifyRequest): string | undefined {
  const origin = request.headers.origin;
  return typeof origin === 'string' && origin !== '' ? origin : undefined;
}

/** BASE_URL's origin, parsed once per configuration (the config object lives as long as the app). */
const ownOrigins = new WeakMap<AppDeps['config'], string>();
function ownOrigin(deps: AppDeps): string {
  let origin = ownOrigins.get(deps.config);
  if (origin === undefined) {
    origin = new URL(deps.config.baseUrl).origin;
    ownOrigins.set(deps.config, origin);
  }
  return origin;
}

/**
 * The Origin of the page behind a request when it is another site's; undefined without one, or
 * when the page is Parley's own: the chat frame (widget.assets.ts) is served from BASE_URL, so its
 * API calls and socket come from BASE_URL's origin. Those are not cross-site: for the frame,
 * trusted_domains is enforced on who may embed it (its CSP frame-ancestors). Only BASE_URL counts,
 * never the Host the request names: under DNS rebinding a hostile name resolves to Parley, and
 * Origin and Host then agree (agent-socket.ts applies the same rule).
 */
export function foreignOrigin(deps: AppDeps, request: FastifyRequest): string | undefined {
  const origin = originOf(request);
  if (origin === undefined || origin === ownOrigin(deps)) return undefined;
  return origin;
}

function allowOrigin(reply: FastifyReply, origin: string): void {
  reply.header('access-control-allow-origin', origin);
  reply.header('access-control-expose-headers', EXPOSE_HEADERS);
}

/** CORS of the launcher settings: every origin (the host page fetches them before the widget opens). */
export function openCors(reply: FastifyReply): void {
  allowOrigin(reply, '*');
}

/**
 * CORS of a widget route once its inbox is known: a trusted Origin is echoed (with Vary:
 * Origin); an untrusted one is refused with a 403 before anything runs. Requests without an
 * Origin (not from a browser page) and those of Parley's own chat frame are not concerned.
 */
export function applyInboxCors(deps: AppDeps, request: FastifyRequest, reply: FastifyReply, inbox: WidgetInbox): void {
  reply.header('vary', 'Origin');
  const origin = foreignOrigin(deps, request);
  if (origin === undefined) return;
  if (!isOriginTrusted(inbox.config.trusted_domains ?? [], origin)) {
    throw new PermissionError('This site is not allowed to use this inbox (trusted_domains)');
  }
  allowOrigin(reply, origin);
}

/**
 * Whether a page of `origin` may embed the inbox's chat: Parley's own pages, and the sites the
 * inbox trusts (every site when its list is empty). The one rule behind the frame's
 * `frame-ancestors` (widget.assets.ts), the launcher's refusal below and the admin's check
 * (widget.embed.ts).
 */
export function mayEmbed(deps: AppDeps, trusted: readonly string[], origin: string): boolean {
  return origin === ownOrigin(deps) || isOriginTrusted(trusted, origin);
}

/**
 * The launcher settings stay readable by every origin (CORS `*`), so that a site the inbox does
 * not trust reads why: a 403 naming it. The loader then draws nothing (a launcher would open a
 * frame the browser refuses to show, as its CSP frame-ancestors says).
 */
export function assertMayEmbed(deps: AppDeps, request: FastifyRequest, inbox: WidgetInbox): void {
  const origin = foreignOrigin(deps, request);
  if (origin === undefined || mayEmbed(deps, inbox.config.trusted_domains ?? [], origin)) return;
  throw new PermissionError(`this site (${origin.slice(0, 200)}) is not in the inbox's allowed sites`);
}

/**
 * Before the inbox is known (no inbox, unknown inbox, rate limited), the error itself may be
 * read by any page: it tells nothing about the inbox.
 */
export function applyErrorCors(request: FastifyRequest, reply: FastifyReply): void {
  if (reply.hasHeader('access-control-allow-origin')) return;
  if (originOf(request) !== undefined) allowOrigin(reply, '*');
}

/**
 * A preflight (OPTIONS) answer: 204. The inbox comes from `inbox_id` when the page names it in
 * the query; a page that sends it as a header (which a preflight does not carry) gets the
 * preflight allowed, and its real request is checked against the inbox's trusted_domains.
 * A disallowed origin gets no allow headers. The route's edge hook has already charged the
 * preflight to the per-address limit, so this lookup is bounded like every other request.
 */
export async function answerPreflight(deps: AppDeps, request: FastifyRequest, reply: FastifyReply, open: boolean): Promise<void> {
  const origin = originOf(request);
  reply.header('vary', 'Origin, Access-Control-Request-Headers');
  let allowed = origin !== undefined;
  if (allowed && !open) {
    const query = request.query as Record<string, unknown> | undefined;
    const uuid = single(query?.['inbox_id']);
    if (uuid !== undefined) {
      const inbox = await findWidgetInbox(deps, uuid);
      allowed = inbox !== null && isOriginTrusted(inbox.config.trusted_domains ?? [], origin as string);
    }
  }
  if (allowed) {
    reply.header('access-control-allow-origin', open ? '*' : (origin as string));
    reply.header('access-control-allow-methods', ALLOW_METHODS);
    reply.header('access-control-allow-headers', ALLOW_HEADERS);
    reply.header('access-control-max-age', PREFLIGHT_MAX_AGE);
  }
  reply.code(204).send();
}
