// The rules of a webhook's fields that a JSON schema cannot say (docs/api.md, "Webhooks"):
// each failure is a 400 naming the field, before anything is stored.
import { InputError } from '../errors.ts';
import { SECRET_MASK } from '../security/encryption.ts';
import { WEBHOOK_HEADER_NAME_MAX, WEBHOOK_HEADER_VALUE_MAX, WEBHOOK_HEADERS_MAX, WEBHOOK_NAME_MAX } from './webhooks.schema.ts';
import { WEBHOOK_EVENTS, type WebhookEvent } from './webhooks.events.ts';

/** Trimmed, then 1..100 characters (code points, as PostgreSQL's char_length counts them). */
export function cleanName(raw: string): string {
  const name = raw.trim();
  if (name.length === 0) throw InputError.field('name', 'must not be empty');
  if ([...name].length > WEBHOOK_NAME_MAX) throw InputError.field('name', `must be at most ${WEBHOOK_NAME_MAX} characters`);
  return name;
}

/** A name of the catalogue (webhooks.events.ts), `webhook.test` included: a webhook may list every event. */
export function isSubscribable(name: string): name is WebhookEvent {
  return (WEBHOOK_EVENTS as readonly string[]).includes(name);
}

/** At least one event of the catalogue, each once, in the order given. */
export function cleanEvents(raw: readonly string[]): WebhookEvent[] {
  if (raw.length === 0) throw InputError.field('events', 'must name at least one event');
  const seen = new Set<string>();
  return raw.map((name, i) => {
    const field = `events.${i}`;
    if (!isSubscribable(name)) throw InputError.field(field, `unknown event "${name}"; known events: ${WEBHOOK_EVENTS.join(', ')}`);
    if (seen.has(name)) throw InputError.field(field, `"${name}" is listed twice`);
    seen.add(name);
    return name;
  });
}

/** An RFC 7230 token: the characters a header name may have. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Printable ASCII and space: no CR, LF or other control character (they would split or smuggle headers). */
const VALUE = /^[\x20-\x7E]*$/;
/**
 * Headers Parley sets itself or that change how the request is framed or routed: the body's
 * type and length, the connection, the signature headers. Compared in lower case.
 */
const RESERVED = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'host',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'user-agent',
]);
const RESERVED_PREFIXES = ['webhook-', 'proxy-'];

function reservedHeader(lower: string): boolean {
  return RESERVED.has(lower) || RESERVED_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/** The extra headers, with names checked and values trimmed; names are unique case-insensitively. */
export function cleanHeaders(raw: Readonly<Record<string, string>>): Record<string, string> {
  const entries = Object.entries(raw);
  if (entries.length > WEBHOOK_HEADERS_MAX) throw InputError.field('headers', `must have at most ${WEBHOOK_HEADERS_MAX} entries`);
  const seen = new Set<string>();
  const clean: Record<string, string> = {};
  for (const [name, value] of entries) {
    const field = `headers.${name}`;
    if (name.length === 0 || name.length > WEBHOOK_HEADER_NAME_MAX || !TOKEN.test(name)) {
      throw InputError.field(
        field,
        `is not a valid header name (letters, digits and !#$%&'*+.^_\`|~-, at most ${WEBHOOK_HEADER_NAME_MAX} characters)`,
      );
    }
    const lower = name.toLowerCase();
    if (reservedHeader(lower)) throw InputError.field(field, 'is set by Parley and cannot be overridden');
    if (seen.has(lower)) throw InputError.field(field, 'is given twice (header names are case-insensitive)');
    seen.add(lower);
    if (value === SECRET_MASK) throw InputError.field(field, 'is the mask of a stored value: send the value itself');
    if (value.length > WEBHOOK_HEADER_VALUE_MAX || !VALUE.test(value)) {
      throw InputError.field(
        field,
        `must be at most ${WEBHOOK_HEADER_VALUE_MAX} characters of printable ASCII (no line breaks or control characters)`,
      );
    }
    clean[name] = value.trim();
  }
  return clean;
}

/** Header names whose values are credentials: answers show them masked. */
const SENSITIVE = /auth|cookie|token|secret|passw|key|signature|credential|session/i;

export function isSensitiveHeader(name: string): boolean {
  return SENSITIVE.test(name);
}

export function maskHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, isSensitiveHeader(name) ? SECRET_MASK : value]));
}

/**
 * On update, a sensitive header sent back as the mask keeps its stored value, but only while
 * the url stays the same: a kept credential is never sent to an address it was not given for.
 */
export function restoreMaskedHeaders(
  given: Readonly<Record<string, string>>,
  stored: Readonly<Record<string, string>>,
  urlChanged: boolean,
): Record<string, string> {
  const storedByName = new Map(Object.entries(stored).map(([name, value]) => [name.toLowerCase(), value]));
  return Object.fromEntries(
    Object.entries(given).map(([name, value]) => {
      if (value !== SECRET_MASK) return [name, value];
      const kept = isSensitiveHeader(name) ? storedByName.get(name.toLowerCase()) : undefined;
      const field = `headers.${name}`;
      if (kept === undefined) throw InputError.field(field, 'is the mask, but no value is stored for it: send the value itself');
      if (urlChanged)
        throw InputError.field(field, 'must be sent again when the url changes: a kept value only goes to the url it was given for');
      return [name, kept];
    }),
  );
}
