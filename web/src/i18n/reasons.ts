// The API's words for what is wrong (docs/api.md "Envelope and errors": `data.errors[]` of
// `{field, reason}`, whose reasons are partly the schema validator's own English, "must NOT have
// fewer than 1 characters") turned into the app's words, through the catalogue; and the message
// of an error answer made from them rather than from the server's text, which names request parts
// ("Invalid body: …") and paths.
import { isMessageKey, t } from './t';

export interface FieldError {
  field: string;
  reason: string;
}

/** The `data.errors` of an error envelope, the well-formed ones. */
export function fieldErrorsOf(data: unknown): FieldError[] {
  if (typeof data !== 'object' || data === null || !('errors' in data) || !Array.isArray(data.errors)) return [];
  return data.errors.flatMap((item: unknown) =>
    typeof item === 'object' &&
    item !== null &&
    'field' in item &&
    'reason' in item &&
    typeof item.field === 'string' &&
    typeof item.reason === 'string'
      ? [{ field: item.field, reason: item.reason }]
      : [],
  );
}

const TYPES: Record<string, Parameters<typeof t>[0]> = {
  integer: 'reason.integer',
  number: 'reason.number',
  string: 'reason.string',
  boolean: 'reason.boolean',
  array: 'reason.array',
  object: 'reason.object',
};

/** A reason in the app's words (the server's own sentences are kept as they are). */
export function humanReason(reason: string): string {
  let m = /^must NOT have fewer than (\d+) characters$/.exec(reason);
  if (m) return Number(m[1]) <= 1 ? t('reason.empty') : t('reason.minLength', { n: Number(m[1]) });
  m = /^must NOT have more than (\d+) characters$/.exec(reason);
  if (m) return t('reason.maxLength', { n: Number(m[1]) });
  m = /^must NOT have fewer than (\d+) items$/.exec(reason);
  if (m) return t('reason.minItems', { n: Number(m[1]) });
  m = /^must NOT have more than (\d+) items$/.exec(reason);
  if (m) return t('reason.maxItems', { n: Number(m[1]) });
  m = /^must be (>=|<=|>|<) (-?[\d.]+)$/.exec(reason);
  if (m) {
    const key = ({ '>=': 'reason.atLeast', '<=': 'reason.atMost', '>': 'reason.above', '<': 'reason.below' } as const)[
      m[1] as '>=' | '<=' | '>' | '<'
    ];
    return t(key, { n: Number(m[2]) });
  }
  m = /^must be (\w+)$/.exec(reason);
  const type = m ? TYPES[m[1] ?? ''] : undefined;
  if (type) return t(type);
  if (reason === 'is required') return t('reason.required');
  if (reason === 'is not allowed') return t('reason.notAllowed');
  return reason;
}

/** "first_name" → "First name" (or the catalogue's `field.first_name`); a path names its last part. */
export function fieldLabel(field: string): string {
  const last =
    field
      .split('.')
      .at(-1)
      ?.replace(/\[\d+\]$/, '') ?? field;
  const key = `field.${last}`;
  if (isMessageKey(key)) return t(key);
  const words = last.replace(/_/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function sentence(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** What a field shows beside it. */
export function fieldMessage(reason: string): string {
  return sentence(humanReason(reason));
}

/**
 * The message of an error answer for a banner or a toast: its field errors in words when it has
 * any; the server's message otherwise, unless it shows an API path (a route the server does not
 * have), which says nothing to an agent.
 */
export function errorMessage(status: number, message: string, errors: readonly FieldError[]): string {
  if (errors.length > 0) return errors.map((error) => `${fieldLabel(error.field)}: ${humanReason(error.reason)}`).join('; ');
  if (/\/api\/v\d|^Route \w+:/.test(message)) return status === 404 ? t('errors.notFound') : t('errors.status', { status });
  return message;
}
