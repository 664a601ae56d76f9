// Request and response schemas of CSAT surveys (docs/api.md, "CSAT").
import { Type } from 'typebox';
import { CSAT_CHANNELS } from '../db/types.ts';
import { DateTime, Nullable, NullableDateTime, StringEnum } from '../http/schemas.ts';

/** Longest feedback kept, in characters (the column's check says the same). */
export const MAX_FEEDBACK = 2000;
/** How long a survey takes answers (and changes of an answer), from its creation. */
export const EDITABLE_DAYS = 7;

export const CsatSurvey = Type.Object(
  {
    uuid: Type.String({ format: 'uuid' }),
    conversation_uuid: Type.String({ format: 'uuid' }),
    created_at: DateTime,
    sent_via: StringEnum(CSAT_CHANNELS, { description: 'The channel the survey went out on' }),
    rating: Nullable(Type.Integer({ minimum: 1, maximum: 5, description: 'Null until answered' })),
    feedback: Type.String(),
    submitted_at: NullableDateTime,
    editable_until: DateTime,
  },
  { title: 'CsatSurvey' },
);

export const PublicCsatSurvey = Type.Object(
  {
    uuid: Type.String({ format: 'uuid' }),
    conversation_subject: Type.String(),
    inbox_name: Type.String(),
    brand: Type.Object({
      name: Type.String({ description: "The live-chat inbox's brand name, else the inbox name" }),
      logo_url: Nullable(Type.String()),
      primary_color: Nullable(Type.String({ description: '#RGB or #RRGGBB' })),
    }),
    rating: Nullable(Type.Integer({ minimum: 1, maximum: 5 })),
    feedback: Type.String(),
    submitted_at: NullableDateTime,
    editable_until: DateTime,
  },
  { title: 'PublicCsatSurvey' },
);

export const CsatParams = Type.Object({ uuid: Type.String({ format: 'uuid', description: 'Survey uuid' }) });

export const CsatResponseBody = Type.Object(
  {
    rating: Type.Integer({ minimum: 1, maximum: 5, description: '1 (bad) to 5 (great)' }),
    feedback: Type.Optional(
      Type.String({ maxLength: MAX_FEEDBACK, description: `Plain text, at most ${MAX_FEEDBACK} characters; omitted keeps the stored one` }),
    ),
  },
  { additionalProperties: false },
);
