// The only module that reads the environment. loadConfig is a pure parse of an env object
// into a frozen, typed EnvConfig (it reads and writes no file); a bad value stops startup
// with one line naming the variable. What lives in DATA_DIR (the generated secret key) is
// added by setup.ts when the runtime opens, giving the Config the app runs with.
import { isIP } from 'node:net';
import { isAbsolute, join, resolve } from 'node:path';
import { canonicalTimeZone } from './business-hours/zoned-time.ts';
import { isEmailAddress } from './http/formats.ts';

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly baseUrl: string;
  readonly dataDir: string;
  readonly databaseUrl: string | null;
  /** Connections per instance in the PostgreSQL pool. */
  readonly databasePoolSize: number;
  /** Prepare each statement once per connection (turn off behind a pooler that cannot keep them). */
  readonly databasePreparedStatements: boolean;
  /** HTTP server processes on this machine (node:cluster); more than 1 needs PostgreSQL and Redis. */
  readonly serverProcesses: number;
  readonly redisUrl: string | null;
  /** SECRET_KEY, or (when it is unset) the key kept in DATA_DIR/secret_key. */
  readonly secretKey: Buffer;
  readonly adminEmail: string | null;
  readonly adminPassword: string | null;
  readonly logLevel: LogLevel;
  readonly bodyLimitBytes: number;
  /** The HTTP server's timeouts (docs/operations.md, "Reverse proxy"), in ms. */
  readonly httpTimeouts: HttpTimeouts;
  readonly sessionTtlSeconds: number;
  /** Fastify's trustProxy: false, true (every hop: only behind a proxy that overwrites X-Forwarded-For), a hop count, or proxy addresses/CIDRs. */
  readonly trustProxy: boolean | number | string[];
  readonly loginRateLimitPerMinute: number;
  /** Failed logins on one account from every address per hour (LOGIN_ACCOUNT_FAILURES_PER_HOUR). */
  readonly loginAccountFailuresPerHour: number;
  /** Failed API authentications per client address per minute before 429 (0 = no limit). */
  readonly authFailureLimitPerMinute: number;
  /** Widget HTTP requests per client address per minute (0 = no limit). */
  readonly widgetRateLimitPerMinute: number;
  /** Widget messages, uploads and new conversations per widget user per minute (0 = no limit). */
  readonly widgetMessageRateLimitPerMinute: number;
  readonly timezone: string;
  readonly webhookAllowList: readonly string[];
  /** PUSH_ALLOW_HOSTS: push service hosts the address guard lets through (and lets use http). */
  readonly pushAllowList: readonly string[];
  /** Webhook requests one instance sends at once (WEBHOOK_CONCURRENCY). */
  readonly webhookConcurrency: number;
  /** Of those, at most this many to one webhook (WEBHOOK_CONCURRENCY_PER_WEBHOOK): a slow receiver never holds them all. */
  readonly webhookConcurrencyPerWebhook: number;
  /** A webhook request not answered within this is a failed attempt (WEBHOOK_TIMEOUT_SECONDS, in ms). */
  readonly webhookTimeoutMs: number;
  /** Run the job runner and periodic tasks in this instance (false: HTTP only). */
  readonly workers: boolean;
  /** Jobs one instance runs at once. */
  readonly jobConcurrency: number;
  /** Where uploaded files live: local disk under DATA_DIR/uploads, or an S3-compatible bucket. */
  readonly storage: StorageConfig;
  /** Largest file an agent may upload (UPLOAD_MAX_BYTES). */
  readonly uploadMaxBytes: number;
  /** Lifetime of a signed media URL (MEDIA_URL_TTL_SECONDS). */
  readonly mediaUrlTtlSeconds: number;
  /** Time allowed to each request to an OIDC identity provider (discovery, token, userinfo, keys). */
  readonly oidcTimeoutSeconds: number;
  /** How long one AI completion may take, the provider's answer included, before a 504 (AI_TIMEOUT_MS). */
  readonly aiTimeoutMs: number;
  /** AI completions per agent per minute (0 = no limit; AI_RATE_LIMIT_PER_MINUTE). */
  readonly aiRateLimitPerMinute: number;
  /** The largest mail an email inbox takes in (EMAIL_MAX_MESSAGE_MB); larger ones are listed as skipped. */
  readonly emailMaxMessageBytes: number;
  /** Time allowed to one SMTP or IMAP connection step before it counts as failed (EMAIL_TIMEOUT_SECONDS). */
  readonly emailTimeoutSeconds: number;
  /** Bearer token for GET /metrics on the main port (METRICS_TOKEN); null: the route answers 404 there. */
  readonly metricsToken: string | null;
  /** A separate port serving /metrics without a token (METRICS_PORT; 0 picks a free one); null: none. */
  readonly metricsPort: number | null;
  /** The address the metrics port binds to (METRICS_HOST): loopback unless the scraper is elsewhere. */
  readonly metricsHost: string;
  /** Audit log entries are deleted after this many days (AUDIT_RETENTION_DAYS); 0 keeps them forever. */
  readonly auditRetentionDays: number;
  /** The SMTP server of system mail to agents (SMTP_URL); null: the features that mail agents answer 422. */
  readonly smtp: SmtpConfig | null;
  /** The From of system mail (MAIL_FROM): `address` or `Name <address>`; null when unset. */
  readonly mailFrom: string | null;
}

/** SMTP_URL, parsed: `smtp://` (STARTTLS when the server offers it) or `smtps://` (TLS from the first byte). */
export interface SmtpConfig {
  readonly host: string;
  readonly port: number;
  /** smtps: implicit TLS. */
  readonly secure: boolean;
  /** Empty: no AUTH. */
  readonly username: string;
  readonly password: string;
}

/**
 * The environment, parsed: a Config whose secretKey is null when SECRET_KEY is unset (setup
 * then reads or creates DATA_DIR/secret_key).
 */
export type EnvConfig = Omit<Config, 'secretKey'> & { readonly secretKey: Buffer | null };

export type StorageConfig =
  | { readonly kind: 'local'; readonly dir: string }
  | {
      readonly kind: 's3';
      readonly bucket: string;
      readonly region: string;
      readonly endpoint: string | null;
      /** Null: the AWS SDK's default credential chain (instance role, AWS_* variables, profile). */
      readonly credentials: { readonly accessKeyId: string; readonly secretAccessKey: string } | null;
      readonly forcePathStyle: boolean;
    };

export interface HttpTimeouts {
  /** A request (headers and body) must arrive within this (HTTP_REQUEST_TIMEOUT_SECONDS). */
  readonly requestMs: number;
  /** A request's headers must arrive within this (HTTP_HEADERS_TIMEOUT_SECONDS; at most the request timeout). */
  readonly headersMs: number;
  /** An idle keep-alive connection is closed after this (HTTP_KEEP_ALIVE_TIMEOUT_SECONDS). */
  readonly keepAliveMs: number;
  /** A connection on which nothing moves either way for this long is closed (HTTP_IDLE_TIMEOUT_SECONDS). */
  readonly idleMs: number;
}

function httpTimeouts(env: Env): HttpTimeouts {
  const requestMs = integer(env, 'HTTP_REQUEST_TIMEOUT_SECONDS', 300, 5, 3600) * 1000;
  const headersMs = integer(env, 'HTTP_HEADERS_TIMEOUT_SECONDS', 30, 1, 300) * 1000;
  if (headersMs > requestMs) throw new ConfigError('HTTP_HEADERS_TIMEOUT_SECONDS must not be above HTTP_REQUEST_TIMEOUT_SECONDS');
  return Object.freeze({
    requestMs,
    headersMs,
    keepAliveMs: integer(env, 'HTTP_KEEP_ALIVE_TIMEOUT_SECONDS', 72, 1, 600) * 1000,
    idleMs: integer(env, 'HTTP_IDLE_TIMEOUT_SECONDS', 120, 30, 3600) * 1000,
  });
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** A bad value, quoted for the error line: escaped (never a second line) and cut when long. */
function shown(raw: string): string {
  return JSON.stringify(raw.length > 80 ? `${raw.slice(0, 80)}…` : raw);
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be an integer between ${min} and ${max}, got ${shown(raw)}`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function url(env: Env, name: string, protocols: readonly string[]): string | null {
  const raw = env[name];
  if (raw === undefined || raw === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL (${protocols.join(' or ')}), got an unparsable value`);
  }
  if (!protocols.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${protocols.join(' or ')}, got ${shown(parsed.protocol)}`);
  }
  return raw;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (['1', 'true', 'yes'].includes(raw.toLowerCase())) return true;
  if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false;
  throw new ConfigError(`${name} must be true or false, got ${shown(raw)}`);
}

/**
 * TRUST_PROXY: `false`; `true` (trust every hop); a number of proxies in front (the client is
 * that many hops from the right of X-Forwarded-For, so a forged left part is ignored); or a
 * comma-separated list of proxy addresses or CIDR ranges.
 */
function trustProxy(env: Env): boolean | number | string[] {
  const raw = env['TRUST_PROXY']?.trim();
  if (raw === undefined || raw === '') return false;
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops === 0) return false;
    if (hops > 10) throw new ConfigError(`TRUST_PROXY as a number of proxies must be between 0 and 10, got ${hops}`);
    return hops;
  }
  if (/^[a-z]+$/i.test(raw)) return boolean({ TRUST_PROXY: raw }, 'TRUST_PROXY', false);
  const entries = raw.split(',').map((entry) => entry.trim());
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const validBits = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (family === 0 || !validBits || extra !== undefined) {
      throw new ConfigError(
        `TRUST_PROXY must be true, false, a number of proxies, or proxy addresses/CIDR ranges separated by commas; ${shown(entry)} is none of these`,
      );
    }
  }
  return Object.freeze(entries) as string[];
}

/** WEBHOOK_ALLOW_HOSTS (or PUSH_ALLOW_HOSTS): host names, IP addresses or CIDR blocks, comma-separated. */
function allowHosts(env: Env, variable = 'WEBHOOK_ALLOW_HOSTS'): string[] {
  const entries = (env[variable] || '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  for (const entry of entries) {
    const bare = entry.replace(/^\[(.*)\]$/, '$1');
    const [network = '', prefix, extra] = bare.split('/');
    const family = isIP(network);
    const validCidr =
      prefix !== undefined &&
      extra === undefined &&
      family !== 0 &&
      /^\d{1,3}$/.test(prefix) &&
      Number(prefix) <= (family === 4 ? 32 : 128);
    const validHost =
      prefix === undefined &&
      (family !== 0 || /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*\.?$/.test(bare));
    if (!validCidr && !validHost) {
      throw new ConfigError(`${variable} entries must be host names, IP addresses or CIDR blocks (10.0.0.0/8), got ${shown(entry)}`);
    }
  }
  return entries;
}

/** SECRET_KEY (at least 32 characters), or null: setup then keeps a generated one in DATA_DIR. */
function secretKey(env: Env): Buffer | null {
  const raw = env['SECRET_KEY'];
  if (raw === undefined || raw === '') return null;
  if (raw.length < 32) throw new ConfigError(`SECRET_KEY must be at least 32 characters long, got ${raw.length}`);
  return Buffer.from(raw, 'utf8');
}

const S3_BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const S3_REGION = /^[a-z0-9-]{1,32}$/;

/** S3 storage when S3_BUCKET is set; otherwise local disk. S3_* without S3_BUCKET is a mistake worth stopping for. */
function storage(env: Env, dataDir: string): StorageConfig {
  const bucket = env['S3_BUCKET'] || '';
  if (bucket === '') {
    for (const name of ['S3_REGION', 'S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE']) {
      if (env[name]) throw new ConfigError(`${name} is set but S3_BUCKET is not; set S3_BUCKET to store uploads in S3, or unset ${name}`);
    }
    return Object.freeze({ kind: 'local', dir: join(dataDir, 'uploads') });
  }
  if (!S3_BUCKET.test(bucket) || bucket.includes('..')) {
    throw new ConfigError(`S3_BUCKET must be a bucket name (3-63 lowercase letters, digits, dots, hyphens), got ${shown(bucket)}`);
  }
  const region = env['S3_REGION'] || 'us-east-1';
  if (!S3_REGION.test(region)) throw new ConfigError(`S3_REGION must be a region name such as eu-west-1, got ${shown(region)}`);
  const accessKeyId = env['S3_ACCESS_KEY_ID'] || '';
  const secretAccessKey = env['S3_SECRET_ACCESS_KEY'] || '';
  if ((accessKeyId === '') !== (secretAccessKey === ''))
    throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together');
  return Object.freeze({
    kind: 's3',
    bucket,
    region,
    endpoint: url(env, 'S3_ENDPOINT', ['http:', 'https:']),
    credentials: accessKeyId ? Object.freeze({ accessKeyId, secretAccessKey }) : null,
    forcePathStyle: boolean(env, 'S3_FORCE_PATH_STYLE', false),
  });
}

/** METRICS_TOKEN: long enough that guessing it is hopeless (the route has no failure limit of its own). */
function metricsToken(env: Env): string | null {
  const raw = env['METRICS_TOKEN'];
  if (raw === undefined || raw === '') return null;
  if (raw.length < 16) throw new ConfigError(`METRICS_TOKEN must be at least 16 characters long, got ${raw.length}`);
  if (!/^[\x21-\x7e]+$/.test(raw)) throw new ConfigError('METRICS_TOKEN must be printable ASCII without spaces');
  return raw;
}

/** SMTP_URL: smtp(s)://[user:pass@]host[:port]; the port defaults to 587 (smtp) or 465 (smtps). Never echoes the value (it holds a password). */
function smtpUrl(env: Env): SmtpConfig | null {
  const raw = env['SMTP_URL'];
  if (raw === undefined || raw === '') return null;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError('SMTP_URL must be a URL such as smtp://user:password@mail.example.com:587, got an unparsable value');
  }
  if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') {
    throw new ConfigError(`SMTP_URL must use smtp: or smtps:, got ${shown(parsed.protocol)}`);
  }
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (host === '') throw new ConfigError('SMTP_URL must name a host');
  if ((parsed.pathname !== '' && parsed.pathname !== '/') || parsed.search !== '' || parsed.hash !== '') {
    throw new ConfigError('SMTP_URL must be smtp(s)://user:password@host:port, with nothing after the port');
  }
  const secure = parsed.protocol === 'smtps:';
  const port = parsed.port === '' ? (secure ? 465 : 587) : Number(parsed.port);
  if (port < 1) throw new ConfigError('SMTP_URL must have a port between 1 and 65535');
  let username: string;
  let password: string;
  try {
    username = decodeURIComponent(parsed.username);
    password = decodeURIComponent(parsed.password);
  } catch {
    throw new ConfigError('SMTP_URL has a user name or password that is not valid percent-encoding');
  }
  if (password !== '' && username === '') throw new ConfigError('SMTP_URL has a password but no user name');
  return Object.freeze({ host, port, secure, username, password });
}

/** MAIL_FROM: `parley@example.com` or `Parley <parley@example.com>`. */
function mailFrom(env: Env): string | null {
  const raw = env['MAIL_FROM']?.trim();
  if (raw === undefined || raw === '') return null;
  const named = /^([^<>\r\n\0]*)<([^<>\s]+)>$/.exec(raw);
  const address = named ? (named[2] ?? '') : raw;
  if (!isEmailAddress(address) || /[\r\n\0]/.test(raw)) {
    throw new ConfigError(`MAIL_FROM must be an address or Name <address>, got ${shown(raw)}`);
  }
  return raw;
}

export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): EnvConfig {
  const port = integer(env, 'PORT', 9000, 0, 65535);
  const host = env['HOST'] || '0.0.0.0';
  const baseUrl = (url(env, 'BASE_URL', ['http:', 'https:']) ?? `http://localhost:${port}`).replace(/\/+$/, '');
  const rawDataDir = env['DATA_DIR'] || './data';
  const dataDir = isAbsolute(rawDataDir) ? rawDataDir : resolve(cwd, rawDataDir);
  const databaseUrl = url(env, 'DATABASE_URL', ['postgres:', 'postgresql:']);
  const redisUrl = url(env, 'REDIS_URL', ['redis:', 'rediss:']);
  const logLevel = (env['LOG_LEVEL'] || 'info').toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel))
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${shown(env['LOG_LEVEL'] ?? '')}`);
  const adminEmail = env['ADMIN_EMAIL'] ? env['ADMIN_EMAIL'].trim().toLowerCase() : null;
  const adminPassword = env['ADMIN_PASSWORD'] || null;
  if (adminEmail && !isEmailAddress(adminEmail)) throw new ConfigError('ADMIN_EMAIL must be an email address');
  if (adminPassword !== null && adminPassword.length < 10) throw new ConfigError('ADMIN_PASSWORD must be at least 10 characters long');
  if ((adminEmail === null) !== (adminPassword === null)) throw new ConfigError('ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  const timezone = canonicalTimeZone(env['TIMEZONE'] || 'UTC');
  if (timezone === null)
    throw new ConfigError(`TIMEZONE must be an IANA time zone such as Europe/Paris, got ${shown(env['TIMEZONE'] ?? '')}`);
  const serverProcesses = integer(env, 'SERVER_PROCESSES', 1, 1, 64);
  if (serverProcesses > 1 && !databaseUrl) {
    throw new ConfigError('SERVER_PROCESSES above 1 needs DATABASE_URL: the embedded database belongs to one process');
  }
  if (serverProcesses > 1 && !redisUrl) {
    throw new ConfigError(
      'SERVER_PROCESSES above 1 needs REDIS_URL: the processes share events, credential changes and rate limits through Redis',
    );
  }
  const webhookAllowList = allowHosts(env);
  return Object.freeze({
    port,
    host,
    baseUrl,
    dataDir,
    databaseUrl,
    databasePoolSize: integer(env, 'DATABASE_POOL_SIZE', 20, 1, 1000),
    databasePreparedStatements: boolean(env, 'DATABASE_PREPARED_STATEMENTS', true),
    serverProcesses,
    redisUrl,
    secretKey: secretKey(env),
    adminEmail,
    adminPassword,
    logLevel,
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 1_048_576, 1024, 1_073_741_824),
    httpTimeouts: httpTimeouts(env),
    sessionTtlSeconds: integer(env, 'SESSION_TTL_SECONDS', 7 * 24 * 3600, 60, 365 * 24 * 3600),
    trustProxy: trustProxy(env),
    loginRateLimitPerMinute: integer(env, 'LOGIN_RATE_LIMIT_PER_MINUTE', 20, 1, 100000),
    loginAccountFailuresPerHour: integer(env, 'LOGIN_ACCOUNT_FAILURES_PER_HOUR', 100, 1, 1_000_000),
    authFailureLimitPerMinute: integer(env, 'AUTH_FAILURE_LIMIT_PER_MINUTE', 60, 0, 100000),
    widgetRateLimitPerMinute: integer(env, 'WIDGET_RATE_LIMIT_PER_MINUTE', 600, 0, 1_000_000),
    widgetMessageRateLimitPerMinute: integer(env, 'WIDGET_MESSAGE_RATE_LIMIT_PER_MINUTE', 30, 0, 100000),
    timezone,
    webhookAllowList: Object.freeze(webhookAllowList),
    pushAllowList: Object.freeze(allowHosts(env, 'PUSH_ALLOW_HOSTS')),
    webhookConcurrency: integer(env, 'WEBHOOK_CONCURRENCY', 64, 1, 1024),
    webhookConcurrencyPerWebhook: integer(env, 'WEBHOOK_CONCURRENCY_PER_WEBHOOK', 4, 1, 256),
    webhookTimeoutMs: integer(env, 'WEBHOOK_TIMEOUT_SECONDS', 10, 1, 60) * 1000,
    workers: boolean(env, 'WORKERS', true),
    jobConcurrency: integer(env, 'JOB_CONCURRENCY', 4, 1, 256),
    storage: storage(env, dataDir),
    // The media.size column is a 32-bit integer.
    uploadMaxBytes: integer(env, 'UPLOAD_MAX_BYTES', 25 * 1024 * 1024, 1, 2_147_483_647),
    mediaUrlTtlSeconds: integer(env, 'MEDIA_URL_TTL_SECONDS', 3600, 10, 7 * 24 * 3600),
    oidcTimeoutSeconds: integer(env, 'OIDC_TIMEOUT_SECONDS', 10, 1, 120),
    aiTimeoutMs: integer(env, 'AI_TIMEOUT_MS', 30_000, 100, 600_000),
    aiRateLimitPerMinute: integer(env, 'AI_RATE_LIMIT_PER_MINUTE', 20, 0, 100000),
    emailMaxMessageBytes: integer(env, 'EMAIL_MAX_MESSAGE_MB', 25, 1, 200) * 1024 * 1024,
    emailTimeoutSeconds: integer(env, 'EMAIL_TIMEOUT_SECONDS', 30, 1, 600),
    metricsToken: metricsToken(env),
    metricsPort: env['METRICS_PORT'] ? integer(env, 'METRICS_PORT', 0, 0, 65535) : null,
    metricsHost: env['METRICS_HOST'] || '127.0.0.1',
    auditRetentionDays: integer(env, 'AUDIT_RETENTION_DAYS', 365, 0, 36500),
    smtp: smtpUrl(env),
    mailFrom: mailFrom(env),
  });
}
