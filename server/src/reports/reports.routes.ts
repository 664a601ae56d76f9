import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AppDeps } from '../deps.ts';
import { Envelope, errors, ok } from '../http/schemas.ts';
import { OverviewCounts, TagDistributionReport, TagReportQuery } from './reports.schema.ts';
import * as reports from './reports.service.ts';
import { ServiceReport, ServiceReportQuery } from './service-report.schema.ts';
import { MAX_REPORT_DAYS, serviceReport } from './service-report.service.ts';

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
      '/reports/service',
      {
        config: { permission: 'reports:manage' },
        schema: {
          tags,
          summary: 'Service report: volumes, response and resolution times, SLA, CSAT, per day, agent and team',
          description: `Dates are local to the general settings' time zone, both inclusive, at most ${MAX_REPORT_DAYS} days; absent, the last 30 days ending today. \`from\` after \`to\` or a bad date → 400. Filters: \`team_id\`, \`inbox_id\`, \`agent_id\` (the conversation's now; for resolutions, the team and assignee at that moment) and \`tag\` (a name, case-insensitive; unknown → 400). \`created\` counts conversations by creation date; \`resolved\` counts each move into a resolved status on its date (a reopen then a resolve counts twice), credited to the assignee then. \`first_response_seconds\`: conversations first answered in the range, from creation to the first public agent reply; \`resolution_seconds\`: from creation to each resolution in the range. Times are calendar seconds, rounded. Counts are exact; medians and 90th percentiles are read from log-spaced bins (4% wide) and are within 2% of the exact value (or 1 second below a second), except with a \`tag\` filter or just after a time-zone change, when they are exact.`,
          querystring: ServiceReportQuery,
          response: { 200: Envelope(ServiceReport), ...errors(400, 401, 403) },
        },
      },
      async (request) => ok(await serviceReport(deps, request.query)),
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
