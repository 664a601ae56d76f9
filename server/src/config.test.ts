// loadConfig, variable by variable: the default, values it accepts (and what they become), and
// values it refuses with one line naming the variable. Then what setup adds from DATA_DIR.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ConfigError, type EnvConfig, loadConfig } from './config.ts';
import { withSecretKey } from './setup.ts';

const DATA_DIR = join(tmpdir(), 'parley-config-test-never-created');

interface Variable {
  name: string;
  read: (config: EnvConfig) => unknown;
  default: unknown;
  /** Accepted values and what they become. */
  valid: Array<[string, unknown]>;
  invalid: string[];
  /** Other variables this one needs to be valid. */
  with?: Record<string, string>;
  /** The variables under which the default is checked, when not `with`. */
  defaultWith?: Record<string, string>;
}

const S3 = { S3_BUCKET: 'parley-files' };
const storage = (config: EnvConfig) => config.storage;

const variables: Variable[] = [
  {
    name: 'PORT',
    read: (c) => c.port,
    default: 9000,
    valid: [
      ['8080', 8080],
      ['0', 0],
      ['65535', 65535],
    ],
    invalid: ['eighty', '-1', '65536', '80.5', ' 80'],
  },
  {
    name: 'HOST',
    read: (c) => c.host,
    default: '0.0.0.0',
    valid: [
      ['127.0.0.1', '127.0.0.1'],
      ['::', '::'],
    ],
    invalid: [],
  },
  {
    name: 'BASE_URL',
    read: (c) => c.baseUrl,
    default: 'http://localhost:9000',
    valid: [
      ['https://help.example.com', 'https://help.example.com'],
      ['https://example.com/helpdesk/', 'https://example.com/helpdesk'],
    ],
    invalid: ['help.example.com', 'ftp://example.com', 'https://'],
  },
  {
    name: 'DATA_DIR',
    read: (c) => c.dataDir,
    default: join('/srv/parley', 'data'),
    valid: [
      ['/var/lib/parley', '/var/lib/parley'],
      ['store', '/srv/parley/store'],
    ],
    invalid: [],
  },
  {
    name: 'DATABASE_URL',
    read: (c) => c.databaseUrl,
    default: null,
    valid: [
      ['postgres://parley@db:5432/parley', 'postgres://parley@db:5432/parley'],
      ['postgresql://db/parley', 'postgresql://db/parley'],
    ],
    invalid: ['mysql://db/parley', 'not a url'],
  },
  {
    name: 'DATABASE_POOL_SIZE',
    read: (c) => c.databasePoolSize,
    default: 20,
    valid: [
      ['1', 1],
      ['1000', 1000],
    ],
    invalid: ['0', '1001', 'ten'],
  },
  {
    name: 'DATABASE_PREPARED_STATEMENTS',
    read: (c) => c.databasePreparedStatements,
    default: true,
    valid: [
      ['false', false],
      ['0', false],
      ['no', false],
      ['TRUE', true],
      ['yes', true],
    ],
    invalid: ['maybe', 'off'],
  },
  {
    name: 'SERVER_PROCESSES',
    read: (c) => c.serverProcesses,
    default: 1,
    valid: [
      ['1', 1],
      ['4', 4],
      ['64', 64],
    ],
    invalid: ['0', '65', 'two'],
    with: { DATABASE_URL: 'postgres://db/parley', REDIS_URL: 'redis://cache:6379' },
  },
  {
    name: 'REDIS_URL',
    read: (c) => c.redisUrl,
    default: null,
    valid: [
      ['redis://cache:6379', 'redis://cache:6379'],
      ['rediss://cache', 'rediss://cache'],
    ],
    invalid: ['http://cache', 'cache:6379'],
  },
  {
    name: 'SECRET_KEY',
    read: (c) => c.secretKey?.toString('utf8') ?? null,
    default: null,
    valid: [['k'.repeat(32), 'k'.repeat(32)]],
    invalid: ['k'.repeat(31), 'short'],
  },
  {
    name: 'ADMIN_EMAIL',
    read: (c) => c.adminEmail,
    default: null,
    valid: [
      [' Owner@Example.COM ', 'owner@example.com'],
      ['zoë@exämple.com', 'zoë@exämple.com'],
    ],
    invalid: ['owner', 'owner at example.com', 'a@b@example.com', 'owner@', 'a..b@example.com', 'owner@-bad-.com', '.a@example.com'],
    with: { ADMIN_PASSWORD: 'a long passphrase' },
    defaultWith: {},
  },
  {
    name: 'ADMIN_PASSWORD',
    read: (c) => c.adminPassword,
    default: null,
    valid: [['0123456789', '0123456789']],
    invalid: ['012345678'],
    with: { ADMIN_EMAIL: 'owner@example.com' },
    defaultWith: {},
  },
  {
    name: 'LOG_LEVEL',
    read: (c) => c.logLevel,
    default: 'info',
    valid: [
      ['debug', 'debug'],
      ['WARN', 'warn'],
      ['silent', 'silent'],
    ],
    invalid: ['verbose', 'loud'],
  },
  {
    name: 'BODY_LIMIT_BYTES',
    read: (c) => c.bodyLimitBytes,
    default: 1_048_576,
    valid: [['1024', 1024]],
    invalid: ['1023', '1073741825', '1e6'],
  },
  {
    name: 'LOGIN_ACCOUNT_FAILURES_PER_HOUR',
    read: (c) => c.loginAccountFailuresPerHour,
    default: 100,
    valid: [['1', 1]],
    invalid: ['0', '1000001', 'many'],
  },
  {
    name: 'HTTP_REQUEST_TIMEOUT_SECONDS',
    read: (c) => c.httpTimeouts.requestMs,
    default: 300_000,
    valid: [
      ['30', 30_000],
      ['3600', 3_600_000],
    ],
    invalid: ['4', '3601', '1m'],
  },
  {
    name: 'HTTP_HEADERS_TIMEOUT_SECONDS',
    read: (c) => c.httpTimeouts.headersMs,
    default: 30_000,
    valid: [
      ['1', 1_000],
      ['300', 300_000],
    ],
    invalid: ['0', '301', 'ten'],
  },
  {
    name: 'HTTP_KEEP_ALIVE_TIMEOUT_SECONDS',
    read: (c) => c.httpTimeouts.keepAliveMs,
    default: 72_000,
    valid: [['5', 5_000]],
    invalid: ['0', '601'],
  },
  {
    name: 'HTTP_IDLE_TIMEOUT_SECONDS',
    read: (c) => c.httpTimeouts.idleMs,
    default: 120_000,
    valid: [['30', 30_000]],
    invalid: ['29', '3601'],
  },
  {
    name: 'SESSION_TTL_SECONDS',
    read: (c) => c.sessionTtlSeconds,
    default: 604_800,
    valid: [
      ['60', 60],
      ['31536000', 31_536_000],
    ],
    invalid: ['59', '31536001', '1d'],
  },
  {
    name: 'TRUST_PROXY',
    read: (c) => c.trustProxy,
    default: false,
    valid: [
      ['false', false],
      ['0', false],
      ['true', true],
      ['1', 1],
      ['10', 10],
      ['10.0.0.1', ['10.0.0.1']],
      ['10.0.0.0/8, fd00::/8', ['10.0.0.0/8', 'fd00::/8']],
    ],
    invalid: ['11', 'proxy.local', '10.0.0.0/33', '10.0.0.0/8/1', 'maybe'],
  },
  {
    name: 'LOGIN_RATE_LIMIT_PER_MINUTE',
    read: (c) => c.loginRateLimitPerMinute,
    default: 20,
    valid: [
      ['1', 1],
      ['100000', 100_000],
    ],
    invalid: ['0', '100001'],
  },
  {
    name: 'AUTH_FAILURE_LIMIT_PER_MINUTE',
    read: (c) => c.authFailureLimitPerMinute,
    default: 60,
    valid: [
      ['0', 0],
      ['100000', 100_000],
    ],
    invalid: ['-1', 'many'],
  },
  {
    name: 'WIDGET_RATE_LIMIT_PER_MINUTE',
    read: (c) => c.widgetRateLimitPerMinute,
    default: 600,
    valid: [
      ['0', 0],
      ['1000000', 1_000_000],
    ],
    invalid: ['-1', '1000001', 'lots'],
  },
  {
    name: 'WIDGET_MESSAGE_RATE_LIMIT_PER_MINUTE',
    read: (c) => c.widgetMessageRateLimitPerMinute,
    default: 30,
    valid: [
      ['0', 0],
      ['100000', 100_000],
    ],
    invalid: ['-1', '100001', '3.5'],
  },
  {
    name: 'TIMEZONE',
    read: (c) => c.timezone,
    default: 'UTC',
    valid: [
      ['Europe/Paris', 'Europe/Paris'],
      ['America/New_York', 'America/New_York'],
      ['europe/berlin', 'Europe/Berlin'],
    ],
    // An offset is not a zone name (PostgreSQL would read its sign the other way round).
    invalid: ['Mars/Olympus', 'CEST+1', '+01:00'],
  },
  {
    name: 'WEBHOOK_ALLOW_HOSTS',
    read: (c) => c.webhookAllowList,
    default: [],
    valid: [
      ['hooks.internal, 10.0.0.5 ,', ['hooks.internal', '10.0.0.5']],
      ['Localhost,127.0.0.0/8,::1,[fd00::1],fd00::/8', ['localhost', '127.0.0.0/8', '::1', '[fd00::1]', 'fd00::/8']],
    ],
    invalid: ['http://hooks.internal', '10.0.0.0/33', 'fd00::/129', 'hooks internal', '10.0.0.0/8/8', 'host_name.example', '/8'],
  },
  {
    name: 'WEBHOOK_CONCURRENCY',
    read: (c) => c.webhookConcurrency,
    default: 64,
    valid: [
      ['1', 1],
      ['1024', 1024],
    ],
    invalid: ['0', '1025', 'many'],
  },
  {
    name: 'WEBHOOK_CONCURRENCY_PER_WEBHOOK',
    read: (c) => c.webhookConcurrencyPerWebhook,
    default: 4,
    valid: [
      ['1', 1],
      ['256', 256],
    ],
    invalid: ['0', '257'],
  },
  {
    name: 'WEBHOOK_TIMEOUT_SECONDS',
    read: (c) => c.webhookTimeoutMs,
    default: 10_000,
    valid: [
      ['1', 1000],
      ['60', 60_000],
    ],
    invalid: ['0', '61', '2.5'],
  },
  {
    name: 'WORKERS',
    read: (c) => c.workers,
    default: true,
    valid: [
      ['false', false],
      ['true', true],
    ],
    invalid: ['sometimes'],
  },
  {
    name: 'JOB_CONCURRENCY',
    read: (c) => c.jobConcurrency,
    default: 4,
    valid: [
      ['1', 1],
      ['256', 256],
    ],
    invalid: ['0', '257'],
  },
  {
    name: 'UPLOAD_MAX_BYTES',
    read: (c) => c.uploadMaxBytes,
    default: 26_214_400,
    valid: [
      ['1', 1],
      ['2147483647', 2_147_483_647],
    ],
    invalid: ['0', '2147483648', 'lots'],
  },
  {
    name: 'MEDIA_URL_TTL_SECONDS',
    read: (c) => c.mediaUrlTtlSeconds,
    default: 3600,
    valid: [
      ['10', 10],
      ['604800', 604_800],
    ],
    invalid: ['9', '604801'],
  },
  {
    name: 'OIDC_TIMEOUT_SECONDS',
    read: (c) => c.oidcTimeoutSeconds,
    default: 10,
    valid: [
      ['1', 1],
      ['120', 120],
    ],
    invalid: ['0', '121', '2.5'],
  },
  {
    name: 'AI_TIMEOUT_MS',
    read: (c) => c.aiTimeoutMs,
    default: 30_000,
    valid: [
      ['100', 100],
      ['600000', 600_000],
    ],
    invalid: ['99', '600001', '30s'],
  },
  {
    name: 'AI_RATE_LIMIT_PER_MINUTE',
    read: (c) => c.aiRateLimitPerMinute,
    default: 20,
    valid: [
      ['0', 0],
      ['100000', 100_000],
    ],
    invalid: ['-1', '100001', 'many'],
  },
  {
    name: 'EMAIL_MAX_MESSAGE_MB',
    read: (c) => c.emailMaxMessageBytes,
    default: 25 * 1024 * 1024,
    valid: [
      ['1', 1024 * 1024],
      ['200', 200 * 1024 * 1024],
    ],
    invalid: ['0', '201', '25MB'],
  },
  {
    name: 'EMAIL_TIMEOUT_SECONDS',
    read: (c) => c.emailTimeoutSeconds,
    default: 30,
    valid: [
      ['1', 1],
      ['600', 600],
    ],
    invalid: ['0', '601', '30s'],
  },
  {
    name: 'AUDIT_RETENTION_DAYS',
    read: (c) => c.auditRetentionDays,
    default: 365,
    valid: [
      ['0', 0],
      ['1', 1],
      ['36500', 36500],
    ],
    invalid: ['-1', '36501', '1y', '30.5'],
  },
  {
    name: 'S3_BUCKET',
    read: (c) => (c.storage.kind === 's3' ? c.storage.bucket : c.storage.dir),
    default: join('/srv/parley', 'data', 'uploads'),
    valid: [['my-bucket.files', 'my-bucket.files']],
    invalid: ['Bad_Bucket', 'ab', 'a..b'],
  },
  {
    name: 'S3_REGION',
    read: (c) => (c.storage.kind === 's3' ? c.storage.region : null),
    default: 'us-east-1',
    valid: [['eu-west-3', 'eu-west-3']],
    invalid: ['EU West'],
    with: S3,
  },
  {
    name: 'S3_ENDPOINT',
    read: (c) => (c.storage.kind === 's3' ? c.storage.endpoint : null),
    default: null,
    valid: [['http://minio:9000', 'http://minio:9000']],
    invalid: ['minio:9000', 'ftp://minio'],
    with: S3,
  },
  {
    name: 'S3_ACCESS_KEY_ID',
    read: (c) => (c.storage.kind === 's3' ? c.storage.credentials : null),
    default: null,
    valid: [['AKIAEXAMPLE', { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'secret' }]],
    invalid: [],
    with: { ...S3, S3_SECRET_ACCESS_KEY: 'secret' },
    defaultWith: S3,
  },
  {
    name: 'S3_FORCE_PATH_STYLE',
    read: (c) => (c.storage.kind === 's3' ? c.storage.forcePathStyle : null),
    default: false,
    valid: [['true', true]],
    invalid: ['sideways'],
    with: S3,
  },
  {
    name: 'METRICS_TOKEN',
    read: (c) => c.metricsToken,
    default: null,
    valid: [['0123456789abcdef', '0123456789abcdef']],
    invalid: ['short', 'with a space in it!', '0123456789abcdé'],
  },
  {
    name: 'METRICS_PORT',
    read: (c) => c.metricsPort,
    default: null,
    valid: [
      ['9464', 9464],
      ['0', 0],
    ],
    invalid: ['metrics', '-1', '65536'],
  },
  {
    name: 'METRICS_HOST',
    read: (c) => c.metricsHost,
    default: '127.0.0.1',
    valid: [['0.0.0.0', '0.0.0.0']],
    invalid: [],
  },
  {
    name: 'SMTP_URL',
    read: (c) => c.smtp,
    default: null,
    valid: [
      ['smtp://127.0.0.1:2525', { host: '127.0.0.1', port: 2525, secure: false, username: '', password: '' }],
      ['smtp://mail.example.com', { host: 'mail.example.com', port: 587, secure: false, username: '', password: '' }],
      [
        'smtps://parley%40example.com:p%40ss%3Aword@mail.example.com',
        { host: 'mail.example.com', port: 465, secure: true, username: 'parley@example.com', password: 'p@ss:word' },
      ],
      ['smtp://[::1]:25', { host: '::1', port: 25, secure: false, username: '', password: '' }],
    ],
    invalid: [
      'mail.example.com',
      'http://mail.example.com',
      'smtp://',
      'smtp://host/path',
      'smtp://host?x=1',
      'smtp://:pass@host',
      'smtp://host:0',
      'smtp://u:%zz@host',
    ],
  },
  {
    name: 'MAIL_FROM',
    read: (c) => c.mailFrom,
    default: null,
    valid: [
      ['parley@example.com', 'parley@example.com'],
      ['Parley Support <parley@example.com>', 'Parley Support <parley@example.com>'],
    ],
    invalid: ['parley', 'Parley <not an address>', 'a@b.example\nBcc: x@y.example'],
  },
];

/** Refusals that come from two variables together, each naming the variable to fix. */
const combinations: Array<[Record<string, string>, string]> = [
  [{ SERVER_PROCESSES: '2' }, 'SERVER_PROCESSES above 1 needs DATABASE_URL'],
  [
    { HTTP_REQUEST_TIMEOUT_SECONDS: '10', HTTP_HEADERS_TIMEOUT_SECONDS: '20' },
    'HTTP_HEADERS_TIMEOUT_SECONDS must not be above HTTP_REQUEST_TIMEOUT_SECONDS',
  ],
  [{ SERVER_PROCESSES: '2', DATABASE_URL: 'postgres://db/parley' }, 'SERVER_PROCESSES above 1 needs REDIS_URL'],
  [{ ADMIN_EMAIL: 'owner@example.com' }, 'ADMIN_EMAIL and ADMIN_PASSWORD must be set together'],
  [{ ADMIN_PASSWORD: 'a long passphrase' }, 'ADMIN_EMAIL and ADMIN_PASSWORD must be set together'],
  [{ S3_REGION: 'eu-west-3' }, 'S3_REGION is set but S3_BUCKET is not'],
  [{ S3_ACCESS_KEY_ID: 'AKIA' }, 'S3_ACCESS_KEY_ID is set but S3_BUCKET is not'],
  [{ ...S3, S3_ACCESS_KEY_ID: 'AKIA' }, 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together'],
  [{ ...S3, S3_SECRET_ACCESS_KEY: 'secret' }, 'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together'],
];

function load(env: Record<string, string>): EnvConfig {
  return loadConfig(env, '/srv/parley');
}

function assertRefused(env: Record<string, string>, expected: string | RegExp): void {
  assert.throws(
    () => load(env),
    (error: unknown) => {
      assert.ok(error instanceof ConfigError, `${JSON.stringify(env)}: ${String(error)}`);
      if (typeof expected === 'string')
        assert.ok(error.message.includes(expected), `${JSON.stringify(env)}: "${error.message}" names ${expected}`);
      else assert.match(error.message, expected);
      assert.ok(!error.message.includes('\n'), `one line: ${error.message}`);
      return true;
    },
    JSON.stringify(env),
  );
}

describe('loadConfig', () => {
  for (const variable of variables) {
    it(`${variable.name}: default, accepted values, refused values`, () => {
      const defaultEnv = variable.defaultWith ?? variable.with;
      assert.deepEqual(variable.read(load({ ...defaultEnv })), variable.default, 'default');
      assert.deepEqual(variable.read(load({ ...defaultEnv, [variable.name]: '' })), variable.default, 'empty = default');
      for (const [value, expected] of variable.valid) {
        assert.deepEqual(variable.read(load({ ...variable.with, [variable.name]: value })), expected, `${variable.name}=${value}`);
      }
      for (const value of variable.invalid) assertRefused({ ...variable.with, [variable.name]: value }, variable.name);
    });
  }

  it('refuses variables that only make sense together, naming them', () => {
    for (const [env, message] of combinations) assertRefused(env, message);
  });

  it('never echoes a bad value over several lines, nor a secret', () => {
    assertRefused(
      { TIMEZONE: 'Europe/Paris\nUTC' },
      /^TIMEZONE must be an IANA time zone such as Europe\/Paris, got "Europe\/Paris\\nUTC"$/,
    );
    assertRefused({ SECRET_KEY: 'hunter2' }, /^SECRET_KEY must be at least 32 characters long, got 7$/);
    assertRefused({ SMTP_URL: 'smtp://user:hunter2hunter2@[mail' }, /^SMTP_URL must be a URL such as [^\n]*, got an unparsable value$/);
    assertRefused({ SMTP_URL: 'ftp://user:hunter2hunter2@mail' }, /^SMTP_URL must use smtp: or smtps:, got "ftp:"$/);
    assertRefused(
      { DATABASE_URL: 'postgres://user:secret@[db' },
      /^DATABASE_URL must be a URL \(postgres: or postgresql:\), got an unparsable value$/,
    );
  });

  it('is a pure parse: frozen, no file read or written, other variables ignored', () => {
    const config = loadConfig({ DATA_DIR, UNRELATED: 'x', TRUST_PROXY: '10.0.0.1', WEBHOOK_ALLOW_HOSTS: 'a' });
    assert.equal(config.secretKey, null, 'SECRET_KEY unset: left to setup');
    assert.ok(!existsSync(DATA_DIR), 'DATA_DIR is not created');
    assert.ok(Object.isFrozen(config));
    assert.ok(Object.isFrozen(config.storage));
    assert.ok(Object.isFrozen(config.webhookAllowList));
    assert.ok(Object.isFrozen(config.trustProxy));
    assert.ok(!('UNRELATED' in config));
    assert.throws(() => {
      (config as { port: number }).port = 1;
    }, TypeError);
  });

  it('resolves a relative DATA_DIR against the working folder', () => {
    assert.equal(loadConfig({ DATA_DIR: 'data' }, '/opt/app').dataDir, '/opt/app/data');
    assert.equal(loadConfig({}, '/opt/app').dataDir, '/opt/app/data');
    assert.equal(storage(loadConfig({}, '/opt/app')).kind, 'local');
  });
});

describe('the secret key kept in DATA_DIR (setup)', () => {
  it('is generated once, readable by the owner only, then read back', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-secret-'));
    try {
      const first = withSecretKey(loadConfig({ DATA_DIR: dataDir }));
      const file = join(dataDir, 'secret_key');
      assert.ok(first.secretKey.length >= 32);
      assert.equal(readFileSync(file, 'utf8').trim(), first.secretKey.toString('utf8'));
      if (process.platform !== 'win32') assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.ok(Object.isFrozen(first));
      const second = withSecretKey(loadConfig({ DATA_DIR: dataDir }));
      assert.deepEqual(second.secretKey, first.secretKey);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('SECRET_KEY wins and nothing is written', () => {
    const config = withSecretKey(loadConfig({ DATA_DIR, SECRET_KEY: 's'.repeat(40) }));
    assert.equal(config.secretKey.toString('utf8'), 's'.repeat(40));
    assert.ok(!existsSync(DATA_DIR));
  });

  it('a stored key that is too short stops startup with one line naming SECRET_KEY and the file', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-secret-'));
    try {
      writeFileSync(join(dataDir, 'secret_key'), 'short\n');
      assert.throws(
        () => withSecretKey(loadConfig({ DATA_DIR: dataDir })),
        (error: unknown) =>
          error instanceof ConfigError && /^SECRET_KEY is not set and .*secret_key holds fewer than 32 characters$/.test(error.message),
      );
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
