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
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { FastifyBaseLogger } from 'fastify';
import type { Config, StorageConfig } from '../config.ts';
import { NetworkError } from '../errors.ts';

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

function bodyStream(body: Readable | Buffer): Readable {
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

type S3Settings = Extract<StorageConfig, { kind: 's3' }>;

function isNotFound(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404)
  );
}

export function s3Storage(settings: S3Settings, log: FastifyBaseLogger): MediaStorage {
  const client = new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    // A copy: the SDK writes into the credentials object, and the configuration is frozen.
    ...(settings.credentials ? { credentials: { ...settings.credentials } } : {}),
    forcePathStyle: settings.forcePathStyle,
    // Many S3-compatible stores do not speak the SDK's newer default (aws-chunked
    // bodies with trailing CRC checksums); plain signed requests work everywhere.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 120_000 },
    // The SDK's own warnings go to our log, not to the console.
    logger: {
      trace: () => {},
      debug: () => {},
      info: () => {},
      warn: (...content: unknown[]) => log.warn({ sdk: content }, 'S3 client warning'),
      error: (...content: unknown[]) => log.error({ sdk: content }, 'S3 client error'),
    },
  });
  const failed = (operation: string, key: string, error: unknown): NetworkError => {
    log.error({ err: error, key, bucket: settings.bucket, operation }, 'object storage request failed');
    return new NetworkError('Object storage request failed');
  };
  return {
    kind: 's3',
    async put(key, body, contentType, size) {
      assertStorageKey(key);
      let payload: Readable | Buffer = body;
      let length = Buffer.isBuffer(body) ? body.length : size;
      if (length === undefined) {
        // S3 needs the length before the body; a stream of unknown length is read into memory.
        const chunks: Buffer[] = [];
        for await (const chunk of bodyStream(body)) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
        payload = Buffer.concat(chunks);
        length = payload.length;
      }
      try {
        await client.send(
          new PutObjectCommand({ Bucket: settings.bucket, Key: key, Body: payload, ContentType: contentType, ContentLength: length }),
        );
      } catch (error) {
        throw failed('PutObject', key, error);
      }
    },
    async get(key) {
      assertStorageKey(key);
      try {
        const object = await client.send(new GetObjectCommand({ Bucket: settings.bucket, Key: key }));
        if (!(object.Body instanceof Readable) || object.ContentLength === undefined) {
          throw new Error('GetObject answered without a readable body or a length');
        }
        return { stream: object.Body, size: object.ContentLength };
      } catch (error) {
        if (isNotFound(error)) return null;
        throw failed('GetObject', key, error);
      }
    },
    async delete(key) {
      assertStorageKey(key);
      try {
        await client.send(new DeleteObjectCommand({ Bucket: settings.bucket, Key: key }));
      } catch (error) {
        if (isNotFound(error)) return;
        throw failed('DeleteObject', key, error);
      }
    },
    async close() {
      client.destroy();
    },
  };
}

/** The storage the configuration names; built once per app with its dependencies, closed with them. */
export function openStorage(config: Config, log: FastifyBaseLogger): MediaStorage {
  return config.storage.kind === 's3' ? s3Storage(config.storage, log) : localStorage(config.storage.dir);
}
