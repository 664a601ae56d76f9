// An SMTP server for tests: a real `smtp-server` on 127.0.0.1 (port 0) that records every mail
// it accepts (envelope, raw bytes, whether the session was encrypted, who authenticated), with
// optional AUTH, STARTTLS or implicit TLS (a self-signed certificate made with the openssl CLI),
// and refusals the test programs: a 4xx or 5xx answer to MAIL FROM, RCPT TO or DATA.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SMTPServer, type SMTPServerOptions, type SMTPServerSession } from 'smtp-server';
import type { AppDeps } from '../src/deps.ts';
import { closeEmailTransports } from '../src/email/email.transport.ts';
import { startJobRunner } from '../src/jobs/jobs.runner.ts';
import { jobHandlers } from '../src/workers.ts';

export interface ReceivedMail {
  mailFrom: string;
  rcptTo: string[];
  /** The message as received (after the dot-unstuffing of DATA). */
  raw: Buffer;
  /** The session was encrypted (STARTTLS or implicit TLS). */
  secure: boolean;
  /** The authenticated user, or null. */
  user: string | null;
  /** performance.now() when the mail was accepted. */
  at: number;
}

export type SmtpStage = 'mail' | 'rcpt' | 'data';

export interface Refusal {
  stage: SmtpStage;
  /** The SMTP reply code, e.g. 451 or 550. */
  code: number;
  /** The reply text (default "Refused by the test"). */
  text?: string;
  /** At RCPT: only this recipient (default every one). */
  address?: string;
  /** How many commands are refused before the server accepts again (default: until cleared). */
  times?: number;
}

export interface TestSmtpServer {
  readonly host: '127.0.0.1';
  readonly port: number;
  readonly mails: ReceivedMail[];
  /** Commands that failed authentication (wrong username or password). */
  readonly authFailures: number;
  /** Answers the given stage with an error code, `times` times (default: until `accept()`). */
  refuse(refusal: Refusal): void;
  /** Forgets every refusal. */
  accept(): void;
  /** Waits (polling, bounded) until at least `count` mails arrived; throws after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

export interface TestSmtpOptions {
  /** none: plain SMTP, STARTTLS not offered; starttls: offered (and required before AUTH); tls: implicit TLS. */
  tls?: 'none' | 'starttls' | 'tls';
  /** Require AUTH PLAIN/LOGIN with these credentials. */
  auth?: { username: string; password: string };
  /** Called with each mail once its data arrived, before the server accepts it (what the sender had written by then). */
  onMail?: (raw: Buffer) => Promise<void>;
}

const run = promisify(execFile);
let certificate: Promise<{ key: Buffer; cert: Buffer }> | null = null;

/** A self-signed certificate for localhost and 127.0.0.1, made once per test process with the openssl CLI. */
export function selfSignedCertificate(): Promise<{ key: Buffer; cert: Buffer }> {
  certificate ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), 'parley-cert-'));
    try {
      const key = join(dir, 'key.pem');
      const cert = join(dir, 'cert.pem');
      await run(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'ec',
          '-pkeyopt',
          'ec_paramgen_curve:prime256v1',
          '-nodes',
          '-keyout',
          key,
          '-out',
          cert,
          '-days',
          '2',
          '-subj',
          '/CN=localhost',
          '-addext',
          'subjectAltName=DNS:localhost,IP:127.0.0.1',
        ],
        { timeout: 20_000 },
      );
      return { key: await readFile(key), cert: await readFile(cert) };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
  return certificate;
}

function smtpError(refusal: Refusal): Error {
  return Object.assign(new Error(refusal.text ?? 'Refused by the test'), { responseCode: refusal.code });
}

export async function startSmtpServer(options: TestSmtpOptions = {}): Promise<TestSmtpServer> {
  const mode = options.tls ?? 'none';
  const mails: ReceivedMail[] = [];
  let refusals: Refusal[] = [];
  let authFailures = 0;

  /** The refusal for this command, counting it down; undefined to accept. */
  const refusalFor = (stage: SmtpStage, address?: string): Refusal | undefined => {
    const found = refusals.find(
      (r) => r.stage === stage && (r.address === undefined || r.address.toLowerCase() === address?.toLowerCase()),
    );
    if (found?.times !== undefined) {
      found.times -= 1;
      if (found.times <= 0) refusals = refusals.filter((r) => r !== found);
    }
    return found;
  };

  const tlsOptions: Partial<SMTPServerOptions> = mode === 'none' ? {} : await selfSignedCertificate();
  const disabledCommands = [...(mode === 'none' ? ['STARTTLS'] : []), ...(options.auth === undefined ? ['AUTH'] : [])];
  const server = new SMTPServer({
    ...tlsOptions,
    secure: mode === 'tls',
    disabledCommands,
    // Pooled clients keep their connections open: close() ends them after this, not after 30 s.
    closeTimeout: 200,
    logger: false,
    banner: 'Parley test SMTP server',
    authOptional: options.auth === undefined,
    // The 'none' mode is plain text by definition; over STARTTLS, AUTH waits for the upgrade.
    allowInsecureAuth: mode === 'none',
    authMethods: ['PLAIN', 'LOGIN'],
    size: 50 * 1024 * 1024,
    onAuth(auth, _session, callback) {
      const expected = options.auth;
      if (expected && auth.username === expected.username && auth.password === expected.password) {
        callback(null, { user: auth.username });
        return;
      }
      authFailures += 1;
      callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onMailFrom(_address, _session, callback) {
      const refusal = refusalFor('mail');
      callback(refusal ? smtpError(refusal) : undefined);
    },
    onRcptTo(address, _session, callback) {
      const refusal = refusalFor('rcpt', address.address);
      callback(refusal ? smtpError(refusal) : undefined);
    },
    onData(stream, session: SMTPServerSession, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const refusal = refusalFor('data');
        if (refusal) {
          callback(smtpError(refusal));
          return;
        }
        const from = session.envelope.mailFrom;
        const raw = Buffer.concat(chunks);
        const accept = () => {
          mails.push({
            mailFrom: from === false ? '' : from.address,
            rcptTo: session.envelope.rcptTo.map((r) => r.address),
            raw,
            secure: session.secure,
            user: typeof session.user === 'string' ? session.user : null,
            at: performance.now(),
          });
          callback(null);
        };
        if (!options.onMail) return accept();
        options.onMail(raw).then(accept, (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))));
      });
    },
  });
  // A client that goes away mid-session is not the test's failure.
  server.on('error', () => {});
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (server.server.address() as AddressInfo).port;

  return {
    host: '127.0.0.1',
    port,
    mails,
    get authFailures() {
      return authFailures;
    },
    refuse(refusal) {
      refusals.push({ ...refusal });
    },
    accept() {
      refusals = [];
    },
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (mails.length < count) {
        if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${count} mails (got ${mails.length})`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return mails;
    },
    close() {
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

// ---------------------------------------------------------------------------
// Outbound mail tests: an email inbox sending through a test server, the real job runner, waits.

/** SMTP settings of an inbox that sends through `server` (the certificate is self-signed: not verified unless asked). */
export function smtpSettingsFor(server: TestSmtpServer, tls: 'none' | 'starttls' | 'tls' = 'none', extra: Record<string, unknown> = {}) {
  return { host: server.host, port: server.port, username: '', password: '', tls, tls_skip_verify: true, ...extra };
}

/**
 * The real job runner with the registered `email.deliver` handler only (no other worker of the
 * app), polling often and retrying within a fraction of a second; stop it, then close the pools.
 */
export function startMailRunner(deps: AppDeps): { stop(): Promise<void> } {
  const handler = jobHandlers['email.deliver'];
  if (!handler) throw new Error('no email.deliver handler in workers.ts');
  const runner = startJobRunner(deps, { 'email.deliver': handler }, { pollIntervalMs: 50, baseDelayMs: 40, maxDelayMs: 200 });
  return {
    async stop() {
      await runner.stop();
      closeEmailTransports(deps);
    },
  };
}
