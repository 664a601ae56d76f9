// Request and response schemas of the global search.
import { Type } from 'typebox';
import { DateTime, Nullable, NullableDateTime, StringEnum } from '../http/schemas.ts';

const IdList = (description: string) =>
  Type.Optional(
    Type.Array(Type.Integer({ minimum: 1, maximum: 2147483647 }), {
      maxItems: 50,
      description: `${description}; repeat the parameter for several`,
    }),
  );

export const SearchQuery = Type.Object({
  q: Type.String({
    maxLength: 1000,
    description:
      'The text to look for; trimmed, then 1..200 characters (blank or longer → 400). A reference number may be written with a leading `#`.',
  }),
  limit: Type.Optional(Type.Integer({ default: 10, description: 'Results per section, 1..50; values outside are clamped. Default 10.' })),
  status: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 100 }), {
      maxItems: 20,
      description: 'Conversation status, by name (case-insensitive) or id; repeat the parameter for several',
    }),
  ),
  inbox_id: IdList('Inbox id'),
  team_id: IdList('Assigned team id'),
  assignee_id: Type.Optional(
    Type.Array(Type.String({ pattern: '^([0-9]{1,10}|unassigned)$' }), {
      maxItems: 50,
      description: 'Assigned agent id, or `unassigned` for conversations assigned to no agent; repeat the parameter for several',
    }),
  ),
  from: Type.Optional(
    Type.String({
      maxLength: 40,
      description:
        'Created at or after: an RFC 3339 time, or a date `YYYY-MM-DD` (its start, UTC). Conversations by their creation, messages by theirs.',
    }),
  ),
  to: Type.Optional(
    Type.String({
      maxLength: 40,
      description: 'Created before: an RFC 3339 time, or a date `YYYY-MM-DD` (that whole day included, UTC).',
    }),
  ),
});

/** A highlight: `[start, end)` offsets in UTF-16 code units (JavaScript string indexes) into the text it belongs to. */
const HighlightRange = Type.Tuple([Type.Integer({ minimum: 0 }), Type.Integer({ minimum: 0 })]);
const Highlights = Type.Array(HighlightRange, {
  description: '`[start, end)` offsets in UTF-16 code units (JavaScript string indexes) of the matched words in the text beside it',
});

export const ConversationHit = Type.Object(
  {
    id: Type.Integer(),
    uuid: Type.String({ format: 'uuid' }),
    reference_number: Type.String(),
    subject: Type.String(),
    subject_highlights: Highlights,
    first_message: Nullable(Type.String({ description: "The conversation's first message, shortened: its title when it has no subject" })),
    status: Type.String({ description: 'Status name' }),
    inbox_id: Type.Integer(),
    contact: Type.Object(
      {
        id: Type.Integer(),
        first_name: Type.String(),
        last_name: Type.String(),
        email: Nullable(Type.String()),
        name_highlights: Type.Array(HighlightRange, { description: 'In `first_name + " " + last_name`' }),
        email_highlights: Type.Array(HighlightRange, { description: 'In `email`' }),
      },
      { additionalProperties: false },
    ),
    tags: Type.Array(Type.Object({ name: Type.String(), highlights: Highlights }, { additionalProperties: false }), {
      description: "The conversation's tags, with the matches in their names",
    }),
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
    conversation_subject: Type.String({ description: "The conversation's subject (hits of one conversation are grouped under it)" }),
    conversation_first_message: Nullable(
      Type.String({ description: "The conversation's first message, shortened: its title when it has no subject" }),
    ),
    conversation_status: Type.String({ description: "The conversation's status name" }),
    type: StringEnum(['incoming', 'outgoing'] as const),
    private: Type.Boolean({ description: 'A private note' }),
    snippet: Type.String({
      description: 'One line of plain text around the first match (no markup; escape it before rendering as HTML); `…` marks a cut',
    }),
    highlights: Highlights,
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
    name_highlights: Type.Array(HighlightRange, { description: 'In `first_name + " " + last_name`' }),
    email_highlights: Type.Array(HighlightRange, { description: 'In `email`' }),
    phone_highlights: Type.Array(HighlightRange, { description: 'In `phone_number`' }),
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
