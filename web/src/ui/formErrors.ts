// A 400's field errors (`data.errors: [{field, reason}]`, docs/api.md "Envelope and errors") for a
// form: each field shows its own reason, in the app's words (i18n/reasons.ts); the message goes in
// the form's banner unless every error found a field on screen.
import { ApiError } from '../api/client';
import { fieldErrorsOf, fieldMessage } from '../i18n/reasons';

export interface FormErrors {
  /** The reason for this field (or any field under it: `config.imap` takes `config.imap.host`). */
  field(name: string): string | null;
  /** The message for the banner: null when every field error is shown beside its field. */
  banner(shown: readonly string[]): string | null;
  /** The first field named, to bring it into view (a tab, a section). */
  firstField(): string | null;
}

export function formErrors(error: unknown): FormErrors {
  const list = error instanceof ApiError ? fieldErrorsOf(error.data) : [];
  const matches = (name: string, field: string) => field === name || field.startsWith(`${name}.`) || field.startsWith(`${name}[`);
  return {
    field(name) {
      const found = list.find((item) => matches(name, item.field));
      return found ? fieldMessage(found.reason) : null;
    },
    banner(shown) {
      if (!error) return null;
      const message = error instanceof Error ? error.message : String(error);
      if (list.length === 0) return message;
      return list.every((item) => shown.some((name) => matches(name, item.field))) ? null : message;
    },
    firstField() {
      return list[0]?.field ?? null;
    },
  };
}
