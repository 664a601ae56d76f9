import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../deps.ts';
import { principalOf } from '../http/access.ts';
import { Envelope, errors, ok } from '../http/schemas.ts';
import { SearchQuery, SearchResults } from './search.schema.ts';
import * as searchService from './search.service.ts';

export function searchRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/search',
      {
        schema: {
          tags: ['Search'],
          summary: 'Search conversations, messages and contacts',
          description: [
            'Any agent may search; each section holds only what the caller may read.',
            '',
            '- `conversations`: reference number (exact, with or without a leading `#`) or subject (case-insensitive substring from 3 characters, or a close word). The exact reference match comes first, then substring matches, then by similarity. Only conversations the caller may read (contract §3).',
            '- `messages`: incoming and outgoing messages (never activity) whose text matches `q` as a web-search query (words, `"quoted phrases"`, `-excluded` words), best ranked first, with a plain-text snippet. Private notes included. Requires `messages:read`; only messages of conversations the caller may read.',
            '- `contacts`: contacts and visitors whose name, email or phone number matches (substring from 3 characters, or a close word). With `contacts:read_all` any contact; otherwise only contacts of conversations the caller may read.',
          ].join('\n'),
          querystring: SearchQuery,
          response: { 200: Envelope(SearchResults), ...errors(400, 401) },
        },
      },
      async (request) => ok(await searchService.search(deps, principalOf(request), request.query)),
    );
  };
}
