// Request and response schemas of the contacts domain. A contact is answered with
// the spec's Agent record (same shape, type `contact` or `visitor`).
import { Type } from 'typebox';
import { AgentRecord } from '../agents/agents.schema.ts';
import { DateTime, EmailAddress, Nullable, StringEnum } from '../http/schemas.ts';

const LoadRemoteImages = Type.Boolean({
  description:
    "Remote images (http(s) `<img>`) in this contact's messages load in the agent web app without a click; false (default) holds them back until an agent asks (tracking pixels).",
});

// Two-factor sign-in is for agents only.
const { two_factor_enabled: _agentsOnly, ...sharedProperties } = AgentRecord.properties;

export const ContactRecord = Type.Object(
  { ...sharedProperties, load_remote_images: LoadRemoteImages },
  { title: 'Contact', description: 'The Agent record, plus the contact-only fields.' },
);

// Surrounding whitespace is allowed: the service trims it.
const Email = EmailAddress({
  format: 'trimmed-email',
  description: 'Email address (international addresses welcome); trimmed and lowercased',
});
const FirstName = Type.String({ minLength: 1, maxLength: 128, pattern: '\\S', description: 'Trimmed; must not be blank' });
const LastName = Type.String({ maxLength: 128, description: 'Trimmed' });
const PhoneNumber = Type.String({ maxLength: 32, description: 'Trimmed' });
const CountryCode = Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166-1 alpha-2 country code; stored upper-case' });
const ExternalUserId = Type.String({
  minLength: 1,
  maxLength: 256,
  pattern: '\\S',
  description: 'Your own id for this person; unique among contacts',
});
const CustomAttributes = Type.Record(Type.String({ maxLength: 100 }), Type.Unknown(), {
  maxProperties: 100,
  description: 'Free-form attributes (a JSON object); replaced as a whole on update',
});

export const CreateContactBody = Type.Object(
  {
    email: Type.Optional(Nullable(Email)),
    first_name: FirstName,
    last_name: Type.Optional(LastName),
    phone_number: Type.Optional(Nullable(PhoneNumber)),
    phone_number_country_code: Type.Optional(Nullable(CountryCode)),
    external_user_id: Type.Optional(Nullable(ExternalUserId)),
    custom_attributes: Type.Optional(CustomAttributes),
  },
  {
    additionalProperties: false,
    description:
      '`email` or `external_user_id` is required. Email is unique among contacts without an external id; external id is unique among contacts (409 otherwise).',
  },
);

export const UpdateContactBody = Type.Object(
  {
    email: Type.Optional(Nullable(Email)),
    first_name: Type.Optional(FirstName),
    last_name: Type.Optional(LastName),
    phone_number: Type.Optional(Nullable(PhoneNumber)),
    phone_number_country_code: Type.Optional(Nullable(CountryCode)),
    external_user_id: Type.Optional(Nullable(ExternalUserId)),
    custom_attributes: Type.Optional(CustomAttributes),
    load_remote_images: Type.Optional(LoadRemoteImages),
  },
  {
    additionalProperties: false,
    description: 'Partial update: omitted fields keep their value. A contact keeps an email or an external id.',
  },
);

export const BlockBody = Type.Object(
  { enabled: Type.Boolean({ description: '`false` blocks the contact, `true` unblocks it' }) },
  { additionalProperties: false },
);

export const ContactListQuery = Type.Object({
  page: Type.Optional(Type.Integer({ default: 1, description: 'Page number, from 1; values outside are clamped.' })),
  page_size: Type.Optional(Type.Integer({ default: 30, description: 'Items per page, 1..100; values outside are clamped.' })),
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Case-insensitive substring of the name, email or phone number' })),
  order_by: Type.Optional(StringEnum(['created_at', 'updated_at', 'first_name', 'email'] as const, { default: 'created_at' })),
  order: Type.Optional(StringEnum(['asc', 'desc'] as const, { default: 'desc' })),
});

export const NoteParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Contact id' }),
  note_id: Type.Integer({ minimum: 1, maximum: 2147483647, description: 'Note id' }),
});

/** At most this many characters (code points) in a note, as given and as stored once sanitised. */
export const NOTE_MAX_LENGTH = 10000;

// Notes are HTML, like message content: the agent web app edits and renders them as rich text.
const NOTE_HTML =
  'HTML, sanitised on the way in exactly as message content is: an allow-list of formatting tags (p, br, b, i, a, lists, headings, ' +
  'tables, img…) is kept, everything else (script, style, iframe, event handlers such as onerror, javascript: and data: links) is removed. ' +
  'Plain text is read as HTML too: `<` and `&` come back escaped, and line breaks need <br> or <p>.';

export const NoteBody = Type.Object(
  {
    note: Type.String({
      minLength: 1,
      maxLength: NOTE_MAX_LENGTH,
      pattern: '\\S',
      description: `${NOTE_HTML} Trimmed; 1..${NOTE_MAX_LENGTH} characters, and after sanitising it must still show some text or an image (else 400).`,
    }),
  },
  { additionalProperties: false },
);

export const ContactNote = Type.Object(
  {
    id: Type.Integer(),
    created_at: DateTime,
    updated_at: DateTime,
    contact_id: Type.Integer(),
    note: Type.String({ description: 'The note as stored: sanitised HTML, safe to render as it is' }),
    user_id: Nullable(Type.Integer({ description: 'The author (an agent); null if the author no longer exists' })),
    first_name: Type.String({ description: "The author's first name" }),
    last_name: Type.String({ description: "The author's last name" }),
    avatar_url: Nullable(Type.String({ description: "The author's avatar" })),
  },
  { title: 'ContactNote', description: `A note on a contact. ${NOTE_HTML}` },
);
