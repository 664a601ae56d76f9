// Test helpers: a fresh app on a fresh database (in-memory PGlite, or a private
// PostgreSQL schema when DATABASE_URL is set), plus factories that go through the API.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import pino from 'pino';
import { createAgent, generateApiKey } from '../src/agents/agents.service.ts';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import type { Principal } from '../src/auth/credential-cache.ts';
import type { AppDeps, Clock } from '../src/deps.ts';
import { claimDueJobs, completeJob } from '../src/jobs/jobs.queries.ts';
import { ensureMigratedImage, openRuntime, prepareDatabase } from '../src/setup.ts';
import { jobHandlers } from '../src/workers.ts';
import { SYSTEM_ACTOR } from '../src/audit/audit.service.ts';

/** The spec's Agent record fields (contacts share the shape), sorted. */
export const AGENT_RECORD_FIELDS: readonly string[] = [
  'api_key',
  'api_key_last_used_at',
  'availability_status',
  'avatar_url',
  'created_at',
  'custom_attributes',
  'email',
  'enabled',
  'first_name',
  'id',
  'last_active_at',
  'last_login_at',
  'last_name',
  'permissions',
  'phone_number',
  'phone_number_country_code',
  'roles',
  'teams',
  'two_factor_enabled',
  'type',
  'updated_at',
];

/** The calling agent's own record (GET /agents/me, sign-in): the Agent record and `mfa_setup_required`. */
export const MY_AGENT_RECORD_FIELDS: readonly string[] = [...AGENT_RECORD_FIELDS, 'mfa_setup_required'].sort();

export interface Caller {
  id: number;
  email: string;
  apiKey: string;
  apiSecret: string;
  /** Headers for the Basic scheme. */
  headers: Record<string, string>;
}

export interface TestApp {
  app: FastifyInstance;
  deps: AppDeps;
  admin: Caller;
  /** Injects a request and parses the JSON body. */
  call(options: InjectOptions & { as?: Caller | null }): Promise<LightMyRequestResponse & { body: string; json: () => unknown }>;
  makeAgent(input?: { roles?: string[]; teams?: number[]; email?: string; password?: string; first_name?: string }): Promise<Caller>;
  /**
   * A second app instance on the same database, as a second server process would be: on
   * PostgreSQL its own connection pool (and Redis bus) on the same schema; on PGlite the
   * same embedded database (one process can hold it).
   */
  secondInstance(): Promise<{ app: FastifyInstance; deps: AppDeps; close(): Promise<void> }>;
  close(): Promise<void>;
}

export function basicHeader(key: string, secret: string): string {
  return 'Basic ' + Buffer.from(`${key}:${secret}`).toString('base64');
}

/** A clock the test moves by hand. */
export function fakeClock(start = new Date('2026-01-15T10:00:00Z')): Clock & { advance(ms: number): void; set(date: Date): void } {
  let now = start.getTime();
  return {
    now: () => new Date(now),
    advance: (ms) => {
      now += ms;
    },
    set: (date) => {
      now = date.getTime();
    },
  };
}

let counter = 0;

/**
 * Test processes share one PostgreSQL database, a schema each. Kysely's migrator lists the
 * tables of every schema (checking each schema's privileges), which fails when another
 * process drops its schema at that moment ("schema … does not exist"). So migrations hold a
 * shared advisory lock and schema drops an exclusive one: migrations run side by side, a drop
 * waits for them. The lock ends with the connection that holds it.
 *
 * It is taken by polling, never by waiting in pg_advisory_lock: a waiting statement holds a
 * snapshot, and another process's CREATE INDEX CONCURRENTLY (run under the shared lock, after its
 * migrations) waits for every older snapshot, while the waiter waits for that process's lock. A
 * cycle PostgreSQL cannot see: both would wait forever.
 */
const SCHEMA_LOCK = 727_104_001;

async function underSchemaLock<T>(databaseUrl: string, mode: 'shared' | 'exclusive', run: () => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const take = mode === 'shared' ? 'select pg_try_advisory_lock_shared($1) as locked' : 'select pg_try_advisory_lock($1) as locked';
    while (!(await client.query<{ locked: boolean }>(take, [SCHEMA_LOCK])).rows[0]?.locked) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return await run();
  } finally {
    await client.end();
  }
}

/** Drops a test schema once no other test process is migrating (see underSchemaLock). */
export async function dropSchema(databaseUrl: string, schema: string): Promise<void> {
  await underSchemaLock(databaseUrl, 'exclusive', async () => {
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    try {
      await client.query(`drop schema if exists ${schema} cascade`);
    } finally {
      await client.end();
    }
  });
}

let imageMemo: Promise<Blob> | null = null;

/** Every in-memory test database starts as the migrated image (db/image.ts): seconds saved per file. */
function migratedImage(): Promise<Blob> {
  imageMemo ??= ensureMigratedImage();
  return imageMemo;
}

/** `logLines`: every line the app logs (level debug and up) is pushed there, for tests that read the log. */
export async function buildTestApp(
  options: { clock?: Clock; env?: Record<string, string>; webDistDir?: string; logLines?: string[] } = {},
): Promise<TestApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-test-'));
  const config = loadConfig({
    DATABASE_URL: process.env['DATABASE_URL'],
    REDIS_URL: process.env['REDIS_URL'],
    DATA_DIR: dataDir,
    SECRET_KEY: 'test-secret-key-0123456789abcdefghijklmnop',
    LOG_LEVEL: 'silent',
    BASE_URL: 'http://localhost:9000',
    ...options.env,
  });
  const suffix = `${process.pid}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;
  let schema: string | undefined;
  if (config.databaseUrl) {
    schema = `t_${suffix}`;
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
  }
  // TEST_LOG=error (or debug…) shows the app's log, e.g. the error behind an unexpected 500.
  const lines = options.logLines;
  const log = lines
    ? pino(
        { level: 'debug' },
        {
          write: (line: string) => {
            lines.push(line);
          },
        },
      )
    : pino({ level: process.env['TEST_LOG'] ?? 'silent' });
  const runtime = await openRuntime(config, log, {
    inMemory: true,
    ...(config.databaseUrl ? {} : { inMemoryImage: await migratedImage() }),
    ...(schema ? { schema } : {}),
    redisPrefix: `parley-test:${suffix}:`,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  let app: FastifyInstance;
  try {
    if (config.databaseUrl) await underSchemaLock(config.databaseUrl, 'shared', () => prepareDatabase(runtime.deps.db));
    else await prepareDatabase(runtime.deps.db);
    // No web app unless a test brings one: the suite never depends on a build being there.
    app = await buildApp(runtime.deps, { webDistDir: options.webDistDir ?? join(dataDir, 'no-web-app') });
    await app.ready();
  } catch (error) {
    // Close what was opened, or its connections keep the test process alive.
    await runtime.close();
    if (schema && config.databaseUrl) {
      await dropSchema(config.databaseUrl, schema);
    }
    throw error;
  }
  const deps = runtime.deps;

  async function makeAgent(
    input: { roles?: string[]; teams?: number[]; email?: string; password?: string; first_name?: string } = {},
  ): Promise<Caller> {
    counter += 1;
    const email = input.email ?? `agent${counter}-${suffix}@example.com`.toLowerCase();
    const agent = await createAgent(deps, SYSTEM_ACTOR, null, {
      email,
      first_name: input.first_name ?? `Agent${counter}`,
      last_name: 'Test',
      roles: input.roles ?? ['Agent'],
      ...(input.teams ? { teams: input.teams } : {}),
      ...(input.password ? { password: input.password } : {}),
    });
    const pair = await generateApiKey(deps, SYSTEM_ACTOR, agent.id);
    return {
      id: agent.id,
      email,
      apiKey: pair.api_key,
      apiSecret: pair.api_secret,
      headers: { authorization: basicHeader(pair.api_key, pair.api_secret) },
    };
  }

  const admin = await makeAgent({ roles: ['Admin'], email: `admin-${suffix}@example.com`.toLowerCase(), password: 'admin-password-123' });

  async function secondInstance() {
    if (!config.databaseUrl) {
      const second = await buildApp(deps);
      await second.ready();
      return { app: second, deps, close: () => second.close() };
    }
    const other = await openRuntime(config, log, {
      inMemory: true,
      ...(schema ? { schema } : {}),
      redisPrefix: `parley-test:${suffix}:`,
      ...(options.clock ? { clock: options.clock } : {}),
    });
    const second = await buildApp(other.deps);
    await second.ready();
    return {
      app: second,
      deps: other.deps,
      async close() {
        await second.close();
        await other.close();
      },
    };
  }

  return {
    app,
    deps,
    admin,
    makeAgent,
    secondInstance,
    async call(opts) {
      const { as, ...rest } = opts;
      const caller = as === undefined ? admin : as;
      const headers = { ...(caller ? caller.headers : {}), ...(rest.headers as Record<string, string> | undefined) };
      const response = await app.inject({ ...rest, headers });
      return Object.assign(response, { json: () => JSON.parse(response.body) as unknown });
    },
    async close() {
      await app.close();
      await runtime.close();
      if (schema && config.databaseUrl) {
        await dropSchema(config.databaseUrl, schema);
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs the due jobs of the given kinds the way a worker does (claim, the handler registered
 * in workers.ts, complete), one at a time until none is due, and returns how many ran. For
 * tests, where no worker runs: call it where a worker would have done the work by then.
 */
export async function runDueJobs(deps: AppDeps, kinds: readonly string[]): Promise<number> {
  const lockedBy = `test:${process.pid}`;
  let ran = 0;
  for (;;) {
    const [job] = await claimDueJobs(deps.db, { kinds, limit: 1, lockedBy, leaseMs: 60_000, clockNow: deps.clock.now() });
    if (!job) return ran;
    const handler = jobHandlers[job.kind];
    if (!handler) throw new Error(`no handler is registered in workers.ts for the job kind ${job.kind}`);
    const context = { id: String(job.id), attempts: job.attempts, maxAttempts: job.max_attempts, signal: new AbortController().signal };
    await handler(deps, job.payload, context);
    await completeJob(deps.db, { id: job.id, lockedBy, attempts: job.attempts }, deps.clock.now());
    ran += 1;
  }
}

export type ErrorBody = { status: string; message: string; data: unknown; error_type: string };
/** What `call` answers; `headers` is optional so that a plain { statusCode, body, json } can be checked too. */
type Answer = { statusCode: number; body: string; json: () => unknown; headers?: Record<string, unknown> };

const ERROR_KEYS = ['data', 'error_type', 'message', 'status'];

function fail(label: string, message: string, res: Answer): never {
  throw new Error(`${label ? `${label}: ` : ''}${message}: ${res.statusCode} ${res.body}`);
}

/**
 * Asserts an error envelope (whatever its status code) and returns it: exactly status
 * "error", message (non-empty), data and error_type (docs/api.md, Envelope and errors);
 * when the answer has headers, a JSON content type and an X-Request-Id.
 */
export function errorOf(res: Answer, label = ''): ErrorBody {
  let body: ErrorBody;
  try {
    body = res.json() as ErrorBody;
  } catch {
    return fail(label, 'expected a JSON error envelope', res);
  }
  if (typeof body !== 'object' || body === null || Object.keys(body).sort().join() !== ERROR_KEYS.join())
    fail(label, `expected exactly the keys ${ERROR_KEYS}`, res);
  if (body.status !== 'error' || typeof body.error_type !== 'string' || typeof body.message !== 'string' || body.message.length === 0) {
    fail(label, 'expected status "error", an error_type and a message', res);
  }
  if (res.headers) {
    if (!/^application\/json/.test(String(res.headers['content-type'])))
      fail(label, `expected a JSON content type, got ${String(res.headers['content-type'])}`, res);
    const requestId = res.headers['x-request-id'];
    if (typeof requestId !== 'string' || requestId.length === 0) fail(label, 'expected an X-Request-Id header', res);
  }
  return body;
}

/** Asserts an error envelope with this status and type, and returns it. */
export function assertError(res: Answer, status: number, errorType: string, label = ''): ErrorBody {
  if (res.statusCode !== status) fail(label, `expected ${status} ${errorType}`, res);
  const body = errorOf(res, label);
  if (body.error_type !== errorType) fail(label, `expected error_type ${errorType}`, res);
  return body;
}

/** Asserts a success envelope (200, exactly status "success" and data) and returns its data. */
export function dataOf<T = Record<string, unknown>>(res: Answer, label = ''): T {
  if (res.statusCode !== 200) fail(label, 'expected 200', res);
  const body = res.json() as { status: string; data: T };
  if (body.status !== 'success' || Object.keys(body).sort().join() !== 'data,status')
    fail(label, 'expected exactly { status: "success", data }', res);
  return body.data;
}

/** Every (method, path) the router knows, read from Fastify's own route tree. */
export function registeredRoutes(app: FastifyInstance): Array<{ method: string; path: string }> {
  const out: Array<{ method: string; path: string }> = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)(?:├── |└── )(.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 4;
    stack.length = depth;
    stack.push(match[2] ?? '');
    const path = stack.join('');
    for (const method of (match[3] ?? '').split(', ').filter(Boolean)) out.push({ method, path });
  }
  return out;
}

/** An API-key caller who reads every conversation and its messages (for the queries that take a Principal). */
export function readingEverything(userId: number): Principal {
  return {
    userId,
    email: null,
    firstName: 'Admin',
    lastName: 'Test',
    permissions: new Set(['conversations:read', 'conversations:read_all', 'messages:read']),
    teamIds: [],
    method: 'api_key',
    sessionId: null,
  };
}
