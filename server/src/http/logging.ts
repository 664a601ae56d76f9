// What the request log may say about a request. A signed media URL is a bearer link: anyone
// holding its `sig` can download the file until it expires, so the signature (and any other
// credential a URL may carry) never reaches the log.
import type { FastifyRequest } from 'fastify';

/** Query parameters whose value is a credential. */
const SECRET_PARAMETERS = new Set(['sig', 'signature', 'token', 'access_token', 'api_key', 'api_secret', 'password', 'secret', 'code']);

function parameterName(part: string): string {
  const raw = part.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return raw.toLowerCase();
  }
}

/** The URL with the values of credential parameters replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  const query = url
    .slice(start + 1)
    .split('&')
    .map((part) => (SECRET_PARAMETERS.has(parameterName(part)) ? `${part.split('=', 1)[0]}=[redacted]` : part))
    .join('&');
  return `${url.slice(0, start)}?${query}`;
}

/** The `req` serializer of the request log (Fastify's fields, with the URL redacted). */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}
