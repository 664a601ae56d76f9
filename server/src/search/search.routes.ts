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
        config: { serviceRule: 'search' },
        schema: {
          tags: ['Search'],
          summary: 'Search conversations, messages and contacts',
          description: [
            'Any agent may search; each section holds only what the caller may read, and a caller who may read nothing gets empty sections. `limit` applies to each section.',
            '',
            '- `conversations`: by reference number (exact; `#123` and `123` both work) or by subject (case-insensitive substring from 3 characters; with 1-2 characters, subjects with a word starting with them). The exact reference match comes first, then the closest whole-word matches, then the most recently active. Only conversations the caller may read (docs/api.md: Permissions and access).',
            '- `messages`: incoming and outgoing messages and private notes (never activity entries) whose text matches `q` as a web-search query (words, `"quoted phrases"`, `-excluded` words, `or`). Best ranked (ts_rank) first, newest first among equals, each with a plain-text snippet. Ranking covers the 500 newest matches among the newest 100,000 messages, or every match when those hold fewer than `limit`. Requires `messages:read`; only messages of conversations the caller may read.',
            '- `contacts`: contacts and visitors whose name, email or phone number contains `q` (case-insensitive, from 3 characters; with 1-2 characters, a word starting with them). With `contacts:read_all` any contact; otherwise only contacts of conversations the caller may read.',
          ].join('\n'),
          querystring: SearchQuery,
          response: { 200: Envelope(SearchResults), ...errors(400, 401) },
        },
      },
      async (request) => ok(await searchService.search(deps, principalOf(request), request.query)),
    );
  };
}
