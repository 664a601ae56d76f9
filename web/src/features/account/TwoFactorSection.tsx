// Two-factor sign-in (TOTP): enrolment, recovery codes, turning it off.
export function TwoFactorSection() {
  return null;
}
