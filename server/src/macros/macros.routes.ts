import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { principalOf } from '../http/access.ts';
import { Envelope, errors, IdParams, ok, TrueEnvelope } from '../http/schemas.ts';
import { ApplyBody, ApplyParams, ApplyResult, CreateMacroBody, MacroListQuery, MacroRecord, UpdateMacroBody } from './macros.schema.ts';
import * as macros from './macros.service.ts';

const MANAGE_RULE =
  'Global and team macros need `macros:manage`; any agent may create, change and delete their own `user` macros (user_id = themselves). A macro the caller may not see answers 404.';

export function macrosRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Macros'];
    app.get(
      '/macros',
      {
        config: { serviceRule: 'macro' },
        schema: {
          tags,
          summary: 'The macros visible to the caller, by name',
          description:
            "Global macros, the team macros of the caller's teams and the caller's own user macros (every macro with `macros:manage`). With `conversation_uuid`: only those whose `visible_when` includes that conversation's status category (404 unknown, 403 not readable).",
          querystring: MacroListQuery,
          response: { 200: Envelope(Type.Array(MacroRecord)), ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => ok(await macros.listMacros(deps, principalOf(request), request.query)),
    );
    app.post(
      '/macros',
      {
        config: { serviceRule: 'macro' },
        schema: {
          tags,
          summary: 'Create a macro',
          description: MANAGE_RULE,
          body: CreateMacroBody,
          response: { 200: Envelope(MacroRecord), ...errors(400, 401, 403) },
        },
      },
      async (request) => ok(await macros.createMacro(deps, principalOf(request), request.body)),
    );
    app.get(
      '/macros/:id',
      {
        config: { serviceRule: 'macro' },
        schema: {
          tags,
          summary: 'Get a macro',
          description: 'A macro the caller may not see answers 404.',
          params: IdParams,
          response: { 200: Envelope(MacroRecord), ...errors(401, 404) },
        },
      },
      async (request) => ok(await macros.getMacro(deps, principalOf(request), request.params.id)),
    );
    app.put(
      '/macros/:id',
      {
        config: { serviceRule: 'macro' },
        schema: {
          tags,
          summary: 'Update a macro (partial: omitted fields keep their value)',
          description: `${MANAGE_RULE} The caller must be allowed to manage the macro both before and after the change. Changing \`actions\` checks them again; omitting it keeps them as they are.`,
          params: IdParams,
          body: UpdateMacroBody,
          response: { 200: Envelope(MacroRecord), ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => ok(await macros.updateMacro(deps, principalOf(request), request.params.id, request.body)),
    );
    app.delete(
      '/macros/:id',
      {
        config: { serviceRule: 'macro' },
        schema: {
          tags,
          summary: 'Delete a macro',
          description: MANAGE_RULE,
          params: IdParams,
          response: { 200: TrueEnvelope, ...errors(401, 403, 404) },
        },
      },
      async (request) => {
        await macros.deleteMacro(deps, principalOf(request), request.params.id);
        return ok(true as const);
      },
    );
    app.post(
      '/conversations/:cuuid/macros/:id/apply',
      {
        config: { serviceRule: 'macro' },
        schema: {
          tags,
          summary: 'Apply a macro to a conversation',
          description:
            "Runs the macro's actions in one transaction, each needing its conversation permission (403 and nothing changes when one is missing), counts the use and returns the conversation with the macro's `message_content` rendered for it. With `{\"send_message\": true}` a non-empty rendered message is also sent as a reply (needs `messages:write`), in the same transaction. 404: unknown conversation, or a macro unknown or not visible to the caller; 403: a conversation the caller may not read; 422: the macro is not offered for the conversation's status category (`visible_when`); 400: something an action names no longer exists.",
          params: ApplyParams,
          body: ApplyBody,
          response: { 200: Envelope(ApplyResult), ...errors(400, 401, 403, 404, 422) },
        },
      },
      async (request) =>
        ok(await macros.applyMacro(deps, principalOf(request), request.params.cuuid, request.params.id, request.body ?? null)),
    );
  };
}
