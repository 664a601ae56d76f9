// Receiving multipart uploads: every file part is spooled to a private temporary
// folder while its size is counted, so a request can be refused (empty, too large,
// too many files, malformed) before anything reaches the storage or the database.
// The folder is removed when the handler is done, whatever happened.
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Multipart } from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';
import { InputError } from '../errors.ts';

export interface SpooledFile {
  /** The client's file name, not yet sanitised. */
  filename: string;
  /** The client's part Content-Type, as given. */
  declaredType: string;
  size: number;
  /** Path of the temporary copy. */
  path: string;
  /** The first bytes, for sniffing the real type. */
  head: Buffer;
}

export interface ReceivedForm {
  files: SpooledFile[];
  /** Text fields (the first value of each name). */
  fields: Map<string, string>;
}

export interface ReceiveOptions {
  /** Folder under which the request's temporary folder is made. */
  tmpDir: string;
  maxFileBytes: number;
  maxFiles: number;
  /** The only field name accepted for file parts. */
  fileField: string;
}

const HEAD_BYTES = 16;
const MAX_FIELDS = 20;
const MAX_FIELD_BYTES = 64 * 1024;

/** Where upload requests spool their files while they are checked (a crash's leftovers are purged with orphan uploads). */
export function uploadTmpDir(config: Config): string {
  return join(config.dataDir, 'tmp');
}

export function isMultipartFormData(contentType: string | undefined): boolean {
  return typeof contentType === 'string' && /^multipart\/form-data\s*(;|$)/i.test(contentType.trim());
}

const MIB = 1024 * 1024;
export function describeBytes(bytes: number): string {
  return bytes >= MIB && bytes % MIB === 0 ? `${bytes / MIB} MiB` : `${bytes} bytes`;
}

/** The multipart plugin's and the parser's errors, told in the API's words. */
function multipartError(error: unknown, options: ReceiveOptions): InputError {
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new InputError(
        `files: a file is larger than the limit of ${describeBytes(options.maxFileBytes)}`,
        [{ field: 'files', reason: 'too large' }],
        413,
      );
    case 'FST_FILES_LIMIT':
      return InputError.field('files', `at most ${options.maxFiles} files per request`);
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new InputError(`Too many form fields (at most ${MAX_FIELDS})`);
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new InputError('Send multipart/form-data', undefined, 415);
    case 'FST_PROTO_VIOLATION':
      return new InputError('A form field name is not allowed');
    default:
      return new InputError('Malformed multipart/form-data body');
  }
}

function isFileSystemError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'syscall' in error;
}

async function spool(part: Extract<Multipart, { type: 'file' }>, path: string): Promise<{ size: number; head: Buffer }> {
  let size = 0;
  let head = Buffer.alloc(0);
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (head.length < HEAD_BYTES) head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
      done(null, chunk);
    },
  });
  await pipeline(part.file, counter, createWriteStream(path, { flags: 'wx' }));
  return { size, head };
}

/**
 * Reads the multipart body of request into temporary files and runs handle with them.
 * Refusals: not multipart → 415; a file part under another field name, an empty file,
 * too many files or fields, a malformed body → 400; a file over maxFileBytes → 413.
 */
export async function withReceivedFiles<T>(
  request: FastifyRequest,
  options: ReceiveOptions,
  handle: (form: ReceivedForm) => Promise<T>,
): Promise<T> {
  if (!isMultipartFormData(request.headers['content-type']) || !request.isMultipart()) {
    throw new InputError(`Send multipart/form-data with one or more "${options.fileField}" file parts`, undefined, 415);
  }
  await mkdir(options.tmpDir, { recursive: true });
  const dir = await mkdtemp(join(options.tmpDir, 'upload-'));
  try {
    const form: ReceivedForm = { files: [], fields: new Map() };
    let parts: AsyncIterableIterator<Multipart>;
    try {
      parts = request.parts({
        limits: {
          fileSize: options.maxFileBytes,
          files: options.maxFiles,
          fields: MAX_FIELDS,
          fieldSize: MAX_FIELD_BYTES,
          parts: options.maxFiles + MAX_FIELDS,
        },
      });
    } catch (error) {
      throw multipartError(error, options);
    }
    while (true) {
      let next: IteratorResult<Multipart>;
      try {
        next = await parts.next();
      } catch (error) {
        throw multipartError(error, options);
      }
      if (next.done) break;
      const part = next.value;
      if (part.type === 'field') {
        if (typeof part.value === 'string' && !form.fields.has(part.fieldname)) form.fields.set(part.fieldname, part.value);
        continue;
      }
      if (part.fieldname !== options.fileField) {
        part.file.resume();
        throw InputError.field(part.fieldname || '(unnamed)', `unexpected file field; send files as "${options.fileField}"`);
      }
      const path = join(dir, String(form.files.length));
      let spooled: { size: number; head: Buffer };
      try {
        spooled = await spool(part, path);
      } catch (error) {
        if (isFileSystemError(error)) throw error;
        throw multipartError(error, options);
      }
      const label = JSON.stringify(part.filename.slice(0, 100));
      if (part.file.truncated) {
        throw new InputError(
          `files: ${label} is larger than the limit of ${describeBytes(options.maxFileBytes)}`,
          [{ field: 'files', reason: `${label} is too large` }],
          413,
        );
      }
      if (spooled.size === 0) throw InputError.field('files', `${label} is empty`);
      form.files.push({ filename: part.filename, declaredType: part.mimetype, size: spooled.size, path, head: spooled.head });
    }
    return await handle(form);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
