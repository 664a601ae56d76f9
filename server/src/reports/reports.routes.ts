import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../deps.ts';
import { Envelope, errors, ok } from '../http/schemas.ts';
import { OverviewCounts, TagDistributionReport, TagReportQuery } from './reports.schema.ts';
import * as reports from './reports.service.ts';

export function reportsRoutes(deps: AppDeps): FastifyPluginAsyncTypebox {
  return async (app) => {
    const tags = ['Reports'];
    app.get(
      '/reports/overview/tags',
      {
        config: { permission: 'reports:manage' },
        schema: {
          tags,
          summary: 'Tag distribution report',
          description:
            'Over the conversations created in the window: the 10 most used tags, how many conversations carry a tag and how many do not, and the tagged share as a percentage (one decimal).',
          querystring: TagReportQuery,
          response: { 200: Envelope(TagDistributionReport), ...errors(400, 401, 403) },
        },
      },
      async (request) => ok(await reports.tagDistribution(deps, request.query.days)),
    );
    app.get(
      '/reports/overview/counts',
      {
        config: { permission: 'reports:manage' },
        schema: {
          tags,
          summary: 'Live counts: conversations by state, agents by availability',
          description:
            '`open` / `waiting`: conversations by status category. `unassigned`: not resolved and no agent assigned. `awaiting_first_reply`: not resolved and no agent reply yet. `agents`: enabled agents per availability status.',
          response: { 200: Envelope(OverviewCounts), ...errors(401, 403) },
        },
      },
      async () => ok(await reports.overviewCounts(deps)),
    );
  };
}
