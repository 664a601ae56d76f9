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
            'Query language: every word matches as the start of a word (`reset` finds "resetting"), case- and accent-insensitive both ways (`cafe` finds "Café", `café` finds "cafe"; ß = ss, æ = ae, ø = o…); `"quoted phrases"` match their words adjacent and in order; `-word` or `-"a phrase"` excludes; `a or b` matches either; Chinese, Japanese and Korean text is found anywhere inside longer text. Punctuation separates words (`jane@example.com` is the phrase `jane example com`). A query with nothing but exclusions finds nothing.',
            '',
            "- `conversations`: by reference number (exact; `#123` and `123` both work), or the query matching the subject, one tag name, or the contact's name, email or phone. The exact reference match first, then the most recently active. Each hit carries `subject_highlights`, its `tags` with highlights and the contact's `name_highlights`/`email_highlights`.",
            "- `messages`: incoming and outgoing messages and private notes (never activity entries) whose text matches, newest first (the newest windows of 8,192 messages are searched first, more and more of them while they hold fewer than `limit` matches; a phrase is checked on at most the 500 newest messages holding its words; with a word of one or two letters, only the newest 1,000 messages are searched). Each carries its conversation's subject and status (to group hits by conversation), a one-line plain-text `snippet` and its `highlights`. Requires `messages:read`.",
            '- `contacts`: contacts and visitors whose name, email or phone number matches, by name. With `contacts:read_all` any contact; otherwise only contacts of conversations the caller may read. The filters do not apply to contacts.',
            '',
            "Filters narrow conversations and messages (a message by its conversation; `from`/`to` by the message's own creation time). Highlights are `[start, end)` offsets in UTF-16 code units into the plain text beside them.",
          ].join('\n'),
          querystring: SearchQuery,
          response: { 200: Envelope(SearchResults), ...errors(400, 401) },
        },
      },
      async (request) => ok(await searchService.search(deps, principalOf(request), request.query)),
    );
  };
}
