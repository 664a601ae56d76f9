// Request and response schemas of the reports domain (docs/api.md: Reports; spec: Tag distribution report).
import { Type } from 'typebox';

export const TagReportQuery = Type.Object({
  days: Type.Optional(
    Type.Integer({
      default: 30,
      description:
        'Number of past days included: conversations created since `days` × 24 h before now. `0` means today only (since local midnight in the time zone of the general settings, `TIMEZONE` until one is set). Values outside 0..365 are clamped; a non-integer is refused (400). Default 30.',
    }),
  ),
});

export const TagCount = Type.Object(
  {
    tag_id: Type.Integer(),
    tag_name: Type.String(),
    count: Type.Integer({ description: 'Conversations in the window carrying this tag' }),
  },
  { additionalProperties: false },
);

export const TagDistributionReport = Type.Object(
  {
    top_tags: Type.Array(TagCount, {
      maxItems: 10,
      description:
        'At most 10 tags, by count (descending), then by name (case-insensitive); tags on no conversation in the window are left out',
    }),
    tagged_conversations: Type.Integer({ description: 'Conversations in the window with at least one tag' }),
    untagged_conversations: Type.Integer({ description: 'Conversations in the window without any tag' }),
    tagged_percentage: Type.Number({
      description: 'tagged / all conversations in the window × 100, rounded to one decimal; 0 when there are none',
    }),
  },
  { title: 'TagDistributionReport', additionalProperties: false },
);

export const OverviewCounts = Type.Object(
  {
    open: Type.Integer({ description: 'Conversations whose status is in the `open` category' }),
    waiting: Type.Integer({ description: 'Conversations whose status is in the `waiting` category (e.g. Snoozed)' }),
    unassigned: Type.Integer({ description: 'Conversations not resolved (open or waiting) with no agent assigned' }),
    awaiting_first_reply: Type.Integer({
      description: 'Conversations not resolved that have no agent reply yet (`first_reply_at` is null)',
    }),
    agents: Type.Object(
      {
        available: Type.Integer(),
        busy: Type.Integer(),
        away: Type.Integer(),
        offline: Type.Integer(),
      },
      { additionalProperties: false, description: 'Enabled, not deleted agents per `availability_status`' },
    ),
  },
  { title: 'OverviewCounts', additionalProperties: false },
);
