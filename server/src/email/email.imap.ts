// The IMAP pieces of the reader (email.reader.ts): a client for an inbox's settings (TLS
// modes, timeouts, imapflow's log kept free of mail and secrets), uid sets, and errors as the
// admin sees them.
import type { FastifyBaseLogger } from 'fastify';
import type { ImapFlow, ImapFlowOptions } from 'imapflow';
import type { EmailSettings } from './email.inbox.ts';

/** An IMAP uid set: `1:5,9,12:14`, short enough for any command line. */
export function uidSet(uids: readonly number[]): string {
  const sorted = [...uids].sort((a, b) => a - b);
  const parts: string[] = [];
  let start = sorted[0];
  let end = start;
  for (const uid of sorted.slice(1)) {
    if (end !== undefined && uid === end + 1) end = uid;
    else {
      parts.push(start === end ? `${start}` : `${start}:${end}`);
      start = uid;
      end = uid;
    }
  }
  if (start !== undefined) parts.push(start === end ? `${start}` : `${start}:${end}`);
  return parts.join(',');
}

/** An error as the admin sees it: what the server said, without any secret. */
export function describeMailError(error: unknown, secrets: readonly string[]): string {
  let text: string;
  if (error instanceof Error) {
    const e = error as Error & { responseText?: string; serverResponseCode?: string; code?: string };
    const server = e.responseText ? `: ${e.serverResponseCode ? `[${e.serverResponseCode}] ` : ''}${e.responseText}` : '';
    text = `${e.message}${server}${e.code && !e.message.includes(e.code) ? ` (${e.code})` : ''}`;
  } else text = String(error);
  for (const secret of secrets) if (secret.length >= 3) text = text.split(secret).join('[redacted]');
  return text.slice(0, 1000);
}

/** imapflow's own log: its notices at debug level, never its protocol lines (they carry mail). */
function imapLogger(log: FastifyBaseLogger, secrets: readonly string[]): NonNullable<ImapFlowOptions['logger']> {
  const forward = (entry: { msg?: unknown; err?: unknown }) => {
    if (log.level !== 'debug' && log.level !== 'trace') return;
    const message = describeMailError(String(entry?.msg ?? ''), secrets);
    log.debug({ imap: message, ...(entry?.err ? { err: describeMailError(entry.err, secrets) } : {}) }, 'imap client');
  };
  const ignore = () => undefined;
  return { trace: ignore, debug: ignore, info: forward, warn: forward, error: forward, fatal: forward };
}

/**
 * An IMAP client for these settings, not connected yet: `tls` is implicit TLS, `starttls` requires
 * the upgrade (a server that does not offer it is an error, never a silent downgrade), `none` is
 * cleartext. Each step (connecting, the greeting, silence during a command) gets `timeoutMs`;
 * IDLE is the caller's to issue.
 */
export async function imapClientFor(imap: EmailSettings['imap'], log: FastifyBaseLogger, timeoutMs: number): Promise<ImapFlow> {
  // Loaded on the first use: an installation without email never holds the package in memory.
  const { ImapFlow } = await import('imapflow');
  return new ImapFlow({
    host: imap.host,
    port: imap.port,
    secure: imap.tls === 'tls',
    doSTARTTLS: imap.tls === 'starttls',
    ...(imap.username !== '' || imap.password !== '' ? { auth: { user: imap.username, pass: imap.password } } : {}),
    tls: { rejectUnauthorized: !imap.tls_skip_verify },
    logger: imapLogger(log, [imap.password]),
    disableAutoIdle: true,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    // Silence this long: a NOOP probes the server (and ends an IDLE, which the reader issues again).
    socketTimeout: timeoutMs,
    clientInfo: { name: 'Parley' },
  });
}
