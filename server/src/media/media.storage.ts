// Where the bytes of uploaded files live: a small interface with two backends,
// local disk (DATA_DIR/uploads, the default) and S3-compatible object storage.
// Keys are made by the server (see newStorageKey), never from a client's file name;
// the disk backend still refuses any key that could leave its folder.
import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';

export interface StoredObject {
  stream: Readable;
  size: number;
}

export interface MediaStorage {
  readonly kind: 'local' | 's3';
  /** Stores the body under key, replacing any previous object. A stream should come with its size (S3 needs a length up front). */
  put(key: string, body: Readable | Buffer, contentType: string, size?: number): Promise<void>;
  /** The object, or null when there is none under key. */
  get(key: string): Promise<StoredObject | null>;
  /** Removes the object; removing a missing object is not an error. */
  delete(key: string): Promise<void>;
  /** Releases sockets (S3); the storage may not be used afterwards. */
  close(): Promise<void>;
}

export class StorageKeyError extends Error {
  override name = 'StorageKeyError';
}

// Segments of letters, digits, dot, underscore, hyphen; never starting with a dot, so
// no "." or ".." segment, no hidden file, no absolute path, no backslash, no NUL.
const KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}(?:\/[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}){0,7}$/;

export function assertStorageKey(key: string): void {
  if (!KEY.test(key)) throw new StorageKeyError(`Refusing storage key ${JSON.stringify(key.slice(0, 200))}`);
}

/** A fresh key, grouped by month so a folder never grows without bound. */
export function newStorageKey(now: Date): string {
  const month = `${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  return `media/${month}/${randomUUID()}`;
}

export function bodyStream(body: Readable | Buffer): Readable {
  return Buffer.isBuffer(body) ? Readable.from([body]) : body;
}

export function localStorage(root: string): MediaStorage {
  const base = resolve(root);
  const pathOf = (key: string): string => {
    assertStorageKey(key);
    const full = resolve(base, key);
    if (!full.startsWith(base + sep)) throw new StorageKeyError(`Refusing storage key ${JSON.stringify(key)}`);
    return full;
  };
  return {
    kind: 'local',
    async put(key, body) {
      const full = pathOf(key);
      await mkdir(dirname(full), { recursive: true });
      // Written beside the target and renamed into place: a reader never sees half a file,
      // and a crash leaves only a *.tmp file behind.
      const temporary = `${full}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await pipeline(bodyStream(body), createWriteStream(temporary, { flags: 'wx', flush: true }));
        await rename(temporary, full);
      } catch (error) {
        await rm(temporary, { force: true });
        throw error;
      }
    },
    async get(key) {
      const full = pathOf(key);
      try {
        const info = await stat(full);
        if (!info.isFile()) return null;
        return { stream: createReadStream(full), size: info.size };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
    async close() {},
  };
}

/**
 * The storage the configuration names; built once per app with its dependencies, closed with
 * them. The S3 client (a large SDK) is loaded only when S3 is configured.
 */
export async function openStorage(config: Config, log: FastifyBaseLogger): Promise<MediaStorage> {
  if (config.storage.kind !== 's3') return localStorage(config.storage.dir);
  const { s3Storage } = await import('./media.storage-s3.ts');
  return s3Storage(config.storage, log);
}
