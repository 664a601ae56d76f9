// Request and response schemas of two-factor sign-in (agents/two-factor.routes.ts, the second
// step of a password sign-in in sessions.routes.ts).
import { Type } from 'typebox';

/** A TOTP code (6 digits) or a recovery code (`xxxxx-xxxxx`); spaces and dashes are ignored. */
export const Code = Type.String({
  minLength: 1,
  maxLength: 32,
  pattern: '^[A-Za-z0-9 -]+$',
  description: 'The 6-digit code of the authenticator app, or an unused recovery code',
});

export const TwoFactorSetup = Type.Object({
  secret: Type.String({ description: 'The TOTP secret, base32, for manual entry in an authenticator app; shown only here' }),
  otpauth_url: Type.String({ description: 'The `otpauth://totp/…` URL (for a QR code) carrying the same secret' }),
});

export const EnableBody = Type.Object({ code: Code }, { additionalProperties: false });

export const RecoveryCodes = Type.Object({
  recovery_codes: Type.Array(Type.String(), {
    minItems: 10,
    maxItems: 10,
    description: 'Ten single-use codes for signing in without the app; shown only here (stored hashed)',
  }),
});

export const DisableBody = Type.Object(
  {
    password: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 256,
        description: 'The current password; required unless the agent has none (it signs in only by single sign-on)',
      }),
    ),
    code: Code,
  },
  { additionalProperties: false },
);

export const MfaBody = Type.Object(
  {
    challenge: Type.String({
      minLength: 1,
      maxLength: 128,
      pattern: '^[A-Za-z0-9_-]+$',
      description: 'The challenge POST /auth/login answered',
    }),
    code: Code,
  },
  { additionalProperties: false },
);

export const MfaChallenge = Type.Object(
  {
    mfa_required: Type.Literal(true),
    challenge: Type.String({ description: 'Opaque; send it with a code to POST /api/v1/auth/mfa within 5 minutes' }),
  },
  { title: 'MfaChallenge' },
);
