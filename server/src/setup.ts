// Opens what the app depends on (database, bus, Redis, the secret key kept in DATA_DIR) and
// brings the database to the current schema and seed data. Used by main.ts, the CLI and the tests.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { createAdmin, countAgents } from './agents/agents.service.ts';
import { issueSetupToken } from './first-run/first-run.service.ts';
import { memoryAuthFailureLimiter, noAuthFailureLimit, redisAuthFailureLimiter } from './auth/auth-failures.ts';
import { CredentialCache } from './auth/credential-cache.ts';
import { type Config, ConfigError, type EnvConfig } from './config.ts';
import { type DB, migrateToLatest, openDatabase } from './db/database.ts';
import { readMigratedImage, writeMigratedImage } from './db/image.ts';
import { migrations } from './db/migrations/index.ts';
import { type AppDeps, type Clock, systemClock } from './deps.ts';
import { createJobSignals, readQueueDepths } from './jobs/jobs.service.ts';
import { openStorage } from './media/media.storage.ts';
import { createMetrics } from './metrics/metrics.ts';
import { createOidcClients } from './oidc/oidc.client.ts';
import { createMemoryBus, createRedisBus } from './realtime/bus.ts';
import { seedRoles } from './roles/roles.service.ts';
import { seedStatusesAndPriorities } from './statuses/statuses.service.ts';
import { SYSTEM_ACTOR } from './audit/audit.service.ts';

export interface Runtime {
  deps: AppDeps;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** Keep the embedded database in memory instead of under DATA_DIR (tests). */
  inMemory?: boolean;
  /** The in-memory database starts as this image (tests: migrated once, see test/helpers.ts). */
  inMemoryImage?: Blob;
  /** Who opens the embedded database (its lock names it): `server` (default), `cli <command>`. */
  owner?: string;
  /** Create the embedded database when DATA_DIR holds none (default true). */
  createDatabase?: boolean;
  /** PostgreSQL schema to isolate this runtime in (tests). */
  schema?: string;
  redisPrefix?: string;
  clock?: Clock;
}

export async function openRuntime(envConfig: EnvConfig, log: FastifyBaseLogger, options: RuntimeOptions = {}): Promise<Runtime> {
  const metrics = createMetrics({ served: envConfig.metricsToken !== null || envConfig.metricsPort !== null });
  const database = await openDatabase({
    databaseUrl: envConfig.databaseUrl,
    pgliteDir: options.inMemory ? null : envConfig.dataDir,
    ...(options.inMemory && options.inMemoryImage ? { pgliteImage: options.inMemoryImage } : {}),
    poolSize: envConfig.databasePoolSize,
    preparedStatements: envConfig.databasePreparedStatements,
    log,
    ...(options.owner ? { owner: options.owner } : {}),
    ...(options.createDatabase === false ? { create: false } : {}),
    ...(options.schema ? { schema: options.schema } : {}),
    // Statements are timed only when someone reads the figures.
    ...(metrics.served ? { onQuery: metrics.observeQuery } : {}),
  });
  const redisPrefix = options.redisPrefix ?? 'parley:';
  let redis: Redis | null = null;
  let bus = createMemoryBus();
  let config: Config;
  try {
    // After the database opened: an opener that was refused wrote nothing into DATA_DIR.
    config = withSecretKey(envConfig);
    if (config.redisUrl) {
      redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 3, enableOfflineQueue: true });
      redis.on('error', (err) => log.warn({ err: err.message }, 'redis connection error'));
      bus = await createRedisBus({
        url: config.redisUrl,
        prefix: redisPrefix,
        onError: (err) => log.warn({ err: err.message }, 'redis bus error'),
      });
    }
  } catch (error) {
    redis?.disconnect();
    await database.close();
    throw error;
  }
  const clock = options.clock ?? systemClock;
  const limit = config.authFailureLimitPerMinute;
  const authFailures =
    limit === 0
      ? noAuthFailureLimit
      : redis
        ? redisAuthFailureLimiter(redis, redisPrefix, limit, (err) =>
            log.warn({ err: err instanceof Error ? err.message : String(err) }, 'auth failure limit: redis error, not limiting'),
          )
        : memoryAuthFailureLimiter(limit, clock);
  const storage = await openStorage(config, log);
  const deps: AppDeps = {
    config,
    db: database.db,
    dbKind: database.kind,
    ping: database.ping,
    openDbListener: database.openListener,
    eventCommits: database.eventCommits,
    bus,
    clock,
    log,
    credentials: new CredentialCache(),
    authFailures,
    redis,
    redisPrefix,
    jobSignals: createJobSignals(),
    storage,
    oidcClients: createOidcClients(),
    metrics,
  };
  metrics.watch({
    engine: database.kind,
    pool: database.poolStats,
    queue: () => readQueueDepths(deps),
    onError: (what, error) =>
      log.warn({ err: error instanceof Error ? error.message : String(error) }, `metrics: could not read the ${what}`),
  });
  return {
    deps,
    async close() {
      await bus.close();
      await storage.close();
      if (redis) await redis.quit().catch(() => undefined);
      await database.close();
    },
  };
}

/**
 * The config the app runs with: SECRET_KEY, or else the key kept in DATA_DIR/secret_key,
 * generated there (readable by the owner only) the first time.
 */
export function withSecretKey(config: EnvConfig): Config {
  if (config.secretKey) return config as Config;
  const file = join(config.dataDir, 'secret_key');
  let stored: string;
  try {
    stored = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    mkdirSync(config.dataDir, { recursive: true });
    stored = randomBytes(32).toString('base64url');
    try {
      writeFileSync(file, stored + '\n', { mode: 0o600, flag: 'wx' });
    } catch (writeError) {
      // Another instance on the same DATA_DIR (PostgreSQL mode) wrote it first: use that one.
      if ((writeError as NodeJS.ErrnoException).code !== 'EEXIST') throw writeError;
      stored = readFileSync(file, 'utf8').trim();
    }
  }
  if (stored.length < 32) throw new ConfigError(`SECRET_KEY is not set and ${file} holds fewer than 32 characters`);
  return Object.freeze({ ...config, secretKey: Buffer.from(stored, 'utf8') });
}

/** Migrations, then the seed data every installation has (built-in roles, statuses, priorities). */
export async function prepareDatabase(db: DB, log?: FastifyBaseLogger): Promise<string[]> {
  const started = performance.now();
  const applied = await migrateToLatest(
    db,
    log ? (name, index, total) => log.info({ migration: name }, `applying database migration ${index} of ${total}: ${name}`) : undefined,
    log
      ? (name) => log.info({ index: name }, `building the index ${name} (writes go on meanwhile; a large table takes minutes)`)
      : undefined,
  );
  if (applied.length > 0) {
    log?.info({ migrations: applied, ms: Math.round(performance.now() - started) }, `applied ${applied.length} database migrations`);
  }
  // Every migration just ran: a new database, which gets its built-in data now (later starts only check it).
  if (applied.length === Object.keys(migrations).length) log?.info('creating the built-in roles, statuses and priorities');
  await db.transaction().execute(async (trx) => {
    await seedRoles(trx);
    await seedStatusesAndPriorities(trx);
  });
  return applied;
}

/**
 * The migrated image of the embedded database (db/image.ts), made now when it is missing: a
 * migrated, prepared in-memory database, dumped.
 */
export async function ensureMigratedImage(): Promise<Blob> {
  const existing = readMigratedImage();
  if (existing) return existing;
  const fresh = await openDatabase({ databaseUrl: null, pgliteDir: null });
  try {
    await prepareDatabase(fresh.db);
    const image = await (fresh.dumpImage as () => Promise<Blob>)();
    await writeMigratedImage(image);
    return image;
  } finally {
    await fresh.close();
  }
}

/**
 * The first admin comes from ADMIN_EMAIL/ADMIN_PASSWORD when no agent exists yet; without them,
 * the log shows a one-time setup token for the web app's setup form (first-run/). The token is
 * printed here only: request logs never carry it (it travels in a POST body).
 */
export async function ensureFirstAdmin(deps: AppDeps): Promise<void> {
  if ((await countAgents(deps)) > 0) return;
  const { adminEmail, adminPassword } = deps.config;
  if (adminEmail && adminPassword) {
    deps.log.info('creating the first admin agent from ADMIN_EMAIL and ADMIN_PASSWORD');
    const admin = await createAdmin(deps, SYSTEM_ACTOR, { email: adminEmail, password: adminPassword });
    deps.log.info({ agentId: admin.id, email: admin.email }, 'created the first admin agent from ADMIN_EMAIL');
    return;
  }
  const token = await issueSetupToken(deps);
  if (token) deps.log.warn(firstAdminHint(deps.config.baseUrl, token, deps.dbKind));
}

/**
 * How to create the first admin: the setup form with the token, or the environment. The embedded
 * database belongs to the running server, so the CLI is named only for PostgreSQL.
 */
function firstAdminHint(baseUrl: string, token: string, dbKind: 'pglite' | 'postgres'): string {
  const env = `ADMIN_EMAIL=you@example.com ADMIN_PASSWORD='<at least 10 characters>' npm start`;
  const cli = `npm run cli -- create-admin --email you@example.com --password '<at least 10 characters>'`;
  return (
    `No agent exists yet. To create the first admin, open ${baseUrl}/setup and paste this one-time setup token ` +
    `(valid 24 hours; a restart prints a new one and voids this one): ${token}  ` +
    (dbKind === 'pglite'
      ? `Or stop the server (Ctrl-C) and start it again with: ${env}`
      : `Or create it with: ${cli} (same DATABASE_URL), or restart with ADMIN_EMAIL and ADMIN_PASSWORD set`)
  );
}
