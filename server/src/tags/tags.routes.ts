import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { Envelope, errors, IdParams, ok, TrueEnvelope, PutBody } from '../http/schemas.ts';
import { TagBody, TagRecord } from './tags.schema.ts';
import * as tagsService from './tags.service.ts';

export function tagsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Tags'];
    app.get(
      '/tags',
      { schema: { tags, summary: 'List tags, by name', response: { 200: Envelope(Type.Array(TagRecord)), ...errors(401) } } },
      async () => ok(await tagsService.listTags(deps)),
    );
    app.post(
      '/tags',
      {
        config: { permission: 'tags:manage' },
        schema: {
          tags,
          summary: 'Create a tag',
          body: TagBody,
          response: { 200: Envelope(TagRecord), ...errors(400, 401, 403, 409, 500) },
        },
      },
      async (request) => ok(await tagsService.createTag(deps, request.body.name)),
    );
    app.put(
      '/tags/:id',
      {
        config: { permission: 'tags:manage' },
        schema: {
          tags,
          summary: 'Rename a tag',
          params: IdParams,
          body: PutBody(TagBody, TagRecord),
          response: { 200: Envelope(TagRecord), ...errors(400, 401, 403, 404, 409) },
        },
      },
      async (request) => ok(await tagsService.renameTag(deps, request.params.id, request.body.name)),
    );
    app.delete(
      '/tags/:id',
      {
        config: { permission: 'tags:manage' },
        schema: {
          tags,
          summary: 'Delete a tag (removes it from conversations)',
          params: IdParams,
          response: { 200: TrueEnvelope, ...errors(400, 401, 403, 404) },
        },
      },
      async (request) => {
        await tagsService.deleteTag(deps, request.params.id);
        return ok(true as const);
      },
    );
  };
}
