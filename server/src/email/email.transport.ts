// The SMTP side of outbound mail: one pooled nodemailer transport per email inbox and app,
// made on first use and kept while the inbox's SMTP settings stay the same. A transport is
// known by a digest of those settings: when an administrator changes them, the next mail
// closes the old pool (a delivery in flight finishes) and opens a new one. stopWorkers closes
// every pool of the app.
import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import type { Mail, SendMailOptions, SMTPPoolOptions, SMTPPoolSentMessageInfo } from 'nodemailer';
import type { AppDeps } from '../deps.ts';
import type { EmailInbox, EmailSettings } from './email.inbox.ts';

type Pool = Mail<SMTPPoolSentMessageInfo, SMTPPoolOptions>;

interface PoolEntry {
  fingerprint: string;
  pool: Pool;
}

/** The package, loaded on the first mail or connection test: an installation without email never holds it in memory. */
export const nodemailerPackage = async () => (await import('nodemailer')).default;

/** The pools of each app (tests run several apps in one process), by inbox id. */
const poolsByApp = new WeakMap<AppDeps, Map<number, PoolEntry>>();

/** Connections of one inbox's pool when the settings name no `max_connections`. */
export const DEFAULT_MAX_CONNECTIONS = 5;

/**
 * nodemailer's options for an inbox's SMTP settings. TLS modes: none = plain SMTP, STARTTLS
 * ignored even when offered; starttls = the upgrade is required; tls = TLS from the first byte.
 * Certificates are verified unless tls_skip_verify. Every wait (DNS, connection, greeting,
 * an idle socket) is bounded by EMAIL_TIMEOUT_SECONDS.
 */
export function smtpOptions(smtp: EmailSettings['smtp'], timeoutSeconds: number): SMTPPoolOptions & { pool: true } {
  const timeoutMs = timeoutSeconds * 1000;
  return {
    pool: true,
    host: smtp.host,
    port: smtp.port,
    secure: smtp.tls === 'tls',
    requireTLS: smtp.tls === 'starttls',
    ignoreTLS: smtp.tls === 'none',
    tls: {
      rejectUnauthorized: !smtp.tls_skip_verify,
      minVersion: 'TLSv1.2',
      // SNI is for host names only.
      ...(isIP(smtp.host) === 0 ? { servername: smtp.host } : {}),
    },
    ...(smtp.username !== '' ? { auth: { user: smtp.username, pass: smtp.password } } : {}),
    maxConnections: smtp.max_connections ?? DEFAULT_MAX_CONNECTIONS,
    maxMessages: 100,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
    // Nothing of a session is logged: no addresses, no credentials.
    logger: false,
    debug: false,
  };
}

/** Digests already made, by settings object: an inbox kept by the sender hands the same one in for each mail. */
const fingerprints = new WeakMap<EmailSettings['smtp'], { timeoutSeconds: number; fingerprint: string }>();

/** A digest of everything that makes a connection: a change of any of it needs a new pool. */
function fingerprintOf(smtp: EmailSettings['smtp'], timeoutSeconds: number): string {
  const known = fingerprints.get(smtp);
  if (known?.timeoutSeconds === timeoutSeconds) return known.fingerprint;
  const fingerprint = digestOf(smtp, timeoutSeconds);
  fingerprints.set(smtp, { timeoutSeconds, fingerprint });
  return fingerprint;
}

function digestOf(smtp: EmailSettings['smtp'], timeoutSeconds: number): string {
  const parts = [
    smtp.host,
    smtp.port,
    smtp.tls,
    smtp.tls_skip_verify,
    smtp.username,
    smtp.password,
    smtp.max_connections ?? 0,
    timeoutSeconds,
  ];
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

function poolsOf(deps: AppDeps): Map<number, PoolEntry> {
  let pools = poolsByApp.get(deps);
  if (!pools) {
    pools = new Map();
    poolsByApp.set(deps, pools);
  }
  return pools;
}

/** The inbox's pool for its current settings; a pool made for other settings is closed. */
export async function transportFor(deps: AppDeps, inbox: EmailInbox): Promise<Pool> {
  // Loaded before anything below looks at the pools: from there to the end no await lets another mail in between.
  const nodemailer = await nodemailerPackage();
  const pools = poolsOf(deps);
  const fingerprint = fingerprintOf(inbox.settings.smtp, deps.config.emailTimeoutSeconds);
  const current = pools.get(inbox.id);
  if (current?.fingerprint === fingerprint) return current.pool;
  // The settings changed: idle connections close at once, one delivering finishes first.
  current?.pool.close();
  const pool = nodemailer.createTransport(smtpOptions(inbox.settings.smtp, deps.config.emailTimeoutSeconds));
  pools.set(inbox.id, { fingerprint, pool });
  return pool;
}

/** Sends one mail through the inbox's pool; `signal` (the job's) abandons it. */
export async function sendThroughInbox(
  deps: AppDeps,
  inbox: EmailInbox,
  mail: SendMailOptions,
  signal: AbortSignal,
): Promise<SMTPPoolSentMessageInfo> {
  return (await transportFor(deps, inbox)).sendMail({ ...mail, signal });
}

/** Closes the inbox's pool (the inbox was deleted, disabled or is no longer an email inbox). */
export function closeInboxTransport(deps: AppDeps, inboxId: number): void {
  const pools = poolsByApp.get(deps);
  pools?.get(inboxId)?.pool.close();
  pools?.delete(inboxId);
}

/** Closes every pool of the app (the workers stop). */
export function closeEmailTransports(deps: AppDeps): void {
  const pools = poolsByApp.get(deps);
  if (!pools) return;
  for (const entry of pools.values()) entry.pool.close();
  pools.clear();
}

/** How many pools the app holds (tests and the bench). */
export function openTransportCount(deps: AppDeps): number {
  return poolsByApp.get(deps)?.size ?? 0;
}
