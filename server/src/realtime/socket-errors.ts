// Errors on an open socket (docs/api.md, "Realtime"). A client breaking the protocol (a frame over
// 64 KiB, text that is not UTF-8, a bad opcode…) or dropping its connection is the client's
// doing: logged at debug level and counted in /metrics, never at error level (any client could
// flood the error log). `ws` has already sent the close frame with the code that says why (1009,
// 1007, 1002) when the error reaches us, so the socket is left to finish its closing handshake:
// cutting it at once lost the close frame and the client saw 1006. Anything else is ours: logged
// as an error, and the socket closed with 1011.
import type { FastifyRequest } from 'fastify';
import type { Metrics } from '../metrics/metrics.ts';

export const CLOSE_INTERNAL_ERROR = 1011;

/** `ws`'s error codes for a client's protocol errors → the reason counted. */
const PROTOCOL_REASONS: Record<string, string> = {
  WS_ERR_UNSUPPORTED_MESSAGE_LENGTH: 'too_large',
  WS_ERR_UNSUPPORTED_DATA_PAYLOAD_LENGTH: 'too_large',
  WS_ERR_TOO_MANY_BUFFERED_PARTS: 'too_large',
  WS_ERR_INVALID_UTF8: 'invalid_utf8',
};

/** Errors of a connection the client ended abruptly. */
const CONNECTION_CODES = new Set(['ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ECONNABORTED']);

/** Why the client is to blame for this error (the metric's `reason`), or null when it is ours. */
export function clientErrorReason(error: Error): string | null {
  const code = 'code' in error && typeof error.code === 'string' ? error.code : '';
  if (code in PROTOCOL_REASONS) return PROTOCOL_REASONS[code] ?? 'protocol';
  if (code.startsWith('WS_ERR_')) return 'protocol';
  if (CONNECTION_CODES.has(code)) return 'connection';
  return null;
}

/** The `errorHandler` of the WebSocket plugin: sorts an error out as above. */
export function socketErrorHandler(metrics: Metrics) {
  return (error: Error, socket: { close(code: number, reason: string): void }, request: FastifyRequest): void => {
    const kind = request.routeOptions.url === '/widget/ws' ? 'widget' : 'agent';
    const reason = clientErrorReason(error);
    if (reason !== null) {
      metrics.socketClientErrors.inc({ kind, reason });
      request.log.debug({ kind, reason, err: error.message }, 'socket closed on a client error');
      return;
    }
    request.log.error({ kind, err: error }, 'socket failed');
    socket.close(CLOSE_INTERNAL_ERROR, 'internal error');
  };
}
