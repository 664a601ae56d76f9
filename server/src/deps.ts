// The plain dependencies every service receives. Built once in main.ts (or a test), passed down.
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { AuthFailureLimiter } from './auth/auth-failures.ts';
import type { CredentialCache } from './auth/credential-cache.ts';
import type { Config } from './config.ts';
import type { DB, DbListener } from './db/database.ts';
import type { EventCommits } from './db/event-commits.ts';
import type { JobSignals } from './jobs/jobs.service.ts';
import type { Metrics } from './metrics/metrics.ts';
import type { MediaStorage } from './media/media.storage.ts';
import type { OidcClients } from './oidc/oidc.client.ts';
import type { EventBus } from './realtime/bus.ts';

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

export interface AppDeps {
  readonly config: Config;
  readonly db: DB;
  readonly dbKind: 'pglite' | 'postgres';
  readonly ping: () => Promise<void>;
  /** A dedicated database session for LISTEN and advisory locks (the realtime relay). */
  readonly openDbListener: () => Promise<DbListener>;
  /** This process's commits that recorded domain events (the relay's wake-up; other processes hear a NOTIFY). */
  readonly eventCommits: Pick<EventCommits, 'subscribe' | 'origin'>;
  readonly bus: EventBus;
  readonly clock: Clock;
  readonly log: FastifyBaseLogger;
  readonly credentials: CredentialCache;
  /** Failed API authentications per client address (429 past the limit). */
  readonly authFailures: AuthFailureLimiter;
  /** Redis for shared rate limits, or null for in-process limits. */
  readonly redis: Redis | null;
  /** Prefix for every Redis key and channel of this app. */
  readonly redisPrefix: string;
  /** Wakes this app's job runners when a job is enqueued (the jobs table stays the queue). */
  readonly jobSignals: JobSignals;
  /** Where the bytes of uploaded files live (local disk or S3); closed with the runtime. */
  readonly storage: MediaStorage;
  /** This instance's discovered single sign-on providers (oidc/oidc.client.ts). */
  readonly oidcClients: OidcClients;
  /** This instance's Prometheus registry and the counters written where things happen (metrics/). */
  readonly metrics: Metrics;
}
