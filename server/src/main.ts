// Reads config, opens the database, migrates, builds the app, listens, shuts down gracefully.
import pino from 'pino';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { ensureFirstAdmin, openRuntime, prepareDatabase } from './setup.ts';
import { startWakeRelayOnly, startWorkers, type Workers } from './workers.ts';

async function main(): Promise<void> {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`parley: configuration error: ${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
  const log = pino({
    level: config.logLevel,
    redact: { paths: ['req.headers.authorization', 'req.headers.cookie', 'password', '*.password', 'api_secret', '*.api_secret'], censor: '[redacted]' },
  });
  const runtime = await openRuntime(config, log);
  const { deps } = runtime;
  const applied = await prepareDatabase(deps.db);
  if (applied.length > 0) log.info({ migrations: applied }, 'applied database migrations');
  await ensureFirstAdmin(deps);
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
    }, 15_000);
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

main().catch((error: unknown) => {
  process.stderr.write(`parley: failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
