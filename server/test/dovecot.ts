// A real IMAP server for tests: Debian's Dovecot (/usr/sbin/dovecot), started as a child process
// on 127.0.0.1 with a throwaway configuration (a free port, a base_dir and maildirs under a
// temporary folder, one user with a plaintext password), stopped by its PID. Optionally with
// TLS (a self-signed certificate made by openssl: STARTTLS on `port`, implicit TLS on
// `tlsPort`) and without IDLE (the capability left out, so clients poll).
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { ImapFlow } from 'imapflow';
import { freePort } from './process-helpers.ts';

export const DOVECOT = '/usr/sbin/dovecot';
export const IMAP_USER = 'support';
export const IMAP_PASSWORD = 'imap-secret-pw-7f3a9c';

export interface DovecotOptions {
  /** Also serve TLS: STARTTLS on `port`, implicit TLS on `tlsPort` (a self-signed certificate). */
  tls?: boolean;
  /** Leave IDLE out of the capabilities: clients must poll. */
  idle?: boolean;
  /** The IMAP port (default: a free one). */
  port?: number;
}

export interface Dovecot {
  readonly host: '127.0.0.1';
  readonly port: number;
  /** Implicit TLS (only with `tls`). */
  readonly tlsPort: number | null;
  readonly user: string;
  readonly password: string;
  /** Appends a raw mail to `mailbox` (default INBOX); answers its UID. */
  append(raw: string | Buffer, options?: { flags?: string[]; mailbox?: string; date?: Date }): Promise<number>;
  /** The flags of every mail of `mailbox`, by UID. */
  flags(mailbox?: string): Promise<Map<number, string[]>>;
  /** Creates a mailbox (no error when it exists). */
  createMailbox(name: string): Promise<void>;
  /** Deletes and creates `name` again: a new UIDVALIDITY, its mails renumbered from 1. Answers the new UIDVALIDITY. */
  recreateMailbox(name: string, mails?: Array<string | Buffer>): Promise<number>;
  /** Stops the server (SIGTERM, then SIGKILL) and starts it again on the same port and data. */
  restart(): Promise<void>;
  /** Stops the server and keeps it stopped until restart(). */
  stopServer(): Promise<void>;
  /** The server's log so far (for failing assertions). */
  log(): string;
  stop(): Promise<void>;
}

function openssl(dir: string): { cert: string; key: string } {
  const cert = join(dir, 'cert.pem');
  const key = join(dir, 'key.pem');
  execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', '/CN=localhost'],
    { stdio: 'ignore' },
  );
  return { cert, key };
}

/** Mail processes run as an unprivileged user: Dovecot's own when we are root, ourselves otherwise. */
function accounts(): { internal: string; login: string; mailUser: string; uid: number | null } {
  const me = userInfo();
  if (me.uid !== 0) return { internal: me.username, login: me.username, mailUser: me.username, uid: null };
  const uidOf = (name: string) => Number(execFileSync('id', ['-u', name]).toString().trim());
  return { internal: 'dovecot', login: 'dovenull', mailUser: 'dovecot', uid: uidOf('dovecot') };
}

function config(dir: string, port: number, tlsPort: number | null, tls: { cert: string; key: string } | null, idle: boolean): string {
  const users = accounts();
  const lines = [
    'protocols = imap',
    'listen = 127.0.0.1',
    `base_dir = ${dir}/run`,
    `state_dir = ${dir}/state`,
    `log_path = ${dir}/dovecot.log`,
    `ssl = ${tls ? 'yes' : 'no'}`,
    ...(tls ? [`ssl_cert = <${tls.cert}`, `ssl_key = <${tls.key}`] : []),
    // Plaintext logins without TLS: loopback test traffic only.
    'disable_plaintext_auth = no',
    'auth_mechanisms = plain login',
    `mail_location = maildir:${dir}/mail/%u`,
    'mail_fsync = never',
    `default_internal_user = ${users.internal}`,
    `default_login_user = ${users.login}`,
    'first_valid_uid = 0',
    ...(idle ? [] : ['imap_capability = IMAP4rev1 SASL-IR LOGIN-REFERRALS ID ENABLE LITERAL+ UIDPLUS NAMESPACE UNSELECT CHILDREN ESEARCH']),
    'passdb {',
    '  driver = passwd-file',
    `  args = scheme=PLAIN username_format=%u ${dir}/passwd`,
    '}',
    'userdb {',
    '  driver = static',
    `  args = uid=${users.mailUser} gid=${users.mailUser} home=${dir}/mail/%u`,
    '}',
    'service imap-login {',
    '  chroot =',
    '  inet_listener imap {',
    '    address = 127.0.0.1',
    `    port = ${port}`,
    '  }',
    '  inet_listener imaps {',
    '    address = 127.0.0.1',
    `    port = ${tlsPort ?? 0}`,
    ...(tlsPort ? ['    ssl = yes'] : []),
    '  }',
    '}',
    'service anvil {',
    '  chroot =',
    '}',
  ];
  return `${lines.join('\n')}\n`;
}

async function listening(port: number, child: ChildProcess, logOf: () => string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`dovecot exited (${child.exitCode}):\n${logOf()}`);
    const up = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`dovecot did not listen on ${port} within ${timeoutMs} ms:\n${logOf()}`);
}

export async function startDovecot(options: DovecotOptions = {}): Promise<Dovecot> {
  if (!existsSync(DOVECOT)) throw new Error(`${DOVECOT} is missing: apt-get install dovecot-imapd`);
  const dir = mkdtempSync(join(tmpdir(), 'parley-dovecot-'));
  // Dovecot's unprivileged processes read the passwd file and write the maildirs.
  chmodSync(dir, 0o755);
  for (const sub of ['run', 'state', 'mail']) mkdirSync(join(dir, sub));
  const users = accounts();
  if (users.uid !== null) chownSync(join(dir, 'mail'), users.uid, users.uid);
  writeFileSync(join(dir, 'passwd'), `${IMAP_USER}:{PLAIN}${IMAP_PASSWORD}::::::\n`);
  const port = options.port || (await freePort());
  const tlsPort = options.tls ? await freePort() : null;
  const tls = options.tls ? openssl(dir) : null;
  const confPath = join(dir, 'dovecot.conf');
  writeFileSync(confPath, config(dir, port, tlsPort, tls, options.idle !== false));
  const logOf = () => {
    try {
      return readFileSync(join(dir, 'dovecot.log'), 'utf8');
    } catch {
      return '';
    }
  };

  let child: ChildProcess | null = null;
  async function launch(): Promise<void> {
    // Its own process group: stopping it ends its IMAP processes too, as a real restart does.
    const started = spawn(DOVECOT, ['-F', '-c', confPath], { stdio: ['ignore', 'ignore', 'pipe'], detached: true });
    let stderr = '';
    started.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child = started;
    await listening(port, started, () => `${stderr}${logOf()}`);
    if (tlsPort !== null) await listening(tlsPort, started, () => `${stderr}${logOf()}`);
  }

  async function halt(): Promise<void> {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const group = -(running.pid as number);
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(group, name);
      } catch {
        // already gone
      }
    };
    const exited = new Promise((resolve) => running.once('exit', resolve));
    signal('SIGTERM');
    const timer = setTimeout(() => signal('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
    // The master is gone; processes it left (a client's imap, its log) go with the group.
    signal('SIGKILL');
  }

  // One administrative connection for appends and mailbox changes, opened when first needed.
  let admin: ImapFlow | null = null;
  async function client(): Promise<ImapFlow> {
    if (admin?.usable) return admin;
    const fresh = new ImapFlow({
      host: '127.0.0.1',
      port,
      secure: false,
      doSTARTTLS: false,
      auth: { user: IMAP_USER, pass: IMAP_PASSWORD },
      logger: false,
      disableAutoIdle: true,
    });
    fresh.on('error', () => undefined);
    await fresh.connect();
    admin = fresh;
    return fresh;
  }

  async function closeAdmin(): Promise<void> {
    const open = admin;
    admin = null;
    if (open?.usable) await open.logout().catch(() => open.close());
    else open?.close();
  }

  await launch();

  const dovecot: Dovecot = {
    host: '127.0.0.1',
    port,
    tlsPort,
    user: IMAP_USER,
    password: IMAP_PASSWORD,
    async append(raw, appendOptions = {}) {
      const imap = await client();
      const appended = await imap.append(appendOptions.mailbox ?? 'INBOX', raw, appendOptions.flags ?? [], appendOptions.date);
      if (!appended || appended.uid === undefined) throw new Error('dovecot did not answer the appended UID');
      return appended.uid;
    },
    async flags(mailbox = 'INBOX') {
      const imap = await client();
      const lock = await imap.getMailboxLock(mailbox, { readOnly: true });
      try {
        const mails = await imap.fetchAll('1:*', { uid: true, flags: true }, { uid: true });
        return new Map(mails.map((mail) => [mail.uid, [...(mail.flags ?? [])]]));
      } finally {
        lock.release();
      }
    },
    async createMailbox(name) {
      const imap = await client();
      await imap.mailboxCreate(name);
    },
    async recreateMailbox(name, mails = []) {
      const imap = await client();
      // Another session with the mailbox open (the reader) may make Dovecot refuse the first
      // APPENDs to the new one ("Mailbox was deleted under us"): made again until they go in.
      for (let attempt = 1; ; attempt += 1) {
        try {
          await imap.mailboxDelete(name);
          await imap.mailboxCreate(name);
          for (const raw of mails) await imap.append(name, raw);
          break;
        } catch (error) {
          const said = (error as { responseText?: string }).responseText ?? '';
          if (attempt >= 5 || !/deleted under us/i.test(said)) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
      const status = await imap.status(name, { uidValidity: true });
      if (!status || status.uidValidity === undefined) throw new Error(`dovecot did not answer the UIDVALIDITY of ${name}`);
      return Number(status.uidValidity);
    },
    async restart() {
      await closeAdmin();
      await halt();
      await launch();
    },
    async stopServer() {
      await closeAdmin();
      await halt();
    },
    log: logOf,
    async stop() {
      await closeAdmin();
      await halt();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return dovecot;
}

let sequence = 0;

/** A small plain-text mail with a unique Message-ID (unless `messageId: null`). */
export function testMail(
  options: { from?: string; to?: string; subject?: string; body?: string; messageId?: string | null; headers?: string[] } = {},
): string {
  sequence += 1;
  const messageId =
    options.messageId === undefined ? `<test-${process.pid}-${Date.now()}-${sequence}@customer.example>` : options.messageId;
  return [
    `From: ${options.from ?? 'Customer <customer@customer.example>'}`,
    `To: ${options.to ?? 'support@example.com'}`,
    `Subject: ${options.subject ?? `Question ${sequence}`}`,
    `Date: ${new Date().toUTCString()}`,
    ...(messageId === null ? [] : [`Message-ID: ${messageId}`]),
    ...(options.headers ?? []),
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    '',
    options.body ?? `Hello, this is mail ${sequence}.`,
    '',
  ].join('\r\n');
}

/** An email inbox's settings (POST /inboxes `config`) that read this Dovecot. */
export function dovecotEmailConfig(
  dovecot: Dovecot,
  imap: Partial<{
    tls: 'none' | 'starttls' | 'tls';
    tls_skip_verify: boolean;
    mailbox: string;
    password: string;
    poll_interval_seconds: number;
    import_since_hours: number;
  }> = {},
) {
  const port = imap.tls === 'tls' ? (dovecot.tlsPort ?? dovecot.port) : dovecot.port;
  return {
    imap: { host: dovecot.host, port, username: dovecot.user, password: dovecot.password, tls: 'none', ...imap },
    smtp: { host: '127.0.0.1', port: 2525, username: '', password: '', tls: 'none' },
  };
}
