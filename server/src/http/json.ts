// The JSON body parser. Before parsing, one pass over the raw text (outside strings) bounds the
// nesting depth and notices what needs a closer look: escapes that may hide NUL or unpaired
// surrogates, and numbers not written as plain integers. Those are rare, so the common body
// costs one linear scan more than JSON.parse.
import type { FastifyInstance } from 'fastify';
import { InputError } from '../errors.ts';
import { findUnstorableText, unstorableTextError } from './text.ts';

/** Objects and arrays nested deeper than this are refused (400) before they are parsed. */
export const MAX_JSON_DEPTH = 32;

/** A plain decimal integer: no sign on zero, no leading zeros, no fraction, no exponent. */
export const CANONICAL_INTEGER = /^(0|-?[1-9][0-9]*)$/;

/**
 * Integral numbers of a parsed body that were written otherwise (`3.0`, `1e2`) or are not
 * safe integers, remembered by the object or array holding them. The body validator refuses
 * them where its schema wants an integer; elsewhere (`Type.Number`, free-form attributes) they
 * are ordinary numbers.
 */
export class NumberMarks {
  readonly #holders = new WeakMap<object, Map<string, string>>();

  mark(holder: object, key: string, reason: string): void {
    let keys = this.#holders.get(holder);
    if (!keys) {
      keys = new Map();
      this.#holders.set(holder, keys);
    }
    keys.set(key, reason);
  }

  /** Why the integer at `holder[key]` is refused, or undefined when it was written plainly. */
  reason(holder: unknown, key: string | number | undefined): string | undefined {
    if (typeof holder !== 'object' || holder === null || key === undefined) return undefined;
    return this.#holders.get(holder)?.get(String(key));
  }
}

interface Scan {
  tooDeep: boolean;
  /** A `\u0000` or surrogate escape inside a string. */
  suspectText: boolean;
  /** A number with a fraction, an exponent, `-0`, or too many digits to be sure it is a safe integer. */
  suspectNumbers: boolean;
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
// Characters that can continue a JSON number token: digits . e E + -
const isNumberPart = (c: number) => isDigit(c) || c === 0x2e || c === 0x65 || c === 0x45 || c === 0x2b || c === 0x2d;

/** One iterative pass over the raw text; malformed JSON is left for JSON.parse to refuse. */
export function scanJson(text: string, maxDepth: number): Scan {
  const scan: Scan = { tooDeep: false, suspectText: false, suspectNumbers: false };
  let depth = 0;
  const n = text.length;
  // Strings are skipped with indexOf: the next quote, unless an escape comes first.
  let backslash = text.indexOf('\\');
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (;;) {
        const quote = text.indexOf('"', i + 1);
        if (quote < 0) return scan; // unterminated: JSON.parse refuses it
        if (backslash >= 0 && backslash <= i) backslash = text.indexOf('\\', i + 1);
        if (backslash < 0 || backslash > quote) {
          i = quote;
          break;
        }
        i = backslash + 1; // the escaped character
        if (text.charCodeAt(i) === 0x75) {
          const code = Number.parseInt(text.slice(i + 1, i + 5), 16);
          if (code === 0 || (code >= 0xd800 && code <= 0xdfff)) scan.suspectText = true;
          i += 4;
        }
      }
    } else if (c === 0x7b || c === 0x5b) {
      depth += 1;
      if (depth > maxDepth) {
        scan.tooDeep = true;
        return scan;
      }
    } else if (c === 0x7d || c === 0x5d) {
      depth -= 1;
    } else if (c === 0x2d || isDigit(c)) {
      const start = i;
      while (i + 1 < n && isNumberPart(text.charCodeAt(i + 1))) i++;
      if (!scan.suspectNumbers) {
        const token = text.slice(start, i + 1);
        scan.suspectNumbers = token.length > 15 || !CANONICAL_INTEGER.test(token);
      }
    }
  }
  return scan;
}

/** Parses again with a reviver that sees each number's source text (Node 24), marking the integers not written plainly. */
function parseMarkingNumbers(text: string, marks: NumberMarks): unknown {
  return JSON.parse(text, function (this: object, key: string, value: unknown, context?: { source?: string }) {
    if (typeof value === 'number' && Number.isInteger(value) && context?.source !== undefined) {
      if (!Number.isSafeInteger(value)) marks.mark(this, key, 'is out of range (not a safe integer)');
      else if (!CANONICAL_INTEGER.test(context.source))
        marks.mark(this, key, 'must be an integer written in plain decimal digits (no fraction or exponent)');
    }
    return value;
  });
}

/**
 * Replaces Fastify's JSON parser. Fastify's own parse still runs first, so its protection
 * against `__proto__` keys (refused) stays as it was.
 */
export function registerJsonParser(app: FastifyInstance, marks: NumberMarks): void {
  const secureParse = app.getDefaultJsonParser('error', 'ignore');
  // JSON only: a text/plain body (a "simple" cross-site request) is a 415, like any other type.
  app.removeContentTypeParser('text/plain');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    // An empty body sent as application/json means "no body" (some clients send it on body-less POSTs).
    if (text.trim() === '') return done(null, undefined);
    const scan = scanJson(text, MAX_JSON_DEPTH);
    if (scan.tooDeep)
      return done(new InputError(`Request body is nested too deeply: at most ${MAX_JSON_DEPTH} levels of objects and arrays`));
    return secureParse(request, text, (error, parsed) => {
      if (error) return done(error);
      const value = scan.suspectNumbers ? parseMarkingNumbers(text, marks) : parsed;
      const found = scan.suspectText ? findUnstorableText(value) : null;
      if (found) return done(unstorableTextError('body', found));
      return done(null, value);
    });
  });
}
