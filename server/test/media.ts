// Shared by the media tests (server/src/media/media.*.test.ts): sample images, multipart bodies
// built by hand, the media rows and stored files, signed-URL paths, and the requests of a
// local-disk suite (upload, download, a refusal that must leave no trace).
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { DB } from '../src/db/database.ts';
import type { AttachmentRecord } from '../src/media/media.schema.ts';
import { createConversation } from './factories.ts';
import { assertError, type Caller, dataOf, type ErrorBody, type TestApp } from './helpers.ts';

export type Response = { statusCode: number; body: string; rawPayload: Buffer; headers: Record<string, unknown>; json: () => unknown };

export const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(64)]);
export const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(64)]);
export const GIF = Buffer.concat([Buffer.from('GIF89a', 'latin1'), randomBytes(32)]);
export const WEBP = Buffer.concat([
  Buffer.from('RIFF', 'latin1'),
  Buffer.from([0x10, 0, 0, 0]),
  Buffer.from('WEBPVP8 ', 'latin1'),
  randomBytes(32),
]);

export interface Part {
  name: string;
  filename?: string;
  type?: string;
  data: Buffer | string;
  /** Raw Content-Disposition parameters after the name, replacing filename. */
  disposition?: string;
}

/** A multipart/form-data body built by hand, as a browser would send it. */
export function multipart(parts: Part[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----ParleyTest${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const filename = part.disposition ?? (part.filename !== undefined ? `; filename="${part.filename}"` : '');
    const type = part.type ? `Content-Type: ${part.type}\r\n` : '';
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${filename}\r\n${type}\r\n`, 'utf8'));
    chunks.push(Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data, 'utf8'));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export function file(filename: string, data: Buffer | string, type = 'text/plain'): Part {
  return { name: 'files', filename, type, data };
}

/** An error envelope whose message names no internals (Fastify codes, stack frames) and matches pattern. */
export function fails(response: Response, status: number, errorType: string, pattern?: RegExp): ErrorBody {
  const body = assertError(response, status, errorType);
  assert.doesNotMatch(body.message, /FST_|stack|at .*\.ts/);
  if (pattern) assert.match(body.message, pattern);
  return body;
}

/** Every file under dir, relative to it. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

export async function mediaRows(db: DB) {
  return db
    .selectFrom('media')
    .select(['id', 'uuid', 'filename', 'content_type', 'size', 'storage_key', 'disposition', 'message_id', 'uploaded_by'])
    .orderBy('id')
    .execute();
}

export function uploadsDir(t: TestApp): string {
  const storage = t.deps.config.storage;
  assert.equal(storage.kind, 'local');
  return storage.kind === 'local' ? storage.dir : '';
}

/** The path and query of an absolute signed URL, for inject. */
export function pathOf(url: string): string {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

export function withQuery(url: string, change: (params: URLSearchParams) => void): string {
  const parsed = new URL(url);
  change(parsed.searchParams);
  return parsed.pathname + parsed.search;
}

/** A message to attach uploads to: a reply in a new conversation. */
export async function makeMessage(t: TestApp): Promise<number> {
  const conversation = await createConversation(t);
  const payload = { message: 'see attached' };
  return dataOf<{ id: number }>(await t.call({ method: 'POST', url: `/api/v1/conversations/${conversation.uuid}/messages`, payload })).id;
}

/** The requests of a local-disk media suite, against the app `app()` answers (the suite's, once its before has run). */
export function mediaCalls(app: () => TestApp) {
  const upload = (parts: Part[], as?: Caller | null) => {
    const body = multipart(parts);
    return app().call({
      method: 'POST',
      url: '/api/v1/media/upload',
      payload: body.payload,
      headers: body.headers,
      ...(as !== undefined ? { as } : {}),
    });
  };
  const uploaded = async (parts: Part[], as?: Caller | null) => dataOf<AttachmentRecord[]>(await upload(parts, as));
  const download = (url: string) => app().call({ method: 'GET', url: url.startsWith('http') ? pathOf(url) : url, as: null });

  /** Runs a refused request and checks it changed nothing: no row, no stored file, no temporary file. */
  async function refusedWithoutTrace(request: () => Promise<Response>, status: number, pattern?: RegExp): Promise<ErrorBody> {
    const t = app();
    const rowsBefore = await mediaRows(t.deps.db);
    const filesBefore = filesUnder(uploadsDir(t));
    const body = fails(await request(), status, 'InputException', pattern);
    assert.deepEqual(await mediaRows(t.deps.db), rowsBefore, 'no media row written');
    assert.deepEqual(filesUnder(uploadsDir(t)), filesBefore, 'no file stored');
    assert.deepEqual(filesUnder(join(t.deps.config.dataDir, 'tmp')), [], 'no temporary file left');
    return body;
  }
  return { upload, uploaded, download, refusedWithoutTrace };
}
