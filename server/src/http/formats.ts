// The string formats our schemas name, each checked by one function that every validator
// uses: the edge's AJV instances, the services' own (inbox config) and plain code.
import { domainToASCII } from 'node:url';
import type { Ajv } from 'ajv';

/** Control, format, unassigned, private-use and surrogate code points, and every kind of space. */
const UNPRINTABLE = /[\p{C}\p{Z}\s]/u;
/** An atom of a dot-atom local part: RFC 5322 atext, plus any non-ASCII character (RFC 6532). */
const LOCAL_ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~\u0080-\u{10FFFF}-]+$/u;
/** Characters that cannot appear in a domain as written (IP literals, percent-encoding, URL syntax). */
const NOT_IN_DOMAIN = /[%@[\]\\/:?#]/;
const ASCII_LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
const HTTP_URL_START = /^https?:\/\//i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const MAX_EMAIL_LENGTH = 254;
export const MAX_URL_LENGTH = 2048;

/** A host name, possibly international (IDNA): letters, digits and hyphens once in ASCII form; the top-level label is not all digits. */
export function isDomainName(domain: string): boolean {
  if (domain === '' || UNPRINTABLE.test(domain) || NOT_IN_DOMAIN.test(domain)) return false;
  const ascii = domainToASCII(domain);
  if (ascii === '' || ascii.length > 253) return false;
  const labels = ascii.split('.');
  return labels.every((label) => ASCII_LABEL.test(label)) && !/^[0-9]+$/.test(labels[labels.length - 1] as string);
}

/**
 * An email address as people and mail servers use it (RFC 5321/5322 dot-atom, with the
 * international extensions of RFC 6531/6532): `zoë@exämple.com` is one. No quoted local
 * parts, comments, IP-literal domains, or surrounding whitespace.
 */
export function isEmailAddress(value: string): boolean {
  if (value.length > MAX_EMAIL_LENGTH || UNPRINTABLE.test(value)) return false;
  const at = value.lastIndexOf('@');
  if (at < 1) return false;
  const local = value.slice(0, at);
  if (Buffer.byteLength(local) > 64 || !local.split('.').every((atom) => LOCAL_ATOM.test(atom))) return false;
  return isDomainName(value.slice(at + 1));
}

/** An absolute http(s) URL with a host and no credentials, written without spaces or control characters. */
export function isHttpUrl(value: string): boolean {
  if (value.length > MAX_URL_LENGTH || !HTTP_URL_START.test(value) || UNPRINTABLE.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && url.username === '' && url.password === '';
}

/**
 * Registers our formats on an AJV instance, replacing ajv-formats' `email` (ASCII only) and
 * `uuid` (which also admits a `urn:uuid:` prefix that PostgreSQL refuses).
 * `trimmed-email` is an email address that may carry the surrounding whitespace its service trims.
 */
export function registerFormats(ajv: Ajv): Ajv {
  ajv.addFormat('email', isEmailAddress);
  ajv.addFormat('trimmed-email', (value: string) => isEmailAddress(value.trim()));
  ajv.addFormat('http-url', isHttpUrl);
  ajv.addFormat('uuid', UUID);
  return ajv;
}

const NAMED_ADDRESS = /^\s*([^<>]*?)\s*<\s*([^<>\s]+)\s*>\s*$/;

/**
 * A mail address as people write it, `Support <support@example.com>` or `support@example.com`,
 * split into its display name ('' when none; surrounding double quotes dropped) and address.
 * The address is not checked: isEmailAddress does that.
 */
export function splitNamedAddress(value: string): { name: string; address: string } {
  const named = NAMED_ADDRESS.exec(value);
  if (!named) return { name: '', address: value.trim() };
  return { name: (named[1] ?? '').replace(/^"(.*)"$/, '$1'), address: (named[2] as string).trim() };
}
