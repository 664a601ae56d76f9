// A 400's field errors (`data.errors: [{field, reason}]`, docs/api.md "Envelope and errors") for a
// form: each field shows its own reason; the message goes in the form's banner unless every error
// found a field on screen.
import { ApiError } from '../api/client';

export interface FormErrors {
  /** The reason for this field (or any field under it: `config.imap` takes `config.imap.host`). */
  field(name: string): string | null;
  /** The message for the banner: null when every field error is shown beside its field. */
  banner(shown: readonly string[]): string | null;
  /** The first field named, to bring it into view (a tab, a section). */
  firstField(): string | null;
}

function fieldErrorsOf(error: unknown): Array<{ field: string; reason: string }> {
  if (!(error instanceof ApiError) || typeof error.data !== 'object' || error.data === null) return [];
  const list = 'errors' in error.data ? error.data.errors : undefined;
  if (!Array.isArray(list)) return [];
  return list.flatMap((item) =>
    typeof item === 'object' && item !== null && typeof item.field === 'string' && typeof item.reason === 'string'
      ? [{ field: item.field, reason: item.reason }]
      : [],
  );
}

export function formErrors(error: unknown): FormErrors {
  const list = fieldErrorsOf(error);
  const matches = (name: string, field: string) => field === name || field.startsWith(`${name}.`) || field.startsWith(`${name}[`);
  return {
    field(name) {
      const found = list.find((item) => matches(name, item.field));
      return found ? found.reason : null;
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
