// The public widget API (docs/api.md, "Live chat (widget API)"). No agent credentials: the
// inbox is selected per request, the caller is a widget session (bearer token). Before
// validation, every route (preflights too) checks the per-address rate limit, selects the inbox (400/404),
// refuses blocked addresses (403) and applies CORS; session routes then resolve the caller
// (401) and perform a visitor merge when asked.
import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { InputError, UnauthorizedError } from '../errors.ts';
import { Envelope, errors, ok, TrueEnvelope } from '../http/schemas.ts';
import { enforceLimit, publicLimiter } from '../http/public-limits.ts';
import { isMultipartFormData } from '../media/media.upload.ts';
import {
  answerPreflight,
  applyErrorCors,
  applyInboxCors,
  assertMayEmbed,
  CLEAR_VISITOR_HEADER,
  openCors,
  selectInbox,
  VISITOR_HEADER,
} from './widget.edge.ts';
import {
  authenticateWidget,
  bearerToken,
  EXCHANGES_PER_CONTACT_PER_MINUTE,
  exchangeIdentity,
  MAX_SESSIONS_PER_CONTACT,
  mergeVisitor,
  type WidgetCaller,
  widgetUserOf,
} from './widget.identity.ts';
import type { WidgetInbox } from './widget.inbox.ts';
import {
  ConversationParams,
  ConversationWithMessages,
  ExchangeBody,
  ExchangeResult,
  InboxQuery,
  InitBody,
  InitResult,
  LauncherSettings,
  MessageBody,
  WidgetSettings,
  WidgetUploadBody,
} from './widget.schema.ts';
import * as widget from './widget.service.ts';
import { ChatConversation, ChatMessage, WidgetUser } from './widget.shapes.ts';
import { uploadFromWidget } from './widget.upload.ts';

interface WidgetContext {
  inbox: WidgetInbox;
  caller: WidgetCaller | null;
}

const LAUNCHER = '/api/v1/widget/chat/settings/launcher';

export function widgetRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    await app.register(multipart, {
      limits: { files: 20, fields: 20, fieldSize: 65_536, parts: 40, headerPairs: 200 },
      throwFileSizeLimit: true,
    });
    const perAddress = publicLimiter(deps, 'address', deps.config.widgetRateLimitPerMinute);
    const perUser = publicLimiter(deps, 'user', deps.config.widgetMessageRateLimitPerMinute);
    const perContactExchange = publicLimiter(deps, 'exchange', EXCHANGES_PER_CONTACT_PER_MINUTE);
    const contexts = new WeakMap<FastifyRequest, WidgetContext>();

    const contextOf = (request: FastifyRequest): WidgetContext => {
      const context = contexts.get(request);
      if (!context) throw new Error('widget route without its inbox context');
      return context;
    };
    const callerOf = (request: FastifyRequest): WidgetCaller => {
      const caller = contextOf(request).caller;
      if (!caller) throw new UnauthorizedError('Send Authorization: Bearer <session_token>');
      return caller;
    };

    // The edge of every widget route: limit, inbox, blocked address, CORS. Preflights are charged
    // to the same per-address limit before anything is looked up; their handler does the rest.
    app.addHook('onRequest', async (request, reply) => {
      const preflight = request.method === 'OPTIONS';
      const launcher = !preflight && request.routeOptions.url === LAUNCHER;
      let inbox: WidgetInbox;
      try {
        if (launcher) openCors(reply);
        await enforceLimit(perAddress, request.ip, 'requests from this address');
        if (preflight) return;
        inbox = await selectInbox(deps, request);
      } catch (error) {
        applyErrorCors(request, reply);
        throw error;
      }
      // An origin the inbox does not trust gets its 403 without any allow header; on the launcher
      // route, with CORS `*`, so the loader on that site can read why it stays hidden.
      if (launcher) assertMayEmbed(deps, request, inbox);
      else applyInboxCors(deps, request, reply, inbox);
      contexts.set(request, { inbox, caller: null });
    });

    /** Session routes: the caller (401 without a valid session; `optional` lets a new visitor through), then the merge. */
    const session =
      (mode: 'required' | 'optional') =>
      async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
        const context = contextOf(request);
        const token = bearerToken(request.headers.authorization);
        if (token === null) {
          if (mode === 'optional') return;
          throw new UnauthorizedError('Send Authorization: Bearer <session_token>');
        }
        context.caller = await authenticateWidget(deps, context.inbox, token);
        const visitorToken = request.headers[VISITOR_HEADER];
        if (typeof visitorToken === 'string' && visitorToken !== '' && visitorToken !== token) {
          if (await mergeVisitor(deps, context.inbox, context.caller, visitorToken)) reply.header(CLEAR_VISITOR_HEADER, 'true');
        }
      };
    const required = session('required');
    const optional = session('optional');
    /**
     * The upload's caller, checked on arrival (before preParsing and its 415): without a valid
     * session the answer is 401 whatever the body, which is never read; the connection is closed
     * rather than drained.
     */
    const requiredBeforeBody = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
      try {
        await required(request, reply);
      } catch (error) {
        reply.header('connection', 'close');
        throw error;
      }
    };
    /** Messages, uploads and new conversations: per widget user (or, for a new visitor, per address). */
    const limitSends = async (request: FastifyRequest) => {
      const { inbox, caller } = contextOf(request);
      const key = caller ? `${inbox.id}:${caller.userId}` : `new:${request.ip}`;
      await enforceLimit(perUser, key, 'messages');
    };

    const tags = ['Widget'];
    const publicRoute = { auth: 'public' } as const;
    const inboxErrors = [400, 403, 404, 429];
    const sessionErrors = [...inboxErrors, 401];

    app.options('/widget/*', { config: publicRoute, schema: { hide: true, querystring: InboxQuery } }, async (request, reply) =>
      answerPreflight(deps, request, reply, request.url.split('?')[0]?.replace(/\/+$/, '') === LAUNCHER),
    );

    app.get(
      '/widget/chat/settings/launcher',
      {
        config: publicRoute,
        schema: {
          tags,
          summary: 'Launcher settings (any origin)',
          description:
            "What the host page needs before the widget opens. `Access-Control-Allow-Origin: *`. A page of a site the inbox's `trusted_domains` leaves out (its `Origin`) gets a 403 naming the site, readable by that page: the loader then shows nothing.",
          querystring: InboxQuery,
          response: { 200: Envelope(LauncherSettings), ...errors(...inboxErrors) },
        },
      },
      async (request) => ok(widget.launcherSettings(contextOf(request).inbox)),
    );

    app.get(
      '/widget/chat/settings',
      {
        config: publicRoute,
        schema: {
          tags,
          summary: 'Widget settings',
          querystring: InboxQuery,
          response: { 200: Envelope(WidgetSettings), ...errors(...inboxErrors) },
        },
      },
      async (request) => ok(await widget.widgetSettings(deps, contextOf(request).inbox)),
    );

    app.post(
      '/widget/chat/auth/exchange',
      {
        config: publicRoute,
        schema: {
          tags,
          summary: "Exchange your site's signed JWT for a verified contact's session",
          description: `The JWT is signed with the inbox \`secret\` (HS256, HS384 or HS512) and must carry \`exp\`, at most 24 hours after \`iat\` (or after now without \`iat\`): sign short-lived tokens (minutes). A bad signature, another algorithm, an expired token or one valid for longer → 401; more than ${EXCHANGES_PER_CONTACT_PER_MINUTE} exchanges a minute for one contact → 429; a contact keeps its ${MAX_SESSIONS_PER_CONTACT} most recently used sessions per inbox; a missing or invalid claim → 400 naming it; a blocked contact → 403.`,
          querystring: InboxQuery,
          body: ExchangeBody,
          response: { 200: Envelope(ExchangeResult), ...errors(...sessionErrors) },
        },
      },
      async (request) => ok(await exchangeIdentity(deps, contextOf(request).inbox, request.body.jwt, perContactExchange)),
    );

    app.get(
      '/widget/chat/auth/me',
      {
        config: publicRoute,
        preHandler: required,
        schema: {
          tags,
          summary: 'The current widget user',
          querystring: InboxQuery,
          response: { 200: Envelope(WidgetUser), ...errors(...sessionErrors) },
        },
      },
      async (request) => ok(widgetUserOf(callerOf(request))),
    );

    app.post(
      '/widget/chat/conversations/init',
      {
        config: publicRoute,
        preHandler: [optional, limitSends],
        schema: {
          tags,
          summary: 'Start a conversation (a new visitor without a session)',
          description: `Without Authorization a visitor is created with its conversation, and its \`session_token\` is answered. At most ${widget.MAX_CONVERSATIONS_PER_DAY} new conversations per contact per 24 hours (429).`,
          querystring: InboxQuery,
          body: InitBody,
          response: { 200: Envelope(InitResult), ...errors(...sessionErrors) },
        },
      },
      async (request) => {
        const { inbox, caller } = contextOf(request);
        const input = {
          message: request.body.message,
          formData: request.body.form_data ?? {},
          ip: request.ip,
          userAgent: request.headers['user-agent'],
        };
        return ok(await widget.initConversation(deps, inbox, caller, input));
      },
    );

    app.get(
      '/widget/chat/conversations',
      {
        config: publicRoute,
        preHandler: required,
        schema: {
          tags,
          summary: "The caller's conversations in this inbox, newest first (at most 200)",
          querystring: InboxQuery,
          response: { 200: Envelope(Type.Array(ChatConversation)), ...errors(...sessionErrors) },
        },
      },
      async (request) => ok(await widget.listConversations(deps, contextOf(request).inbox, callerOf(request))),
    );

    app.get(
      '/widget/chat/conversations/:uuid',
      {
        config: publicRoute,
        preHandler: required,
        schema: {
          tags,
          summary: 'One conversation of the caller with its messages (newest first)',
          querystring: InboxQuery,
          params: ConversationParams,
          response: { 200: Envelope(ConversationWithMessages), ...errors(...sessionErrors) },
        },
      },
      async (request) => ok(await widget.getConversation(deps, contextOf(request).inbox, callerOf(request), request.params.uuid)),
    );

    app.post(
      '/widget/chat/conversations/:uuid/message',
      {
        config: publicRoute,
        preHandler: [required, limitSends],
        schema: {
          tags,
          summary: 'Send a message (plain text)',
          description: 'Reopens a waiting or resolved conversation; a Closed one refuses replies (403) when the inbox says so.',
          querystring: InboxQuery,
          params: ConversationParams,
          body: MessageBody,
          response: { 200: Envelope(ChatMessage), ...errors(...sessionErrors) },
        },
      },
      async (request) =>
        ok(await widget.sendMessage(deps, contextOf(request).inbox, callerOf(request), request.params.uuid, request.body.message)),
    );

    app.post(
      '/widget/chat/conversations/:uuid/update-last-seen',
      {
        config: publicRoute,
        preHandler: required,
        schema: {
          tags,
          summary: 'Mark the conversation read by the widget user',
          querystring: InboxQuery,
          params: ConversationParams,
          response: { 200: TrueEnvelope, ...errors(...sessionErrors) },
        },
      },
      async (request) => {
        await widget.markSeen(deps, contextOf(request).inbox, callerOf(request), request.params.uuid);
        return ok(true as const);
      },
    );

    app.post(
      '/widget/media/upload',
      {
        config: {
          ...publicRoute,
          // The body is a multipart stream read by the handler; the document shows its parts.
          swaggerTransform: ({ schema, url }) => ({ url, schema: { ...schema, body: WidgetUploadBody } }),
        },
        onRequest: requiredBeforeBody,
        preHandler: limitSends,
        schema: {
          tags,
          summary: 'Send files: one new message with every file attached',
          description:
            'multipart/form-data: `conversation_uuid` and one or more `files`. Refusals store nothing: no valid session → 401 whatever the body (not read); uploads disabled → 403; no file or an empty file → 400; a file over the inbox `file_upload.max_size_mb` → 413; an extension not in `allowed_extensions`, or content that does not match it → 415.',
          consumes: ['multipart/form-data'],
          querystring: InboxQuery,
          response: { 200: Envelope(ChatMessage), ...errors(...sessionErrors, 413, 415) },
        },
        preParsing: async (request) => {
          if (!isMultipartFormData(request.headers['content-type'])) {
            throw new InputError('Send multipart/form-data with conversation_uuid and one or more "files" file parts', undefined, 415);
          }
        },
      },
      async (request) => ok(await uploadFromWidget(deps, request, contextOf(request).inbox, callerOf(request))),
    );
  };
}
