// What an uploaded file is called and what it really is: safe file names, the type
// recorded from the bytes, and the Content-Disposition it is served with.

const MAX_FILENAME = 255;

// C0 and C1 controls, and the bidirectional overrides that make "evil‮gpj.exe" read as "evilexe.jpg".
function isUnsafeCodePoint(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x200e ||
    code === 0x200f ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

/**
 * A file name safe to store and to put in a Content-Disposition header: the last
 * path segment only, no control characters, no leading dots, at most 255 characters
 * (keeping the extension), never empty.
 */
export function sanitiseFilename(raw: string): string {
  const lastSegment = raw.normalize('NFC').split(/[\\/]/).pop() ?? '';
  const visible = Array.from(lastSegment)
    .filter((char) => !isUnsafeCodePoint(char.codePointAt(0) ?? 0))
    .join('')
    .trim()
    .replace(/^\.+/, '')
    .trim();
  const chars = Array.from(visible || 'file');
  if (chars.length <= MAX_FILENAME) return chars.join('');
  const dot = chars.lastIndexOf('.');
  const extension = dot > 0 && chars.length - dot <= 16 ? chars.slice(dot) : [];
  return [...chars.slice(0, MAX_FILENAME - extension.length), ...extension].join('');
}

const SAFE_INLINE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
type InlineType = (typeof SAFE_INLINE_TYPES)[number];

/** The raster image type the bytes really are, from their signature, or null. */
export function sniffImage(head: Buffer): InlineType | null {
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'image/jpeg';
  if (head.length >= 6 && ['GIF87a', 'GIF89a'].includes(head.subarray(0, 6).toString('latin1'))) return 'image/gif';
  if (head.length >= 12 && head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP')
    return 'image/webp';
  return null;
}

/** Whether a stored type may be served inline (a raster image recognised by its bytes). */
export function isSafeInlineType(contentType: string): boolean {
  return (SAFE_INLINE_TYPES as readonly string[]).includes(contentType);
}

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/**
 * The type recorded for a file: what its bytes are when they are a safe raster image,
 * else the client's declared type (parameters dropped), else application/octet-stream.
 * Serving never relies on it: see openDownload.
 */
export function recordedType(declared: string, sniffed: InlineType | null): string {
  if (sniffed) return sniffed;
  const type = (declared.split(';')[0] ?? '').trim().toLowerCase();
  return MEDIA_TYPE.test(type) ? type : 'application/octet-stream';
}

/** RFC 6266: an ASCII fallback and the exact name in RFC 8187 encoding. */
export function contentDisposition(type: 'attachment' | 'inline', filename: string): string {
  const fallback = Array.from(filename, (char) => (/^[\x20-\x7e]$/.test(char) && char !== '"' && char !== '\\' ? char : '_')).join('');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
