// "Check a site" on the live-chat inbox's Install tab (docs/api.md, "Live chat"): whether a page
// at a given address may embed the inbox's chat, by the rule the widget itself applies
// (widget.edge.ts `mayEmbed`: the frame's frame-ancestors, the launcher's refusal). The list
// checked is the one being edited when the admin sends it (checked as the inbox update checks
// it), else the saved one. Nothing is written.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { DataError, InputError } from '../errors.ts';
import { Envelope, errors, IdParams, ok } from '../http/schemas.ts';
import { CHANNEL_TABLE } from '../inboxes/channels.ts';
import { getInbox, livechatDraft } from '../inboxes/inboxes.service.ts';
import { mayEmbed } from './widget.edge.ts';

const OriginCheckBody = Type.Object(
  {
    url: Type.String({
      minLength: 1,
      maxLength: 2048,
      description: 'An address of the site (`https://shop.example.com/cart`); a bare host name is read as https',
    }),
    trusted_domains: Type.Optional(
      Type.Array(Type.String(), {
        description:
          "The list being edited (as `PUT /inboxes/{id}`'s `config.trusted_domains`, checked the same way); the saved one when absent",
      }),
    ),
  },
  { additionalProperties: false },
);

export const OriginCheck = Type.Object(
  {
    origin: Type.String({ description: 'The origin checked (scheme, host and port of `url`)' }),
    allowed: Type.Boolean({ description: 'Whether a page of that origin may embed the chat' }),
    any_site: Type.Boolean({ description: 'True when the list is empty: every site may embed the chat' }),
  },
  { title: 'WidgetOriginCheck' },
);

/** The origin of an address an admin typed: http(s) only; a bare host name is read as https. */
export function originOfAddress(address: string): string {
  const trimmed = address.trim();
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw InputError.field('url', 'must be a web address such as https://shop.example.com');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '')
    throw InputError.field('url', 'must be an http or https address');
  return url.origin;
}

export async function checkOrigin(deps: AppDeps, id: number, url: string, draft: string[] | undefined) {
  const origin = originOfAddress(url);
  const saved = await getInbox(deps, id);
  if (!CHANNEL_TABLE[saved.channel].widget) throw new DataError('Only live-chat inboxes have a widget to embed');
  // A list being edited is checked within the saved config, as the update would check it (the
  // secret left out: the stored one is kept, as the preview does, and never needed here).
  const { secret: _secret, ...rest } = saved.config;
  const config = draft === undefined ? saved.config : (await livechatDraft(deps, id, { ...rest, trusted_domains: draft })).config;
  const trusted = Array.isArray(config['trusted_domains']) ? config['trusted_domains'].filter((d) => typeof d === 'string') : [];
  return { origin, allowed: mayEmbed(deps, trusted, origin), any_site: trusted.length === 0 };
}

export function widgetEmbedRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/inboxes/:id/widget-origin-check',
      {
        config: { permission: 'inboxes:manage' },
        schema: {
          tags: ['Inboxes'],
          summary: "Check whether a site may embed a live chat's widget",
          description:
            "Answers whether a page at `url` may embed the inbox's chat: by the rule the widget applies (the frame's `frame-ancestors`, the launcher's 403), against `trusted_domains` as sent, else as saved. Parley's own origin always may. A malformed address or list → 400; not a live-chat inbox → 422.",
          params: IdParams,
          body: OriginCheckBody,
          response: { 200: Envelope(OriginCheck), ...errors(400, 401, 403, 404, 422) },
        },
      },
      async (request) => ok(await checkOrigin(deps, request.params.id, request.body.url, request.body.trusted_domains)),
    );
  };
}
