// The rules of uploaded files: storing them, attaching them to messages, serving them
// through signed URLs, and removing uploads nobody attached. File names and types are
// in media.files.ts, the URL signatures in media.signing.ts.
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import { InputError, NotFoundError } from '../errors.ts';
import { contentDisposition, isSafeInlineType, recordedType, sanitiseFilename, sniffImage } from './media.files.ts';
import type { AttachmentRecord } from './media.schema.ts';
import * as q from './media.queries.ts';
import { signedMediaUrl, verifyMediaSignature } from './media.signing.ts';
import { newStorageKey, type StoredObject } from './media.storage.ts';
import { type SpooledFile, uploadTmpDir } from './media.upload.ts';

/** At most this many attachments per message (and files per upload request). */
export const MAX_ATTACHMENTS = 20;

// ---------------------------------------------------------------------------
// Records

/** Attachment rows (from attachmentsColumn) as clients see them, with fresh signed URLs. */
export function toAttachments(deps: AppDeps, rows: readonly q.AttachmentRow[]): AttachmentRecord[] {
  return rows.map((row) => toAttachment(deps, row));
}

/**
 * A message's HTML with its `cid:` images (inline parts of an email) pointing at the signed URLs
 * of the attachments with that Content-ID; other `cid:` links are left as they are. The stored
 * HTML keeps `cid:` (signed URLs expire): this runs on every read.
 */
export function withInlineImages(html: string, attachments: readonly AttachmentRecord[]): string {
  const byContentId = new Map<string, string>();
  for (const attachment of attachments) if (attachment.content_id) byContentId.set(attachment.content_id, attachment.url);
  if (byContentId.size === 0) return html;
  return html.replace(/(<img\b[^>]*?\bsrc=")cid:([^"]+)"/gi, (whole, start: string, cid: string) => {
    const url = byContentId.get(cid.replace(/&amp;/g, '&'));
    return url === undefined ? whole : `${start}${url.replace(/&/g, '&amp;')}"`;
  });
}

function toAttachment(deps: AppDeps, row: q.AttachmentRow): AttachmentRecord {
  return {
    uuid: row.uuid,
    name: row.filename,
    content_type: row.content_type,
    size: row.size,
    disposition: row.disposition,
    content_id: row.content_id ?? null,
    url: signedMediaUrl(deps, row.uuid),
  };
}

function prepare(
  deps: AppDeps,
  input: {
    filename: string;
    declaredType: string;
    size: number;
    head: Buffer;
    uploaderId: number | null;
    messageId: number | null;
    contentId?: string | null;
  },
) {
  const sniffed = sniffImage(input.head);
  const now = deps.clock.now();
  return {
    uuid: randomUUID(),
    filename: sanitiseFilename(input.filename),
    content_type: recordedType(input.declaredType, sniffed),
    size: input.size,
    storage_key: newStorageKey(now),
    disposition: sniffed ? 'inline' : 'attachment',
    content_id: input.contentId ?? null,
    uploaded_by: input.uploaderId,
    message_id: input.messageId,
    created_at: now,
  } satisfies q.NewMediaRow;
}

/** Removes objects whose rows could not be written; a failure here only leaves garbage behind. */
async function discardObjects(deps: AppDeps, keys: string[]): Promise<void> {
  for (const key of keys) {
    try {
      await deps.storage.delete(key);
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
  input: {
    filename: string;
    contentType: string;
    data: Buffer;
    uploaderId: number | null;
    messageId?: number | null;
    /** An inline part's Content-ID (email), which the message's HTML names in `cid:` links. */
    contentId?: string | null;
  },
): Promise<AttachmentRecord> {
  if (input.data.length === 0) throw InputError.field('files', `${JSON.stringify(input.filename.slice(0, 100))} is empty`);
  if (input.data.length > 2_147_483_647)
    throw new InputError('files: the file is too large', [{ field: 'files', reason: 'too large' }], 413);
  const row = prepare(deps, {
    filename: input.filename,
    declaredType: input.contentType,
    size: input.data.length,
    head: input.data.subarray(0, 16),
    uploaderId: input.uploaderId,
    messageId: input.messageId ?? null,
    contentId: input.contentId ?? null,
  });
  await deps.storage.put(row.storage_key, input.data, row.content_type);
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
  const rows = files.map((file) => prepare(deps, { ...file, uploaderId, messageId: null }));
  const stored: string[] = [];
  try {
    for (const [i, file] of files.entries()) {
      const row = rows[i]!;
      await deps.storage.put(row.storage_key, createReadStream(file.path), row.content_type, file.size);
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
 * an unattached upload of uploaderId (null: files a channel stored, such as a mail's
 * attachments); at most MAX_ATTACHMENTS, no duplicates. The rows are
 * locked, so two messages cannot claim one upload. Any fault is a 400 naming the uuid.
 */
export async function attachMediaToMessage(
  _deps: AppDeps,
  db: DB,
  input: { mediaUuids: string[]; uploaderId: number | null; messageId: number },
): Promise<void> {
  if (input.mediaUuids.length === 0) return;
  const seen = checkedMediaUuids(input.mediaUuids);
  const rows = await q.lockMediaByUuids(db, seen);
  assertOwnUnattached(rows, seen, input.uploaderId);
  await q.setMediaMessage(
    db,
    rows.map((row) => row.id),
    input.messageId,
  );
}

/**
 * The rule of attachMediaToMessage without attaching (a draft's attachments): each uuid names an
 * upload of uploaderId not attached to a message yet, else 400 on `attachments`. Answers the
 * uuids in canonical (lower-case) form.
 */
export async function checkOwnUploads(db: DB, mediaUuids: readonly string[], uploaderId: number): Promise<string[]> {
  if (mediaUuids.length === 0) return [];
  const seen = checkedMediaUuids(mediaUuids);
  assertOwnUnattached(await q.mediaByUuids(db, seen), seen, uploaderId);
  return seen;
}

/** Which of these uuids still name an unattached upload of uploaderId (a draft's attachments, as they are now). */
export async function ownUnattachedUploads(db: DB, mediaUuids: readonly string[], uploaderId: number): Promise<Set<string>> {
  if (mediaUuids.length === 0) return new Set();
  const rows = await q.mediaByUuids(db, [...mediaUuids]);
  return new Set(rows.filter((row) => row.uploaded_by === uploaderId && row.message_id === null).map((row) => row.uuid));
}

function checkedMediaUuids(mediaUuids: readonly string[]): string[] {
  if (mediaUuids.length > MAX_ATTACHMENTS) throw InputError.field('attachments', `at most ${MAX_ATTACHMENTS} attachments per message`);
  const seen = new Set<string>();
  for (const raw of mediaUuids) {
    const uuid = String(raw).toLowerCase();
    if (!UUID.test(uuid)) throw InputError.field('attachments', `${JSON.stringify(String(raw).slice(0, 64))} is not a media uuid`);
    if (seen.has(uuid)) throw InputError.field('attachments', `${uuid} is listed twice`);
    seen.add(uuid);
  }
  return [...seen];
}

function assertOwnUnattached(
  rows: readonly { uuid: string; uploaded_by: number | null; message_id: number | null }[],
  uuids: readonly string[],
  uploaderId: number | null,
): void {
  const byUuid = new Map(rows.map((row) => [row.uuid, row]));
  for (const uuid of uuids) {
    const row = byUuid.get(uuid);
    // Someone else's upload is answered like an unknown one: uuids are not a way to probe.
    if (!row || row.uploaded_by !== uploaderId) throw InputError.field('attachments', `${uuid} is not one of your uploads`);
    if (row.message_id !== null) throw InputError.field('attachments', `${uuid} is already attached to a message`);
  }
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

export interface MessageFile {
  uuid: string;
  filename: string;
  contentType: string;
  disposition: 'attachment' | 'inline';
  /** The bytes, or null when storage has no object for the row. */
  content: Buffer | null;
}

/** A message's files with their bytes read from storage, in upload order (the email sender attaches them). */
export async function readMessageFiles(deps: AppDeps, messageId: number): Promise<MessageFile[]> {
  const files: MessageFile[] = [];
  for (const row of await q.filesOfMessage(deps.db, messageId)) {
    const object = await deps.storage.get(row.storage_key);
    const content = object ? Buffer.concat(await object.stream.toArray()) : null;
    files.push({ uuid: row.uuid, filename: row.filename, contentType: row.content_type, disposition: row.disposition, content });
  }
  return files;
}

// ---------------------------------------------------------------------------
// Download

export interface Download {
  object: StoredObject;
  headers: Record<string, string>;
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
  const object = await deps.storage.get(row.storage_key);
  if (!object) {
    deps.log.error({ media: row.uuid, key: row.storage_key }, 'media row without a stored object');
    throw new NotFoundError('Media not found');
  }
  const inline = row.disposition === 'inline' && isSafeInlineType(row.content_type);
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
  let removed = 0;
  while (true) {
    const keys = await q.deleteOrphans(deps.db, olderThan, PURGE_BATCH);
    for (const key of keys) {
      try {
        await deps.storage.delete(key);
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
