// Request and response schemas of drafts (docs/api.md, "Working together").
import { Type } from 'typebox';
import { DateTime } from '../http/schemas.ts';
import { MAX_ATTACHMENTS } from '../media/media.service.ts';

/** As long as a message may be (messages.schema.ts): a draft becomes one. */
export const MAX_DRAFT_LENGTH = 100_000;

export const DraftParams = Type.Object({ cuuid: Type.String({ format: 'uuid', description: 'Conversation uuid' }) });

export const Draft = Type.Object(
  {
    content: Type.String({ description: 'Sanitised HTML, as a message would store it' }),
    private: Type.Boolean({ description: 'Written as a private note' }),
    attachments: Type.Array(Type.String({ format: 'uuid' }), {
      description: 'Uploads (POST /api/v1/media/upload) of the caller not attached to a message yet; an upload purged since is left out',
    }),
    updated_at: DateTime,
  },
  { title: 'Draft', additionalProperties: false },
);

export const DraftBody = Type.Object(
  {
    content: Type.String({
      maxLength: MAX_DRAFT_LENGTH,
      description:
        'HTML, sanitised like a message (at most 100 levels deep); an empty one (no text, image or attachment) deletes the draft and answers null',
    }),
    private: Type.Optional(Type.Boolean({ default: false, description: 'Written as a private note' })),
    attachments: Type.Optional(
      Type.Array(Type.String({ format: 'uuid' }), {
        maxItems: MAX_ATTACHMENTS,
        description: "The caller's own uploads not attached to a message yet, as when sending",
      }),
    ),
  },
  { additionalProperties: false },
);

export const ColleagueDraft = Type.Object(
  {
    agent_id: Type.Integer(),
    name: Type.String(),
    private: Type.Boolean(),
    updated_at: DateTime,
  },
  { title: 'ColleagueDraft', additionalProperties: false },
);
