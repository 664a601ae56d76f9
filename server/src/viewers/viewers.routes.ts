// Who is viewing a conversation (docs/api.md, "Presence"): the list the socket frame
// `conversation_viewers` carries, for a client that has just opened the conversation or reconnected.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { UuidParams } from '../conversations/conversations.schema.ts';
import type { AppDeps } from '../deps.ts';
import { principalOf } from '../http/access.ts';
import { Envelope, errors, ok } from '../http/schemas.ts';
import { ViewerList } from './viewers.schema.ts';
import { getViewers } from './viewers.service.ts';

export function viewersRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/conversations/:cuuid/viewers',
      {
        config: { serviceRule: 'conversation_hidden' },
        schema: {
          tags: ['Conversations'],
          summary: 'Who is viewing the conversation now, and who is replying',
          description:
            'The agents whose agent socket sent `viewing` for this conversation (on any instance), one entry per agent whatever the number of their tabs, in the order they came: `replying` while one of their tabs sends typing frames of a public reply. The same list as the socket frame `conversation_viewers` (docs/api.md, "Presence").',
          params: UuidParams,
          response: { 200: Envelope(ViewerList), ...errors(400, 401, 404) },
        },
      },
      async (request) => ok(await getViewers(deps, principalOf(request), request.params.cuuid)),
    );
  };
}
