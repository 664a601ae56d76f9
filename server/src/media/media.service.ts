// The rules of uploaded files: storing them, signing their URLs, attaching them to
// messages, and removing uploads nobody attached.
import { createHmac, hkdfSync, randomUUID, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Config } from '../config.ts';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { InputError, NotFoundError, PermissionError } from '../errors.ts';
import type { AttachmentRecord } from './media.schema.ts';
import * as q from './media.queries.ts';
import { newStorageKey, type StoredObject, storageFor } from './media.storage.ts';
import type { SpooledFile } from './media.upload.ts';

/** At most this many attachments per message (and files per upload request). */
export const MAX_ATTACHMENTS = 20;
const MAX_FILENAME = 255;

// ---------------------------------------------------------------------------
// File names and types

// C0 and C1 controls, and the bidirectional overrides that make "evil‮gpj.exe" read as "evilexe.jpg".
function isUnsafeCodePoint(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x200e || code === 0x200f || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
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
  if (head.length >= 12 && head.subarray(0, 4).toString('latin1') === 'RIFF' && head.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  return null;
}

const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/**
 * The type recorded for a file: what its bytes are when they are a safe raster image,
 * else the client's declared type (parameters dropped), else application/octet-stream.
 * Serving never relies on it: see downloadHeaders.
 */
function recordedType(declared: string, sniffed: InlineType | null): string {
  if (sniffed) return sniffed;
  const type = (declared.split(';')[0] ?? '').trim().toLowerCase();
  return MEDIA_TYPE.test(type) ? type : 'application/octet-stream';
}

// ---------------------------------------------------------------------------
// Signed URLs

const signingKeys = new WeakMap<Config, Buffer>();

/** A key of its own for media URLs, derived from SECRET_KEY, so a signature is useless anywhere else. */
function signingKey(config: Config): Buffer {
  let key = signingKeys.get(config);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', config.secretKey, Buffer.alloc(0), 'parley media url signature v1', 32));
    signingKeys.set(config, key);
  }
  return key;
}

function signature(config: Config, uuid: string, exp: number): Buffer {
  return createHmac('sha256', signingKey(config)).update(`${uuid.toLowerCase()}:${exp}`).digest();
}

/** An absolute URL that serves the file without credentials until it expires (default MEDIA_URL_TTL_SECONDS, 1 hour). */
export function signedMediaUrl(deps: AppDeps, uuid: string, ttlSeconds?: number): string {
  const ttl = Math.max(1, Math.floor(ttlSeconds ?? deps.config.mediaUrlTtlSeconds));
  const exp = Math.floor(deps.clock.now().getTime() / 1000) + ttl;
  const sig = signature(deps.config, uuid, exp).toString('base64url');
  return `${deps.config.baseUrl}/api/v1/media/${uuid.toLowerCase()}?exp=${exp}&sig=${sig}`;
}

/** Checks a URL's signature and expiry; returns the seconds it has left. Any fault is the same 403. */
export function verifyMediaSignature(deps: AppDeps, uuid: string, exp: string | undefined, sig: string | undefined): number {
  const refused = new PermissionError('Invalid or expired media link');
  if (!exp || !sig || !/^\d{1,12}$/.test(exp) || !/^[A-Za-z0-9_-]{43}$/.test(sig)) throw refused;
  const expiry = Number(exp);
  const given = Buffer.from(sig, 'base64url');
  const expected = signature(deps.config, uuid, expiry);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw refused;
  const remaining = expiry - Math.floor(deps.clock.now().getTime() / 1000);
  if (remaining <= 0) throw refused;
  return remaining;
}

// ---------------------------------------------------------------------------
// Records

/** Attachment rows (from attachmentsColumn) as clients see them, with fresh signed URLs. */
export function toAttachments(deps: AppDeps, rows: readonly q.AttachmentRow[]): AttachmentRecord[] {
  return rows.map((row) => toAttachment(deps, row));
}

function toAttachment(deps: AppDeps, row: q.AttachmentRow): AttachmentRecord {
  return {
    uuid: row.uuid,
    name: row.filename,
    content_type: row.content_type,
    size: row.size,
    disposition: row.disposition,
    // The media table keeps no Content-ID (email inline parts would need one).
    content_id: null,
    url: signedMediaUrl(deps, row.uuid),
  };
}

function prepare(deps: AppDeps, input: { filename: string; declaredType: string; size: number; head: Buffer; uploaderId: number | null; messageId: number | null }) {
  const sniffed = sniffImage(input.head);
  const now = deps.clock.now();
  return {
    uuid: randomUUID(),
    filename: sanitiseFilename(input.filename),
    content_type: recordedType(input.declaredType, sniffed),
    size: input.size,
    storage_key: newStorageKey(now),
    disposition: sniffed ? 'inline' : 'attachment',
    uploaded_by: input.uploaderId,
    message_id: input.messageId,
    created_at: now,
  } satisfies q.NewMediaRow;
}

/** Removes objects whose rows could not be written; a failure here only leaves garbage behind. */
async function discardObjects(deps: AppDeps, keys: string[]): Promise<void> {
  const storage = storageFor(deps.config, deps.log);
  for (const key of keys) {
    try {
      await storage.delete(key);
    } catch (error) {
      deps.log.warn({ err: error, key }, 'could not remove a stored object after a failed upload');
    }
  }
}

/**
 * Stores one file given in memory (widget and email channels) and records it with `db`
 * (the caller's transaction). Unattached unless messageId is given. An empty file is a 400;
 * the caller enforces its own size limit. Should the caller's transaction roll back, the
 * object stays in storage without a row.
 */
export async function storeMedia(
  deps: AppDeps,
  db: DB,
  input: { filename: string; contentType: string; data: Buffer; uploaderId: number | null; messageId?: number | null },
): Promise<AttachmentRecord> {
  if (input.data.length === 0) throw InputError.field('files', `${JSON.stringify(input.filename.slice(0, 100))} is empty`);
  if (input.data.length > 2_147_483_647) throw new InputError('files: the file is too large', [{ field: 'files', reason: 'too large' }], 413);
  const row = prepare(deps, {
    filename: input.filename,
    declaredType: input.contentType,
    size: input.data.length,
    head: input.data.subarray(0, 16),
    uploaderId: input.uploaderId,
    messageId: input.messageId ?? null,
  });
  await storageFor(deps.config, deps.log).put(row.storage_key, input.data, row.content_type);
  try {
    const [stored] = await q.insertMedia(db, [row]);
    if (!stored) throw new Error('media insert returned no row');
    return toAttachment(deps, stored);
  } catch (error) {
    await discardObjects(deps, [row.storage_key]);
    throw error;
  }
}

/** Stores files received by withReceivedFiles, as unattached uploads of uploaderId. All or nothing. */
export async function storeUploads(deps: AppDeps, files: SpooledFile[], uploaderId: number | null): Promise<AttachmentRecord[]> {
  if (files.length === 0) throw InputError.field('files', 'at least one file part named "files" is required');
  if (files.length > MAX_ATTACHMENTS) throw InputError.field('files', `at most ${MAX_ATTACHMENTS} files per request`);
  const storage = storageFor(deps.config, deps.log);
  const rows = files.map((file) => prepare(deps, { ...file, uploaderId, messageId: null }));
  const stored: string[] = [];
  try {
    for (const [i, file] of files.entries()) {
      const row = rows[i]!;
      await storage.put(row.storage_key, createReadStream(file.path), row.content_type, file.size);
      stored.push(row.storage_key);
    }
    // One statement: every row or none.
    const inserted = await q.insertMedia(deps.db, rows);
    return inserted.map((row) => toAttachment(deps, row));
  } catch (error) {
    await discardObjects(deps, stored);
    throw error;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Attaches uploads to a message, inside the caller's transaction `db`. Every uuid must name
 * an unattached upload of uploaderId; at most MAX_ATTACHMENTS, no duplicates. The rows are
 * locked, so two messages cannot claim one upload. Any fault is a 400 naming the uuid.
 */
export async function attachMediaToMessage(_deps: AppDeps, db: DB, input: { mediaUuids: string[]; uploaderId: number; messageId: number }): Promise<void> {
  if (input.mediaUuids.length === 0) return;
  if (input.mediaUuids.length > MAX_ATTACHMENTS) throw InputError.field('attachments', `at most ${MAX_ATTACHMENTS} attachments per message`);
  const seen = new Set<string>();
  for (const raw of input.mediaUuids) {
    const uuid = String(raw).toLowerCase();
    if (!UUID.test(uuid)) throw InputError.field('attachments', `${JSON.stringify(String(raw).slice(0, 64))} is not a media uuid`);
    if (seen.has(uuid)) throw InputError.field('attachments', `${uuid} is listed twice`);
    seen.add(uuid);
  }
  const rows = await q.lockMediaByUuids(db, [...seen]);
  const byUuid = new Map(rows.map((row) => [row.uuid, row]));
  for (const uuid of seen) {
    const row = byUuid.get(uuid);
    // Someone else's upload is answered like an unknown one: uuids are not a way to probe.
    if (!row || row.uploaded_by !== input.uploaderId) throw InputError.field('attachments', `${uuid} is not one of your uploads`);
    if (row.message_id !== null) throw InputError.field('attachments', `${uuid} is already attached to a message`);
  }
  await q.setMediaMessage(
    db,
    rows.map((row) => row.id),
    input.messageId,
  );
}

/** The attachments of each message (every given id is a key), in upload order, with fresh signed URLs. One query. */
export async function attachmentsByMessage(deps: AppDeps, db: DB, messageIds: number[]): Promise<Map<number, AttachmentRecord[]>> {
  const result = new Map<number, AttachmentRecord[]>();
  for (const id of messageIds) result.set(id, []);
  if (result.size === 0) return result;
  for (const row of await q.mediaOfMessages(db, [...result.keys()])) {
    if (row.message_id !== null) result.get(row.message_id)?.push(toAttachment(deps, row));
  }
  return result;
}

// ---------------------------------------------------------------------------
// Download

export interface Download {
  object: StoredObject;
  headers: Record<string, string>;
}

/** RFC 6266: an ASCII fallback and the exact name in RFC 8187 encoding. */
function contentDisposition(type: 'attachment' | 'inline', filename: string): string {
  const fallback = Array.from(filename, (char) => (/^[\x20-\x7e]$/.test(char) && char !== '"' && char !== '\\' ? char : '_')).join('');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * The file behind a signed URL, with the headers that make serving it safe: only a sniffed
 * raster image is shown inline (as that image type); everything else is an attachment served
 * as application/octet-stream, whatever the uploader claimed.
 */
export async function openDownload(deps: AppDeps, uuid: string, exp: string | undefined, sig: string | undefined): Promise<Download> {
  const canonical = uuid.toLowerCase();
  const remaining = verifyMediaSignature(deps, canonical, exp, sig);
  const row = await q.findMediaByUuid(deps.db, canonical);
  if (!row) throw new NotFoundError('Media not found');
  const object = await storageFor(deps.config, deps.log).get(row.storage_key);
  if (!object) {
    deps.log.error({ media: row.uuid, key: row.storage_key }, 'media row without a stored object');
    throw new NotFoundError('Media not found');
  }
  const inline = row.disposition === 'inline' && (SAFE_INLINE_TYPES as readonly string[]).includes(row.content_type);
  return {
    object,
    headers: {
      'content-type': inline ? row.content_type : 'application/octet-stream',
      'content-length': String(object.size),
      'content-disposition': contentDisposition(inline ? 'inline' : 'attachment', row.filename),
      'x-content-type-options': 'nosniff',
      'content-security-policy': 'sandbox',
      'cache-control': `private, max-age=${remaining}`,
    },
  };
}

// ---------------------------------------------------------------------------
// Cleanup

const PURGE_BATCH = 500;

/** Where upload requests spool their files while they are checked. */
export function uploadTmpDir(config: Config): string {
  return join(config.dataDir, 'tmp');
}

/** Spool folders a crashed process left behind (a finished request always removes its own). */
async function removeStaleSpools(deps: AppDeps, olderThan: Date): Promise<void> {
  const dir = uploadTmpDir(deps.config);
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch {
    return;
  }
  for (const entry of entries.filter((name) => name.startsWith('upload-'))) {
    try {
      if ((await stat(join(dir, entry))).mtime < olderThan) await rm(join(dir, entry), { recursive: true, force: true });
    } catch (error) {
      deps.log.warn({ err: error, entry }, 'could not remove a stale upload spool folder');
    }
  }
}

/**
 * Deletes uploads never attached to a message and created before olderThan: their rows,
 * then their stored objects; also spool folders older than that left by a crash. Returns
 * how many uploads were removed. A stored object that cannot be deleted is logged and left
 * behind (its row is gone, so nothing points at it).
 */
export async function purgeOrphanMedia(deps: AppDeps, olderThan: Date): Promise<number> {
  const storage = storageFor(deps.config, deps.log);
  let removed = 0;
  while (true) {
    const keys = await q.deleteOrphans(deps.db, olderThan, PURGE_BATCH);
    for (const key of keys) {
      try {
        await storage.delete(key);
      } catch (error) {
        deps.log.warn({ err: error, key }, 'could not remove the stored object of a purged upload');
      }
    }
    removed += keys.length;
    if (keys.length < PURGE_BATCH) break;
  }
  await removeStaleSpools(deps, olderThan);
  return removed;
}
