// The widget's live preview (docs/api.md, "Live chat", preview): what the widget would show a
// visitor if the live-chat settings being edited were saved. The draft is checked as the inbox
// update checks it (inboxes.service.ts `livechatDraft`), then handed to the very functions the
// widget's own routes answer with (`widgetSettings`, `launcherSettings`), so the preview and the
// widget cannot differ. Nothing is written. The web app feeds the answer to the real chat frame
// in preview mode (widget/src/frame/preview.ts) and to the shared launcher (widget/src/launcher-look.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { Envelope, errors, IdParams, ok } from '../http/schemas.ts';
import { documentedAs } from '../http/openapi.ts';
import { LivechatConfig } from '../inboxes/inboxes.schema.ts';
import { livechatDraft } from '../inboxes/inboxes.service.ts';
import { LauncherSettings, WidgetSettings } from './widget.schema.ts';
import { launcherSettings, widgetSettings } from './widget.service.ts';

const DraftBody = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  additionalProperties: true,
  description: "The live-chat config being edited, as `PUT /inboxes/{id}`'s `config` (LivechatInboxConfig); checked the same way.",
});

export const WidgetPreview = Type.Object(
  { settings: WidgetSettings, launcher: LauncherSettings },
  {
    title: 'WidgetPreview',
    description: 'What `GET /widget/chat/settings` and `…/settings/launcher` would answer with these settings saved',
  },
);

/** The widget's settings and launcher for a draft of inbox `id`'s live-chat config; nothing is saved. */
export async function previewWidget(deps: AppDeps, id: number, draft: Record<string, unknown>) {
  const inbox = await livechatDraft(deps, id, draft);
  return { settings: await widgetSettings(deps, inbox), launcher: launcherSettings(inbox) };
}

export function widgetPreviewRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/inboxes/:id/widget-preview',
      {
        config: { permission: 'inboxes:manage', swaggerTransform: documentedAs({ body: LivechatConfig }) },
        schema: {
          tags: ['Inboxes'],
          summary: "Preview a live chat's widget with unsaved settings",
          description:
            "Answers what the widget's settings and launcher routes would answer a visitor if these settings were saved (`PUT /inboxes/{id}` with them as `config`): the same checks (400 naming `config.<field>`), the same defaults, the business hours they name in effect now. Nothing is saved. Not a live-chat inbox → 422.",
          params: IdParams,
          body: DraftBody,
          response: { 200: Envelope(WidgetPreview), ...errors(400, 401, 403, 404, 422) },
        },
      },
      async (request) => ok(await previewWidget(deps, request.params.id, request.body)),
    );
  };
}
