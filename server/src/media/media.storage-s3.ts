// S3-compatible object storage for media (media.storage.ts loads this file only when S3 is configured).
import { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, PutObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { FastifyBaseLogger } from 'fastify';
import type { StorageConfig } from '../config.ts';
import { NetworkError } from '../errors.ts';
import { assertStorageKey, bodyStream, type MediaStorage } from './media.storage.ts';

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
