// The service report's query and answer (contract §14; docs/api.md, "Service report").
import { Type } from 'typebox';
import { Nullable } from '../http/schemas.ts';

const DateOnly = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  description: 'YYYY-MM-DD, a local date in the general settings\u2019 time zone',
});

export const ServiceReportQuery = Type.Object(
  {
    from: Type.Optional(DateOnly),
    to: Type.Optional(DateOnly),
    team_id: Type.Optional(Type.Integer({ minimum: 1 })),
    inbox_id: Type.Optional(Type.Integer({ minimum: 1 })),
    agent_id: Type.Optional(Type.Integer({ minimum: 1 })),
    tag: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { additionalProperties: false },
);

const Seconds = Type.Object({
  median: Nullable(Type.Number({ description: 'Seconds; null without any' })),
  p90: Nullable(Type.Number({ description: 'Seconds; null without any' })),
  count: Type.Integer(),
});

const MetOrBreached = Type.Object({ met: Type.Integer(), breached: Type.Integer() });

export const ServiceReport = Type.Object(
  {
    from: Type.String(),
    to: Type.String(),
    timezone: Type.String({ description: 'The zone the dates are in (the general settings\u2019)' }),
    conversations: Type.Object({ created: Type.Integer(), resolved: Type.Integer() }),
    first_response_seconds: Seconds,
    resolution_seconds: Seconds,
    sla: Type.Object({ first_response: MetOrBreached, next_response: MetOrBreached, resolution: MetOrBreached }),
    csat: Type.Object({
      responses: Type.Integer(),
      sent: Type.Integer(),
      average: Nullable(Type.Number()),
      distribution: Type.Object({
        '1': Type.Integer(),
        '2': Type.Integer(),
        '3': Type.Integer(),
        '4': Type.Integer(),
        '5': Type.Integer(),
      }),
    }),
    by_day: Type.Array(Type.Object({ date: Type.String(), created: Type.Integer(), resolved: Type.Integer() })),
    by_agent: Type.Array(
      Type.Object({
        agent_id: Type.Integer(),
        name: Type.String(),
        resolved: Type.Integer(),
        first_response_median_seconds: Nullable(Type.Number()),
        csat_average: Nullable(Type.Number()),
      }),
    ),
    by_team: Type.Array(Type.Object({ team_id: Type.Integer(), name: Type.String(), created: Type.Integer(), resolved: Type.Integer() })),
  },
  { title: 'ServiceReport' },
);
