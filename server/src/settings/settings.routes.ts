import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../deps.ts';
import { auditActorOf } from '../http/access.ts';
import { Envelope, errors, ok } from '../http/schemas.ts';
import { GeneralSettingsRecord, UpdateGeneralSettingsBody } from './settings.schema.ts';
import * as settings from './settings.service.ts';

export function settingsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Settings'];
    app.get(
      '/settings/general',
      {
        config: { permission: 'general_settings:manage' },
        schema: {
          tags,
          summary: 'Get the general settings',
          response: { 200: Envelope(GeneralSettingsRecord), ...errors(401, 403) },
        },
      },
      async () => ok(await settings.getGeneralSettings(deps)),
    );
    app.put(
      '/settings/general',
      {
        config: { permission: 'general_settings:manage' },
        schema: {
          tags,
          summary: 'Update the general settings (partial)',
          body: UpdateGeneralSettingsBody,
          response: { 200: Envelope(GeneralSettingsRecord), ...errors(400, 401, 403) },
        },
      },
      async (request) => ok(await settings.updateGeneralSettings(deps, auditActorOf(request), request.body)),
    );
  };
}
