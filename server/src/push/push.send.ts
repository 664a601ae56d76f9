// One Web Push request (RFC 8030) through the address guard (push.guard.ts): the POST that
// web-push prepared (body encrypted per RFC 8291, VAPID per RFC 8292), its answer's status and
// Retry-After. Redirects are never followed. The endpoint is a bearer capability: errors and
// logs name its host only.
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { AddressRefusedError } from '../webhooks/webhooks.send.ts';
import { bareHost, type PushGuard } from './push.guard.ts';

export { AddressRefusedError };

export interface PushRequest {
  endpoint: string;
  headers: Record<string, string | number>;
  body: Buffer | null;
}

export interface PushAnswer {
  status: number;
  /** Retry-After in seconds, when the push service gave one. */
  retryAfterSeconds: number | null;
}

/** No answer: a timeout or a failed connection. Worth a retry. */
export class PushNetworkError extends Error {
  override name = 'PushNetworkError';
}

const MAX_READ_BYTES = 16 * 1024;

export async function sendPushRequest(
  guard: PushGuard,
  request: PushRequest,
  timeoutMs: number,
  cancel?: AbortSignal,
): Promise<PushAnswer> {
  const url = new URL(request.endpoint);
  const host = bareHost(url);
  if (isIP(host) !== 0 && !guard.policy.isAllowed(host)) {
    throw new AddressRefusedError(`${host} is an address push may not reach (PUSH_ALLOW_HOSTS)`);
  }
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = cancel ? AbortSignal.any([timeout, cancel]) : timeout;
  const secure = url.protocol === 'https:';
  const client = secure ? https : http;
  const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
  return new Promise<PushAnswer>((resolve, reject) => {
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      if (error instanceof AddressRefusedError) {
        reject(new AddressRefusedError(`${url.host} resolves to an address push may not reach (PUSH_ALLOW_HOSTS)`));
      } else if (timeout.aborted) reject(new PushNetworkError(`${url.host}: no answer within ${timeoutMs} ms`));
      else {
        const code = error instanceof Error && 'code' in error ? String(error.code) : 'network error';
        reject(new PushNetworkError(`${url.host}: ${code}`));
      }
    };
    const outgoing = client.request(
      url,
      { method: 'POST', agent: secure ? guard.agents.https : guard.agents.http, signal, headers },
      (response) => {
        const finish = () => {
          if (settled) return;
          settled = true;
          const retryAfter = Number(response.headers['retry-after']);
          resolve({
            status: response.statusCode ?? 0,
            retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : null,
          });
        };
        let read = 0;
        // The answer's body is not used: read (a little of) it so the connection can be reused.
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_READ_BYTES) {
            finish();
            response.destroy();
          }
        });
        response.on('end', finish);
        response.on('error', finish);
        response.on('close', finish);
      },
    );
    outgoing.on('error', fail);
    outgoing.end(request.body ?? undefined);
  });
}
