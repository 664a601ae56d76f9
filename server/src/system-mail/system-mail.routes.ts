import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { Envelope, errors, ok, StringEnum } from '../http/schemas.ts';
import { systemMailStatus } from './system-mail.service.ts';

const SystemMailStatus = Type.Object(
  {
    configured: Type.Boolean({ description: 'SMTP_URL and MAIL_FROM are both set: invitations and password resets are mailed.' }),
    missing: Type.Array(StringEnum(['SMTP_URL', 'MAIL_FROM'] as const), { description: 'The variables still to set.' }),
  },
  { additionalProperties: false },
);

export function systemMailRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/system-mail/status',
      {
        schema: {
          tags: ['Agents'],
          summary: 'Whether system mail (invitations, password resets) is configured',
          description: 'Any signed-in agent may ask. Unconfigured, invitations and password resets answer 422 naming the variables.',
          response: { 200: Envelope(SystemMailStatus), ...errors(401) },
        },
      },
      async () => ok(systemMailStatus(deps.config)),
    );
  };
}
