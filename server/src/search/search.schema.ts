// Request and response schemas of the global search.
import { Type } from 'typebox';
import { DateTime, Nullable, NullableDateTime, StringEnum } from '../http/schemas.ts';

export const SearchQuery = Type.Object({
  q: Type.String({
    maxLength: 1000,
    description:
      'The text to look for; trimmed, then 1..200 characters (blank or longer → 400). A reference number may be written with a leading `#`.',
  }),
  limit: Type.Optional(Type.Integer({ default: 10, description: 'Results per section, 1..50; values outside are clamped. Default 10.' })),
});

export const ConversationHit = Type.Object(
  {
    id: Type.Integer(),
    uuid: Type.String({ format: 'uuid' }),
    reference_number: Type.String(),
    subject: Type.String(),
    status: Type.String({ description: 'Status name' }),
    inbox_id: Type.Integer(),
    contact: Type.Object(
      { id: Type.Integer(), first_name: Type.String(), last_name: Type.String(), email: Nullable(Type.String()) },
      { additionalProperties: false },
    ),
    last_message_at: NullableDateTime,
    created_at: DateTime,
  },
  { title: 'ConversationSearchHit', additionalProperties: false },
);

export const MessageHit = Type.Object(
  {
    uuid: Type.String({ format: 'uuid' }),
    conversation_uuid: Type.String({ format: 'uuid' }),
    reference_number: Type.String({ description: "The conversation's reference number" }),
    type: StringEnum(['incoming', 'outgoing'] as const),
    private: Type.Boolean({ description: 'A private note' }),
    snippet: Type.String({ description: 'Plain text around the best match (no markup; escape it before rendering as HTML)' }),
    created_at: DateTime,
  },
  { title: 'MessageSearchHit', additionalProperties: false },
);

export const ContactHit = Type.Object(
  {
    id: Type.Integer(),
    first_name: Type.String(),
    last_name: Type.String(),
    email: Nullable(Type.String()),
    phone_number: Nullable(Type.String()),
    avatar_url: Nullable(Type.String()),
    type: StringEnum(['contact', 'visitor'] as const),
  },
  { title: 'ContactSearchHit', additionalProperties: false },
);

export const SearchResults = Type.Object(
  {
    conversations: Type.Array(ConversationHit),
    messages: Type.Array(MessageHit),
    contacts: Type.Array(ContactHit),
  },
  { title: 'SearchResults', additionalProperties: false },
);
