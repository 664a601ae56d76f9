// Reads config, opens the database, migrates, builds the app, listens, shuts down gracefully.
// With SERVER_PROCESSES above 1 this process is a supervisor: it migrates once, then runs that
// many server processes (node:cluster) sharing the port, restarts one that dies (after a
// growing delay when they keep dying), and stops them all on SIGTERM/SIGINT. They coordinate
// like separate instances: through PostgreSQL and Redis.
import cluster, { type Worker } from 'node:cluster';
import pino, { type Logger } from 'pino';
import { buildApp } from './app.ts';
import { ConfigError, type EnvConfig, loadConfig } from './config.ts';
import { DataDirBusyError, describeHolder } from './db/data-dir-lock.ts';
import { type MetricsServer, startMetricsServer } from './metrics/metrics.routes.ts';
import { ensureFirstAdmin, openRuntime, prepareDatabase } from './setup.ts';
import { startWakeRelayOnly, startWorkers, type Workers } from './workers.ts';

/** What a server process tells its supervisor once it listens. */
const READY = 'parley:ready';
/** A process that served this long before dying is restarted at once; sooner, after a growing delay. */
const STABLE_MS = 60_000;
const MAX_RESTART_DELAY_MS = 30_000;
const SHUTDOWN_MS = 15_000;
/** Exit codes: a bad configuration (EX_CONFIG), the embedded database in use by another process (EX_TEMPFAIL). */
const EX_CONFIG = 78;
const EX_TEMPFAIL = 75;

/**
 * Log lines are written synchronously. pino's default asynchronous stdout flushes its last
 * lines on exit, and when stdout is a pipe whose reader is gone (`npm start | cat` stopped by
 * the same Ctrl-C) that flush retries the broken pipe forever: the process spun instead of
 * exiting. A synchronous write sees the broken pipe at once, and pino stops logging.
 */
function logger(config: EnvConfig): Logger {
  return pino(
    {
      level: config.logLevel,
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', 'password', '*.password', 'api_secret', '*.api_secret'],
        censor: '[redacted]',
      },
    },
    pino.destination({ dest: 1, sync: true }),
  );
}

async function prepare(config: EnvConfig, log: Logger): Promise<void> {
  const runtime = await openRuntime(config, log);
  try {
    await prepareDatabase(runtime.deps.db, log);
    await ensureFirstAdmin(runtime.deps);
  } finally {
    await runtime.close();
  }
}

async function serve(config: EnvConfig, log: Logger): Promise<void> {
  // Signals are handled from the start: a stop during startup is a clean stop too.
  let runtime: Awaited<ReturnType<typeof openRuntime>> | null = null;
  let app: Awaited<ReturnType<typeof buildApp>> | null = null;
  let workers: Workers | null = null;
  let metricsServer: MetricsServer | null = null;
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      log.error('shutdown took longer than 15 s; exiting');
      process.exit(1);
    }, SHUTDOWN_MS);
    timer.unref();
    try {
      // Stop accepting at once; running jobs finish or give their claims back while
      // in-flight requests drain; the database closes last, since both still use it.
      await Promise.all([app?.close(), workers?.stop(), metricsServer?.close()]);
      await runtime?.close();
      log.info('stopped');
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  runtime = await openRuntime(config, log);
  const { deps } = runtime;
  // Under a supervisor the database is already migrated; running it again is a quick no-op.
  await prepareDatabase(deps.db, log);
  if (cluster.isPrimary) await ensureFirstAdmin(deps);
  app = await buildApp(deps);
  if (stopping) return;
  await app.listen({ port: config.port, host: config.host });
  metricsServer = await startMetricsServer(deps);
  if (stopping) return;
  workers = config.workers ? startWorkers(deps) : startWakeRelayOnly(deps);
  // startupMs counts from the process start, module loading included.
  const startupMs = Math.round(performance.now());
  log.info(
    {
      database: deps.dbKind,
      bus: deps.bus.kind,
      baseUrl: config.baseUrl,
      workers: config.workers,
      metricsPort: metricsServer?.port,
      startupMs,
    },
    'parley is ready',
  );
  process.send?.(READY);
}

async function supervise(config: EnvConfig, log: Logger): Promise<void> {
  const processes = new Map<Worker, { readyAt: number | null }>();
  let stopping = false;
  /** Processes that died soon after becoming ready, in a row: the next restart waits longer. */
  let quickDeaths = 0;
  const stopAll = (reason: string, code: number) => {
    if (stopping) return;
    stopping = true;
    log.info({ reason, processes: processes.size }, 'stopping the server processes');
    const timer = setTimeout(() => {
      log.error('server processes did not stop within 20 s; killing them');
      for (const worker of processes.keys()) worker.process.kill('SIGKILL');
      process.exit(1);
    }, SHUTDOWN_MS + 5_000);
    timer.unref();
    let failed = code !== 0;
    if (processes.size === 0) process.exit(code);
    cluster.on('exit', (_worker, exitCode, signal) => {
      // Stopped by the signal before it could handle it (very early in its start): a clean stop.
      if (exitCode !== 0 && signal !== 'SIGTERM') failed = true;
      if (processes.size === 0) process.exit(failed ? 1 : 0);
    });
    for (const worker of processes.keys()) worker.process.kill('SIGTERM');
  };
  const fork = () => {
    const worker = cluster.fork();
    processes.set(worker, { readyAt: null });
    worker.on('message', (message: unknown) => {
      const entry = processes.get(worker);
      if (message === READY && entry) entry.readyAt = Date.now();
    });
  };
  cluster.on('exit', (worker, code, signal) => {
    const entry = processes.get(worker);
    processes.delete(worker);
    if (stopping) return;
    if (!entry?.readyAt) {
      // It never served: the next one would fail the same way (configuration, database, Redis).
      log.error({ pid: worker.process.pid, code, signal }, 'a server process failed to start; stopping');
      stopAll('startup failure', 1);
      return;
    }
    quickDeaths = Date.now() - entry.readyAt < STABLE_MS ? quickDeaths + 1 : 0;
    const delayMs = quickDeaths === 0 ? 0 : Math.min(MAX_RESTART_DELAY_MS, 1000 * 2 ** (quickDeaths - 1));
    log.error({ pid: worker.process.pid, code, signal, restartInMs: delayMs }, 'a server process died; starting another');
    setTimeout(() => {
      if (!stopping) fork();
    }, delayMs);
  });
  process.on('SIGTERM', () => stopAll('SIGTERM', 0));
  process.on('SIGINT', () => stopAll('SIGINT', 0));
  await prepare(config, log);
  if (stopping) return;
  for (let i = 0; i < config.serverProcesses; i++) fork();
  log.info({ processes: config.serverProcesses, port: config.port }, 'parley supervisor started');
}

/** The one line a start that cannot go on prints, and its exit code. */
function startFailure(error: unknown, config: EnvConfig | null): [string, number] {
  if (error instanceof ConfigError) return [`parley: configuration error: ${error.message}`, EX_CONFIG];
  if (error instanceof DataDirBusyError && config) {
    const advice =
      error.holder.role === 'server' ? 'stop it first, or give this one another DATA_DIR' : 'wait for it to finish, then start again';
    return [`parley: cannot start: DATA_DIR ${config.dataDir} is in use by ${describeHolder(error.holder)}: ${advice}`, EX_TEMPFAIL];
  }
  return [`parley: failed to start: ${error instanceof Error ? error.message : String(error)}`, 1];
}

/** Starts the server (or, with SERVER_PROCESSES above 1, its supervisor); start.mjs calls it. */
export async function main(): Promise<void> {
  let config: EnvConfig | null = null;
  try {
    config = loadConfig();
    const log = logger(config);
    if (config.serverProcesses > 1 && cluster.isPrimary) await supervise(config, log);
    else await serve(config, log);
  } catch (error) {
    const [line, code] = startFailure(error, config);
    process.stderr.write(`${line}\n`);
    process.exit(code);
  }
}

// `node server/src/main.ts` starts too (the tests, `npm run dev`); start.mjs imports it first.
if (import.meta.main) await main();
