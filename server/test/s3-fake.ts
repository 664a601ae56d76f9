// A local stand-in for S3, for tests: a real HTTP server on a loopback port that speaks
// the S3 REST protocol for path-style object requests (PutObject, GetObject, HeadObject,
// DeleteObject), checks AWS Signature Version 4 like S3 does, and answers S3's XML errors.
// Objects live in memory. Anything else is a 501, so a test notices an unexpected call.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeObject {
  body: Buffer;
  contentType: string;
  etag: string;
  lastModified: Date;
}

export interface FakeS3 {
  /** http://127.0.0.1:<port> */
  endpoint: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Objects of the bucket, by key. */
  objects: Map<string, FakeObject>;
  /** Every request received: method, key (or null) and answered status. */
  requests: Array<{ method: string; key: string | null; status: number }>;
  /** Env variables that point Parley at this server. */
  env(): Record<string, string>;
  close(): Promise<void>;
}

const MAX_SKEW_MS = 15 * 60 * 1000;

function rfc3986(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

function hmac(key: Buffer | string, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}

function sha256Hex(data: Buffer | string): string {
  return createHash('sha256').update(data).digest('hex');
}

function xmlEscape(value: string): string {
  return value.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

class S3Error extends Error {
  readonly status: number;
  readonly code: string;
  constructor(status: number, code: string, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

interface Authorization {
  accessKeyId: string;
  date: string;
  region: string;
  service: string;
  signedHeaders: string[];
  signature: string;
}

function parseAuthorization(header: string | undefined): Authorization {
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/([^/,\s]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/.exec(
      header ?? '',
    );
  if (!match) throw new S3Error(403, 'AccessDenied', 'Missing or malformed AWS Signature Version 4 Authorization header');
  const [, accessKeyId, date, region, service, signedHeaders, signature] = match as unknown as string[];
  return {
    accessKeyId: accessKeyId!,
    date: date!,
    region: region!,
    service: service!,
    signedHeaders: signedHeaders!.split(';'),
    signature: signature!,
  };
}

/** Checks the request's SigV4 signature exactly as S3 computes it. */
function verifySignature(
  request: IncomingMessage,
  body: Buffer,
  fake: { region: string; accessKeyId: string; secretAccessKey: string },
): void {
  const auth = parseAuthorization(request.headers.authorization);
  if (auth.accessKeyId !== fake.accessKeyId)
    throw new S3Error(403, 'InvalidAccessKeyId', 'The AWS access key Id you provided does not exist in our records.');
  if (auth.region !== fake.region || auth.service !== 's3')
    throw new S3Error(
      400,
      'AuthorizationHeaderMalformed',
      `The authorization header is malformed; the region or service is wrong (expecting '${fake.region}', 's3')`,
    );
  const amzDate = String(request.headers['x-amz-date'] ?? '');
  const when = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!when || !amzDate.startsWith(auth.date))
    throw new S3Error(403, 'AccessDenied', 'X-Amz-Date is missing or does not match the credential scope');
  const signedAt = Date.UTC(Number(when[1]), Number(when[2]) - 1, Number(when[3]), Number(when[4]), Number(when[5]), Number(when[6]));
  if (Math.abs(Date.now() - signedAt) > MAX_SKEW_MS)
    throw new S3Error(403, 'RequestTimeTooSkewed', 'The difference between the request time and the current time is too large.');
  for (const required of ['host', 'x-amz-date', 'x-amz-content-sha256']) {
    if (!auth.signedHeaders.includes(required)) throw new S3Error(403, 'AccessDenied', `Header ${required} must be signed`);
  }

  const payloadHash = String(request.headers['x-amz-content-sha256'] ?? '');
  if (payloadHash !== 'UNSIGNED-PAYLOAD') {
    if (!/^[0-9a-f]{64}$/.test(payloadHash))
      throw new S3Error(400, 'InvalidArgument', `Unsupported x-amz-content-sha256 value ${payloadHash}`);
    if (sha256Hex(body) !== payloadHash)
      throw new S3Error(400, 'XAmzContentSHA256Mismatch', "The provided 'x-amz-content-sha256' header does not match what was computed.");
  }

  const rawUrl = request.url ?? '/';
  const queryAt = rawUrl.indexOf('?');
  const path = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
  const query = queryAt === -1 ? '' : rawUrl.slice(queryAt + 1);
  const canonicalQuery = query
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      const key = decodeURIComponent(eq === -1 ? pair : pair.slice(0, eq));
      const value = eq === -1 ? '' : decodeURIComponent(pair.slice(eq + 1));
      return [rfc3986(key), rfc3986(value)] as const;
    })
    .sort(([ak, av], [bk, bv]) => (ak === bk ? (av < bv ? -1 : av > bv ? 1 : 0) : ak < bk ? -1 : 1))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
  const canonicalHeaders = auth.signedHeaders
    .map((name) => {
      const value = request.headers[name];
      const text = Array.isArray(value) ? value.join(',') : (value ?? '');
      return `${name}:${text.trim().replace(/\s+/g, ' ')}\n`;
    })
    .join('');
  const canonicalRequest = [request.method, path, canonicalQuery, canonicalHeaders, auth.signedHeaders.join(';'), payloadHash].join('\n');
  const scope = `${auth.date}/${auth.region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const key = hmac(hmac(hmac(hmac(`AWS4${fake.secretAccessKey}`, auth.date), auth.region), 's3'), 'aws4_request');
  const expected = Buffer.from(hmac(key, stringToSign).toString('hex'));
  const given = Buffer.from(auth.signature);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
    throw new S3Error(
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    );
  }
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function startFakeS3(options: { bucket?: string; region?: string } = {}): Promise<FakeS3> {
  const bucket = options.bucket ?? 'parley-test';
  const region = options.region ?? 'eu-test-1';
  const accessKeyId = `AKIA${randomBytes(8).toString('hex').toUpperCase()}`;
  const secretAccessKey = randomBytes(30).toString('base64url');
  const objects = new Map<string, FakeObject>();
  const requests: FakeS3['requests'] = [];

  function sendError(response: ServerResponse, error: S3Error, resource: string, head: boolean): void {
    const requestId = randomBytes(8).toString('hex').toUpperCase();
    response.statusCode = error.status;
    response.setHeader('x-amz-request-id', requestId);
    if (head) {
      response.end();
      return;
    }
    response.setHeader('content-type', 'application/xml');
    response.end(
      `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${error.code}</Code><Message>${xmlEscape(error.message)}</Message>` +
        `<Resource>${xmlEscape(resource)}</Resource><RequestId>${requestId}</RequestId></Error>`,
    );
  }

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<{ key: string | null }> {
    const method = request.method ?? 'GET';
    const url = new URL(request.url ?? '/', 'http://fake-s3');
    const body = await readBody(request);
    verifySignature(request, body, { region, accessKeyId, secretAccessKey });

    // Path style: /<bucket>/<key>, the key URI-encoded segment by segment.
    const segments = url.pathname.split('/');
    const requestedBucket = decodeURIComponent(segments[1] ?? '');
    const key = segments.length > 2 ? segments.slice(2).map(decodeURIComponent).join('/') : '';
    if (requestedBucket !== bucket) throw new S3Error(404, 'NoSuchBucket', 'The specified bucket does not exist');
    if (key === '') throw new S3Error(501, 'NotImplemented', 'Only object requests are implemented by this fake');
    for (const name of url.searchParams.keys()) {
      if (name !== 'x-id') throw new S3Error(501, 'NotImplemented', `Sub-resource ?${name} is not implemented by this fake`);
    }

    switch (method) {
      case 'PUT': {
        const declared = request.headers['content-length'];
        if (declared === undefined) throw new S3Error(411, 'MissingContentLength', 'You must provide the Content-Length HTTP header.');
        if (Number(declared) !== body.length)
          throw new S3Error(400, 'IncompleteBody', 'You did not provide the number of bytes specified by the Content-Length HTTP header.');
        const etag = `"${createHash('md5').update(body).digest('hex')}"`;
        objects.set(key, {
          body,
          contentType: String(request.headers['content-type'] ?? 'binary/octet-stream'),
          etag,
          lastModified: new Date(),
        });
        response.statusCode = 200;
        response.setHeader('etag', etag);
        response.end();
        return { key };
      }
      case 'GET':
      case 'HEAD': {
        const object = objects.get(key);
        if (!object) throw new S3Error(404, 'NoSuchKey', 'The specified key does not exist.');
        response.statusCode = 200;
        response.setHeader('content-type', object.contentType);
        response.setHeader('content-length', String(object.body.length));
        response.setHeader('etag', object.etag);
        response.setHeader('last-modified', object.lastModified.toUTCString());
        response.setHeader('accept-ranges', 'bytes');
        response.end(method === 'GET' ? object.body : undefined);
        return { key };
      }
      case 'DELETE':
        // S3 answers 204 whether or not the key existed.
        objects.delete(key);
        response.statusCode = 204;
        response.end();
        return { key };
      default:
        throw new S3Error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
    }
  }

  const server = createServer((request, response) => {
    handle(request, response)
      .then(({ key }) => requests.push({ method: request.method ?? '', key, status: response.statusCode }))
      .catch((error: unknown) => {
        const s3Error =
          error instanceof S3Error ? error : new S3Error(500, 'InternalError', 'We encountered an internal error. Please try again.');
        sendError(response, s3Error, request.url ?? '/', request.method === 'HEAD');
        requests.push({ method: request.method ?? '', key: null, status: s3Error.status });
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const endpoint = `http://127.0.0.1:${port}`;

  return {
    endpoint,
    region,
    bucket,
    accessKeyId,
    secretAccessKey,
    objects,
    requests,
    env: () => ({
      S3_BUCKET: bucket,
      S3_REGION: region,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: accessKeyId,
      S3_SECRET_ACCESS_KEY: secretAccessKey,
      S3_FORCE_PATH_STYLE: 'true',
    }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
