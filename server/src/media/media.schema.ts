// Request and response schemas of the media domain (uploads and their signed URLs).
import { type Static, Type } from 'typebox';
import { DISPOSITIONS } from '../db/types.ts';
import { Nullable, StringEnum } from '../http/schemas.ts';

/** A stored file as clients see it: Libredesk's attachment shape, minus thumbnails. */
export const Attachment = Type.Object({
  uuid: Type.String(),
  name: Type.String(),
  content_type: Type.String(),
  size: Type.Integer(),
  disposition: StringEnum(DISPOSITIONS),
  content_id: Nullable(Type.String()),
  url: Type.String(),
});

export type AttachmentRecord = Static<typeof Attachment>;

// Checked by hand below rather than with `format: 'uuid'`, which also admits a `urn:uuid:` prefix.
export const MediaParams = Type.Object({
  uuid: Type.String({
    pattern: '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$',
    description: 'Media uuid',
  }),
});

// Loose on purpose (optional, free text, even repeated): a missing, malformed or repeated
// signature is answered with the same 403 as a wrong one, never with a validation error.
const Loose = (description: string) => Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())], { description }));
export const SignedQuery = Type.Object({
  exp: Loose('Expiry, in Unix seconds'),
  sig: Loose('base64url HMAC-SHA256 signature of `<uuid>:<exp>`, keyed by a key derived from SECRET_KEY'),
});

/** For the OpenAPI document only: the upload route reads its multipart body as a stream. */
export const UploadBody = Type.Object({
  files: Type.Array(Type.String({ format: 'binary' }), { description: 'One or more file parts named `files`' }),
});
