// Text the database cannot store faithfully is refused at the edge, wherever it comes in:
// PostgreSQL refuses U+0000 in text (22021) and in jsonb (22P05), and silently replaces an
// unpaired surrogate with U+FFFD. Both are a 400 that names the field (docs/api.md, Input rules).
import type { FastifyRequest } from 'fastify';
import { InputError } from '../errors.ts';

/** Why a string cannot be stored as it is, or null when it can. */
export function textProblem(value: string): string | null {
  if (value.includes('\u0000')) return 'must not contain the NUL character (U+0000)';
  if (!value.isWellFormed()) return 'must be valid Unicode text (it contains an unpaired surrogate)';
  return null;
}

/** A property name as a field name: NUL and unpaired surrogates written as JSON escapes. */
function printable(key: string): string {
  return JSON.stringify(key).slice(1, -1);
}

/**
 * The first string in a parsed JSON value (a value or a property name, at any depth) that
 * cannot be stored, with its field path (`config.imap.host`, `tags.0`). Iterative: the depth
 * of the value is bounded by the parser, but a wide one must not cost stack either.
 */
export function findUnstorableText(root: unknown): { field: string; reason: string } | null {
  const stack: Array<{ value: unknown; path: string }> = [{ value: root, path: '' }];
  const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);
  while (stack.length > 0) {
    const { value, path } = stack.pop() as { value: unknown; path: string };
    if (typeof value === 'string') {
      const reason = textProblem(value);
      if (reason) return { field: path, reason };
    } else if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i], path: join(path, String(i)) });
    } else if (typeof value === 'object' && value !== null) {
      const keys = Object.keys(value);
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        const reason = textProblem(key);
        if (reason) return { field: join(path, printable(key)), reason: `has a property name that ${reason}` };
        stack.push({ value: (value as Record<string, unknown>)[key], path: join(path, key) });
      }
    }
  }
  return null;
}

/** The 400 for unstorable text in one part of the request (`body`, `querystring`, `params`, `headers`). */
export function unstorableTextError(part: string, found: { field: string; reason: string }): InputError {
  const field = found.field || part;
  return new InputError(`Invalid ${part}: ${field} ${found.reason}`, [{ field, reason: found.reason }]);
}

/**
 * onRequest hook: path params, query string and headers carrying unstorable text are refused
 * before anything (authentication included) hands them to the database. Bodies are checked by
 * the JSON parser.
 */
export async function refuseUnstorableText(request: FastifyRequest): Promise<void> {
  if (!request.is404) {
    const found = findUnstorableText(request.params);
    if (found) throw unstorableTextError('params', found);
  }
  // Only percent-decoding can put NUL into the query string: the HTTP parser refuses raw control bytes.
  const queryStart = request.url.indexOf('?');
  const query = queryStart >= 0 ? request.url.slice(queryStart) : '';
  if (query.includes('%') || query.includes('\u0000')) {
    const found = findUnstorableText(request.query);
    if (found) throw unstorableTextError('querystring', found);
  }
  const headers = request.headers;
  for (const name in headers) {
    const value = headers[name];
    const values = Array.isArray(value) ? value : [value];
    for (const one of values) {
      if (typeof one !== 'string') continue;
      const reason = textProblem(one);
      if (reason) throw unstorableTextError('headers', { field: name, reason });
    }
  }
}
