// Request and response schemas of messages (spec: Message).
import { Type } from 'typebox';
import { CONTENT_TYPES, MESSAGE_STATUSES, MESSAGE_TYPES, SENDER_TYPES } from '../db/types.ts';
import { DateTime, EmailAddress, Nullable, PageQuery, StringEnum } from '../http/schemas.ts';
import { Attachment } from '../media/media.schema.ts';

const Addresses = Type.Array(Type.String());

export const MessageMeta = Type.Object(
  {
    to: Addresses,
    cc: Addresses,
    bcc: Addresses,
    from: Addresses,
    subject: Type.String(),
  },
  { additionalProperties: true, description: 'Addressing of email messages; activity messages also carry `activity` (what changed).' },
);

export const Message = Type.Object(
  {
    id: Type.Integer(),
    created_at: DateTime,
    updated_at: DateTime,
    uuid: Type.String({ format: 'uuid' }),
    type: StringEnum(MESSAGE_TYPES),
    status: StringEnum(MESSAGE_STATUSES),
    conversation_id: Type.Integer(),
    conversation_uuid: Type.String({ format: 'uuid' }),
    content: Type.String(),
    text_content: Type.String(),
    content_type: StringEnum(CONTENT_TYPES),
    private: Type.Boolean(),
    sender_id: Nullable(Type.Integer()),
    sender_type: StringEnum(SENDER_TYPES),
    meta: MessageMeta,
    attachments: Type.Array(Attachment),
  },
  { title: 'Message' },
);

export const MessageParams = Type.Object({
  cuuid: Type.String({ format: 'uuid', description: 'Conversation uuid' }),
  uuid: Type.String({ format: 'uuid', description: 'Message uuid' }),
});

export const MessageListQuery = Type.Object({ ...PageQuery });

const EmailList = Type.Array(EmailAddress(), { maxItems: 50 });

export const SendMessageBody = Type.Object(
  {
    message: Type.String({
      maxLength: 100_000,
      description: 'The content; HTML is sanitised against an allow-list and may nest at most 100 levels deep',
    }),
    content_type: Type.Optional(StringEnum(CONTENT_TYPES, { default: 'html' })),
    private: Type.Optional(Type.Boolean({ default: false, description: 'A private note, seen by agents only' })),
    attachments: Type.Optional(
      Type.Array(Type.String({ format: 'uuid' }), { maxItems: 20, description: 'Uuids from POST /api/v1/media/upload' }),
    ),
    to: Type.Optional(EmailList),
    cc: Type.Optional(EmailList),
    bcc: Type.Optional(EmailList),
  },
  { additionalProperties: false },
);

export const IdempotencyHeaders = Type.Object({
  'idempotency-key': Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 255,
      pattern: '^[\\x21-\\x7E]+$',
      description: 'A retry with the same key returns the first result instead of sending twice',
    }),
  ),
});
