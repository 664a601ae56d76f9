// Opens what the app depends on (database, bus, Redis) and brings the database to
// the current schema and seed data. Used by main.ts, the CLI and the tests.
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { createAdmin, countAgents } from './agents/agents.service.ts';
import { memoryAuthFailureLimiter, noAuthFailureLimit, redisAuthFailureLimiter } from './auth/auth-failures.ts';
import { CredentialCache } from './auth/credential-cache.ts';
import type { Config } from './config.ts';
import { type DB, migrateToLatest, openDatabase } from './db/database.ts';
import { type AppDeps, type Clock, systemClock } from './deps.ts';
import { createJobSignals } from './jobs/jobs.service.ts';
import { openStorage } from './media/media.storage.ts';
import { createMemoryBus, createRedisBus } from './realtime/bus.ts';
import { seedRoles } from './roles/roles.service.ts';
import { seedStatusesAndPriorities } from './statuses/statuses.service.ts';

export interface Runtime {
  deps: AppDeps;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  /** Keep the embedded database in memory instead of under DATA_DIR (tests). */
  inMemory?: boolean;
  /** PostgreSQL schema to isolate this runtime in (tests). */
  schema?: string;
  redisPrefix?: string;
  clock?: Clock;
}

export async function openRuntime(config: Config, log: FastifyBaseLogger, options: RuntimeOptions = {}): Promise<Runtime> {
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: options.inMemory ? null : config.dataDir,
    poolSize: config.databasePoolSize,
    preparedStatements: config.databasePreparedStatements,
    ...(options.schema ? { schema: options.schema } : {}),
  });
  const redisPrefix = options.redisPrefix ?? 'parley:';
  let redis: Redis | null = null;
  let bus = createMemoryBus();
  try {
    if (config.redisUrl) {
      redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 3, enableOfflineQueue: true });
      redis.on('error', (err) => log.warn({ err: err.message }, 'redis connection error'));
      bus = await createRedisBus({ url: config.redisUrl, prefix: redisPrefix, onError: (err) => log.warn({ err: err.message }, 'redis bus error') });
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
        ? redisAuthFailureLimiter(redis, redisPrefix, limit, (err) => log.warn({ err: err instanceof Error ? err.message : String(err) }, 'auth failure limit: redis error, not limiting'))
        : memoryAuthFailureLimiter(limit, clock);
  const storage = openStorage(config, log);
  const deps: AppDeps = {
    config,
    db: database.db,
    dbKind: database.kind,
    ping: database.ping,
    bus,
    clock,
    log,
    credentials: new CredentialCache(),
    authFailures,
    redis,
    redisPrefix,
    jobSignals: createJobSignals(),
    storage,
  };
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

/** Migrations, then the seed data every installation has (built-in roles, statuses, priorities). */
export async function prepareDatabase(db: DB): Promise<string[]> {
  const applied = await migrateToLatest(db);
  await db.transaction().execute(async (trx) => {
    await seedRoles(trx);
    await seedStatusesAndPriorities(trx);
  });
  return applied;
}

/** Contract §2: the first admin comes from ADMIN_EMAIL/ADMIN_PASSWORD when no agent exists yet. */
export async function ensureFirstAdmin(deps: AppDeps): Promise<void> {
  if ((await countAgents(deps)) > 0) return;
  const { adminEmail, adminPassword } = deps.config;
  if (adminEmail && adminPassword) {
    const admin = await createAdmin(deps, { email: adminEmail, password: adminPassword });
    deps.log.info({ agentId: admin.id, email: admin.email }, 'created the first admin agent from ADMIN_EMAIL');
    return;
  }
  deps.log.warn(
    'No agent exists yet. Create the first admin with: npm run cli -- create-admin --email you@example.com --password "<at least 10 characters>" (or set ADMIN_EMAIL and ADMIN_PASSWORD and restart)',
  );
}
