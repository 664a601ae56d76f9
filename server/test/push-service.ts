// A Web Push service on loopback for tests: what a browser vendor's push service does with a
// push (RFC 8030), checked the way a browser would. It verifies the VAPID Authorization (RFC
// 8292: an ES256 JWT signed by the key given in `k=`, audience this service's origin, a
// subject, an expiry within 24 hours), DECRYPTS the aes128gcm body (RFC 8188 + RFC 8291) with
// the subscriber's private key and auth secret, records what it received, and answers each
// subscriber the statuses a test programs (201 by default).
import { createECDH, createPublicKey, createDecipheriv, hkdfSync, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { jwtVerify } from 'jose';

export interface Subscriber {
  id: string;
  endpoint: string;
  /** What PushSubscription.toJSON() gives: the browser's public key and auth secret, base64url. */
  keys: { p256dh: string; auth: string };
  /** The private key (32 bytes), to hand to a browser stand-in. */
  privateKey: Buffer;
}

export interface ReceivedPush {
  subscriberId: string;
  /** The decrypted body, parsed as JSON. */
  payload: unknown;
  headers: { ttl: string | undefined; urgency: string | undefined; topic: string | undefined; contentEncoding: string | undefined };
  vapid: { subject: unknown; audience: unknown; publicKey: string };
  /** The status this service answered. */
  status: number;
}

export interface PushService {
  origin: string;
  /** A new subscriber: its key pair and auth secret made here, as a browser makes them. */
  subscriber(): Subscriber;
  /** The statuses to answer this subscriber's next pushes, in order; then 201 again. */
  answer(subscriberId: string, statuses: number[]): void;
  /** Every push that passed the checks, in the order received. */
  readonly received: ReceivedPush[];
  /** Requests that failed a check (bad VAPID, undecryptable body…), with the reason. */
  readonly rejected: Array<{ subscriberId: string; reason: string }>;
  close(): Promise<void>;
}

interface Held {
  ecdh: ReturnType<typeof createECDH>;
  auth: Buffer;
  publicKey: Buffer;
  statuses: number[];
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks)));
    request.on('error', reject);
  });
}

const hkdf = (salt: Buffer, ikm: Buffer, info: Buffer, length: number) => Buffer.from(hkdfSync('sha256', ikm, salt, info, length));

/** RFC 8291 §3.4 and RFC 8188 §2: the plaintext of an aes128gcm push message. */
export function decryptAes128gcm(body: Buffer, held: Pick<Held, 'ecdh' | 'auth' | 'publicKey'>): Buffer {
  if (body.length < 21) throw new Error('body shorter than the aes128gcm header');
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20] ?? 0;
  const senderKey = body.subarray(21, 21 + idLength);
  if (idLength !== 65) throw new Error(`keyid must be the sender's 65-byte public key, got ${idLength} bytes`);
  const records = body.subarray(21 + idLength);
  const shared = held.ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), held.publicKey, senderKey]);
  const ikm = hkdf(held.auth, shared, keyInfo, 32);
  const cek = hkdf(salt, ikm, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const baseNonce = hkdf(salt, ikm, Buffer.from('Content-Encoding: nonce\0'), 12);
  const parts: Buffer[] = [];
  for (let offset = 0, seq = 0; offset < records.length; offset += recordSize, seq += 1) {
    const record = records.subarray(offset, offset + recordSize);
    const nonce = Buffer.from(baseNonce);
    // The record's sequence number XORed into the nonce's low bytes (RFC 8188 §2.3; records < 2^32 here).
    nonce.writeUInt32BE((nonce.readUInt32BE(8) ^ seq) >>> 0, 8);
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(record.subarray(record.length - 16));
    const plain = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
    // Padding: the delimiter (2 in the last record, 1 before) then zeros.
    let end = plain.length - 1;
    while (end >= 0 && plain[end] === 0) end -= 1;
    const last = offset + recordSize >= records.length;
    if (plain[end] !== (last ? 2 : 1)) throw new Error('bad padding delimiter');
    parts.push(plain.subarray(0, end));
  }
  return Buffer.concat(parts);
}

/** RFC 8292 §3: `vapid t=<JWT>, k=<public key>`, the JWT checked against k and this origin. */
async function checkVapid(header: string | undefined, origin: string) {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!match) throw new Error(`Authorization is not "vapid t=…, k=…": ${header}`);
  const [, token = '', k = ''] = match;
  const raw = Buffer.from(k, 'base64url');
  if (raw.length !== 65 || raw[0] !== 4) throw new Error('k is not an uncompressed P-256 point');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') },
    format: 'jwk',
  });
  const { payload } = await jwtVerify(token, key, { algorithms: ['ES256'], audience: origin });
  if (typeof payload.exp !== 'number' || payload.exp > Date.now() / 1000 + 24 * 3600) throw new Error('exp missing or beyond 24 hours');
  if (typeof payload.sub !== 'string' || !/^(mailto:|https:)/.test(payload.sub))
    throw new Error(`sub is not mailto: or https: (${payload.sub})`);
  return { subject: payload.sub, audience: payload.aud, publicKey: k };
}

export async function startPushService(): Promise<PushService> {
  const held = new Map<string, Held>();
  const received: ReceivedPush[] = [];
  const rejected: Array<{ subscriberId: string; reason: string }> = [];
  let origin = '';

  async function handle(request: IncomingMessage, response: ServerResponse) {
    const id = /^\/push\/([\w-]+)$/.exec(request.url ?? '')?.[1] ?? '';
    const body = await readBody(request);
    const subscriber = held.get(id);
    const refuse = (status: number, reason: string) => {
      rejected.push({ subscriberId: id, reason });
      response.writeHead(status).end(reason);
    };
    if (request.method !== 'POST' || !subscriber) return refuse(404, 'no such subscription');
    let vapid: ReceivedPush['vapid'];
    try {
      vapid = await checkVapid(request.headers.authorization, origin);
    } catch (error) {
      return refuse(403, `VAPID: ${(error as Error).message}`);
    }
    if (request.headers['content-encoding'] !== 'aes128gcm') return refuse(400, `Content-Encoding ${request.headers['content-encoding']}`);
    if (request.headers.ttl === undefined) return refuse(400, 'no TTL');
    let payload: unknown;
    try {
      payload = JSON.parse(decryptAes128gcm(body, subscriber).toString('utf8'));
    } catch (error) {
      return refuse(400, `decryption: ${(error as Error).message}`);
    }
    const status = subscriber.statuses.shift() ?? 201;
    received.push({
      subscriberId: id,
      payload,
      headers: {
        ttl: request.headers.ttl as string | undefined,
        urgency: request.headers.urgency as string | undefined,
        topic: request.headers.topic as string | undefined,
        contentEncoding: request.headers['content-encoding'],
      },
      vapid,
      status,
    });
    response.writeHead(status, status === 201 ? { location: `${origin}/message/${randomUUID()}` } : {}).end();
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => response.writeHead(500).end(String(error)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    received,
    rejected,
    subscriber() {
      const id = randomUUID();
      const ecdh = createECDH('prime256v1');
      const publicKey = ecdh.generateKeys();
      const auth = randomBytes(16);
      held.set(id, { ecdh, auth, publicKey, statuses: [] });
      return {
        id,
        endpoint: `${origin}/push/${id}`,
        keys: { p256dh: publicKey.toString('base64url'), auth: auth.toString('base64url') },
        privateKey: ecdh.getPrivateKey(),
      };
    },
    answer(subscriberId, statuses) {
      const subscriber = held.get(subscriberId);
      if (!subscriber) throw new Error(`unknown subscriber ${subscriberId}`);
      subscriber.statuses.push(...statuses);
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
