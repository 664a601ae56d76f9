import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { InputError } from '../errors.ts';
import { auditActorOf } from '../http/access.ts';
import { documentedAs } from '../http/openapi.ts';
import { Envelope, errors, IdParams, ok, TrueEnvelope } from '../http/schemas.ts';
import {
  CreateInboxBody,
  DocumentedCreateInboxBody,
  DocumentedInbox,
  DocumentedUpdateInboxBody,
  InboxCompact,
  InboxRecord,
  ToggleInboxBody,
  UpdateInboxBody,
} from './inboxes.schema.ts';
import * as inboxes from './inboxes.service.ts';

const RotateSecretBody = Type.Object(
  { end_sessions: Type.Optional(Type.Boolean({ description: 'End every widget session of the inbox too', default: false })) },
  { additionalProperties: false, title: 'RotateSecretBody' },
);

export function inboxesRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    // The shared body validator strips unknown properties silently; here an unknown top-level
    // property is a client mistake worth a 400 (config's nested keys are checked by the service).
    app.addHook('preValidation', async (request) => {
      const schema = request.routeOptions.schema?.body as { properties?: Record<string, unknown> } | undefined;
      const body = request.body;
      if (!schema?.properties || typeof body !== 'object' || body === null || Array.isArray(body)) return;
      for (const key of Object.keys(body)) {
        if (!Object.hasOwn(schema.properties, key)) throw InputError.field(key, 'is not allowed');
      }
    });

    const tags = ['Inboxes'];
    const manage = { permission: 'inboxes:manage' } as const;
    const oneInbox = { ...manage, swaggerTransform: documentedAs({ data: DocumentedInbox }) };
    app.get(
      '/inboxes',
      {
        config: { ...manage, swaggerTransform: documentedAs({ data: Type.Array(DocumentedInbox) }) },
        schema: {
          tags,
          summary: 'List inboxes (secrets masked)',
          response: { 200: Envelope(Type.Array(InboxRecord)), ...errors(401, 403) },
        },
      },
      async () => ok(await inboxes.listInboxes(deps)),
    );
    app.get(
      '/inboxes/compact',
      {
        schema: {
          tags,
          summary: 'List inboxes (id, uuid, name, channel, enabled) for any agent',
          response: { 200: Envelope(Type.Array(InboxCompact)), ...errors(401) },
        },
      },
      async () => ok(await inboxes.listInboxesCompact(deps)),
    );
    app.get(
      '/inboxes/:id',
      {
        config: oneInbox,
        schema: {
          tags,
          summary: 'Get an inbox (secrets masked)',
          params: IdParams,
          response: { 200: Envelope(InboxRecord), ...errors(401, 403, 404) },
        },
      },
      async (request) => ok(await inboxes.getInbox(deps, request.params.id)),
    );
    app.post(
      '/inboxes',
      {
        config: { ...manage, swaggerTransform: documentedAs({ body: DocumentedCreateInboxBody, data: DocumentedInbox }) },
        schema: {
          tags,
          summary: 'Create an inbox',
          description:
            'Answers 200 (as the spec says). Absent live-chat settings take their defaults; the live-chat `secret` is generated when absent, and this answer is the only one that shows it (masked everywhere else; `POST /inboxes/{id}/secret/rotate` makes a new one).',
          body: CreateInboxBody,
          response: { 200: Envelope(InboxRecord), ...errors(400, 401, 403) },
        },
      },
      async (request) => ok(await inboxes.createInbox(deps, auditActorOf(request), request.body)),
    );
    app.put(
      '/inboxes/:id',
      {
        config: { ...manage, swaggerTransform: documentedAs({ body: DocumentedUpdateInboxBody, data: DocumentedInbox }) },
        schema: {
          tags,
          summary: 'Update an inbox (partial; `config` replaces the whole config)',
          params: IdParams,
          body: UpdateInboxBody,
          response: { 200: Envelope(InboxRecord), ...errors(400, 401, 403, 404, 422) },
        },
      },
      async (request) => ok(await inboxes.updateInbox(deps, auditActorOf(request), request.params.id, request.body)),
    );
    app.put(
      '/inboxes/:id/toggle',
      {
        config: oneInbox,
        schema: {
          tags,
          summary: 'Enable or disable an inbox',
          params: IdParams,
          body: ToggleInboxBody,
          response: { 200: Envelope(InboxRecord), ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => ok(await inboxes.toggleInbox(deps, auditActorOf(request), request.params.id, request.body.enabled)),
    );
    app.post(
      '/inboxes/:id/secret/rotate',
      {
        config: manage,
        // The body may be left out (clients written before it had none): an absent body is `{}`.
        preValidation: async (request) => {
          request.body ??= {};
        },
        schema: {
          tags,
          summary: 'Rotate the JWT secret of a live-chat inbox',
          description:
            'Answers the new secret, once (it is masked everywhere else). Identity tokens signed with the old secret are refused from now on. Widget sessions already issued keep working, unless `end_sessions` is true: then every widget session of the inbox ends (their bearer tokens get 401, their sockets are closed; visitors and contacts start anew) and `sessions_ended` counts them. The body may be left out. Not a live-chat inbox → 422.',
          params: IdParams,
          body: RotateSecretBody,
          response: {
            200: Envelope(Type.Object({ secret: Type.String(), sessions_ended: Type.Integer({ minimum: 0 }) })),
            ...errors(400, 401, 403, 404, 422),
          },
        },
      },
      async (request) =>
        ok(
          await inboxes.rotateInboxSecret(deps, auditActorOf(request), request.params.id, {
            endSessions: request.body.end_sessions ?? false,
          }),
        ),
    );
    app.delete(
      '/inboxes/:id',
      {
        config: manage,
        schema: {
          tags,
          summary: 'Delete an inbox (soft: its conversations stay readable)',
          params: IdParams,
          response: { 200: TrueEnvelope, ...errors(401, 403, 404) },
        },
      },
      async (request) => {
        await inboxes.deleteInbox(deps, auditActorOf(request), request.params.id);
        return ok(true as const);
      },
    );
  };
}
