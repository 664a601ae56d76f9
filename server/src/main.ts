// Reads config, opens the database, migrates, builds the app, listens, shuts down gracefully.
// With WEB_CONCURRENCY above 1 this process is a supervisor: it migrates once, then runs that
// many server processes (node:cluster) sharing the port, restarts one that dies, and stops
// them all on SIGTERM/SIGINT. They coordinate like separate instances: PostgreSQL and Redis.
import cluster, { type Worker } from 'node:cluster';
import pino, { type Logger } from 'pino';
import { buildApp } from './app.ts';
import { type Config, ConfigError, loadConfig } from './config.ts';
import { ensureFirstAdmin, openRuntime, prepareDatabase } from './setup.ts';
import { startWakeRelayOnly, startWorkers, type Workers } from './workers.ts';

/** A server process that dies sooner than this after starting is not restarted (a crash loop). */
const MIN_UPTIME_MS = 10_000;
const SHUTDOWN_MS = 15_000;

function logger(config: Config): Logger {
  return pino({
    level: config.logLevel,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'password', '*.password', 'api_secret', '*.api_secret'], censor: '[redacted]' },
  });
}

async function prepare(config: Config, log: Logger): Promise<void> {
  const runtime = await openRuntime(config, log);
  try {
    const applied = await prepareDatabase(runtime.deps.db);
    if (applied.length > 0) log.info({ migrations: applied }, 'applied database migrations');
    await ensureFirstAdmin(runtime.deps);
  } finally {
    await runtime.close();
  }
}

async function serve(config: Config, log: Logger): Promise<void> {
  const runtime = await openRuntime(config, log);
  const { deps } = runtime;
  // Under a supervisor the database is already migrated; running it again is a quick no-op.
  const applied = await prepareDatabase(deps.db);
  if (applied.length > 0) log.info({ migrations: applied }, 'applied database migrations');
  if (cluster.isPrimary) await ensureFirstAdmin(deps);
  const app = await buildApp(deps);

  let workers: Workers | null = null;
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
      await Promise.all([app.close(), workers?.stop()]);
      await runtime.close();
      log.info('stopped');
      process.exit(0);
    } catch (error) {
      log.error({ err: error }, 'error during shutdown');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  if (!stopping) workers = config.workers ? startWorkers(deps) : startWakeRelayOnly(deps);
  log.info({ database: deps.dbKind, bus: deps.bus.kind, baseUrl: config.baseUrl, workers: config.workers }, 'parley is ready');
}

async function supervise(config: Config, log: Logger): Promise<void> {
  await prepare(config, log);
  const started = new Map<Worker, number>();
  let stopping = false;
  const fork = () => started.set(cluster.fork(), Date.now());
  const stopAll = (signal: string, code: number) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal, processes: started.size }, 'stopping the server processes');
    const timer = setTimeout(() => {
      log.error('server processes did not stop within 20 s; killing them');
      for (const worker of started.keys()) worker.process.kill('SIGKILL');
      process.exit(1);
    }, SHUTDOWN_MS + 5_000);
    timer.unref();
    let failed = code !== 0;
    if (started.size === 0) process.exit(code);
    cluster.on('exit', (_worker, exitCode) => {
      if (exitCode !== 0) failed = true;
      if (started.size === 0) process.exit(failed ? 1 : 0);
    });
    for (const worker of started.keys()) worker.process.kill('SIGTERM');
  };
  cluster.on('exit', (worker, code, signal) => {
    const since = started.get(worker) ?? Date.now();
    started.delete(worker);
    if (stopping) return;
    if (Date.now() - since < MIN_UPTIME_MS) {
      log.error({ pid: worker.process.pid, code, signal }, 'a server process died right after starting; stopping');
      stopAll('crash', 1);
      return;
    }
    log.error({ pid: worker.process.pid, code, signal }, 'a server process died; starting another');
    fork();
  });
  process.on('SIGTERM', () => stopAll('SIGTERM', 0));
  process.on('SIGINT', () => stopAll('SIGINT', 0));
  for (let i = 0; i < config.webConcurrency; i++) fork();
  log.info({ processes: config.webConcurrency, port: config.port }, 'parley supervisor started');
}

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`parley: configuration error: ${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
  const log = logger(config);
  if (config.webConcurrency > 1 && cluster.isPrimary) await supervise(config, log);
  else await serve(config, log);
}

main().catch((error: unknown) => {
  process.stderr.write(`parley: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
