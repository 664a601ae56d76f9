// `npm run bench`: seeds a realistic dataset into PostgreSQL, starts Parley and a bare Fastify
// route as child processes, loads each scenario with autocannon and prints (and writes to
// docs/performance.md) a Markdown table. Exit code 0 when the run completes, targets met or not;
// non-zero when the run itself fails. Children are stopped by PID and the database is dropped
// on the way out (unless --keep), whatever happens.
// The run's steps, in order: dataset-setup.ts, http.ts (the HTTP scenarios, planned in
// http-plan.ts), standalone-scenarios.ts (first start, realtime, webhooks, email), publish.ts.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../src/config.ts';
import { dropDatabase, isSeededAt } from './database.ts';
import { prepareDataset } from './dataset-setup.ts';
import { EMAIL_IDS } from './email-report.ts';
import { runHttpScenarios, startServers } from './http.ts';
import type { Machine, RunReport } from './http-results.ts';
import {
  type BenchOptions,
  FIRST_START_ID,
  NOTIFICATIONS_ID,
  OptionsError,
  parseOptions,
  REALTIME_ID,
  USAGE,
  WEBHOOKS_ID,
} from './options.ts';
import { killAllChildrenNow, stopAllChildren } from './processes.ts';
import { publishEmailOnly, publishRun } from './publish.ts';
import { progress, ROOT } from './run-env.ts';
import { benchEmail, benchRealtime, benchWebhooks, measureFirstStart } from './standalone-scenarios.ts';

// What must be undone on the way out, whatever happens.
const state: { tmpDir: string | null; databaseUrl: string | null; dropDatabase: boolean } = {
  tmpDir: null,
  databaseUrl: null,
  dropDatabase: false,
};
let cleaning: Promise<void> | null = null;
let interrupted = false;

/** Once, however many callers (the run's end and a signal may both ask); each waits for it to finish. */
function cleanup(): Promise<void> {
  cleaning ??= undoEverything();
  return cleaning;
}

async function undoEverything(): Promise<void> {
  await stopAllChildren();
  if (state.databaseUrl && state.dropDatabase) {
    try {
      await dropDatabase(state.databaseUrl);
      progress('Dropped the benchmark database.');
    } catch (error) {
      progress(`Could not drop the benchmark database: ${error instanceof Error ? error.message : String(error)}`);
    }
  } else if (state.databaseUrl) {
    progress('Kept the benchmark database (--keep); reuse it with --reuse.');
  }
  if (state.tmpDir) rmSync(state.tmpDir, { recursive: true, force: true });
}

function onSignal(signal: NodeJS.Signals): void {
  interrupted = true;
  progress(`\n${signal}: stopping.`);
  cleanup().finally(() => process.exit(130));
}

async function benchEmailOnly(options: BenchOptions, only: readonly string[]): Promise<void> {
  const email = await benchEmail(options, (id) => only.includes(id));
  if (email) publishEmailOnly(options, email);
}

/** The notifications scenario (notifications.ts), on a scratch schema of the benchmark's server; printed. */
async function benchNotifications(options: BenchOptions): Promise<void> {
  const { notificationsMarkdown, runNotificationsBench } = await import('./notifications.ts');
  const url = new URL(options.databaseUrl);
  url.pathname = '/postgres';
  const report = await runNotificationsBench(
    { seconds: options.duration, databaseUrl: url.toString(), redisUrl: options.redisUrl },
    progress,
  );
  process.stdout.write(`\n### Notifications\n\n${notificationsMarkdown(report)}\n\n`);
}

async function bench(options: BenchOptions): Promise<void> {
  if (options.only?.every((id) => EMAIL_IDS.includes(id))) return benchEmailOnly(options, options.only);
  if (options.only?.every((id) => id === NOTIFICATIONS_ID)) return benchNotifications(options);
  const started = performance.now();
  const loadBefore = os.loadavg()[0] ?? 0;
  const tmpDir = mkdtempSync(join(os.tmpdir(), 'parley-bench-'));
  state.tmpDir = tmpDir;
  const databaseUrl = options.databaseUrl;
  const config = loadConfig(
    { DATABASE_URL: databaseUrl, DATA_DIR: join(tmpDir, 'data'), SECRET_KEY: randomBytes(32).toString('base64url'), LOG_LEVEL: 'warn' },
    ROOT,
  );
  const secretKey = config.secretKey!.toString('utf8');

  const reuse = options.reuse && (await isSeededAt(databaseUrl, options.scale));
  state.databaseUrl = databaseUrl;
  state.dropDatabase = !options.keep;
  const only = options.only;
  const wants = (id: string) => only === null || only.includes(id);
  const { seedSeconds, targets, dataset, fixtures, postgres } = await prepareDataset(config, options, reuse, wants);

  const servers = await startServers(options, tmpDir, secretKey);
  const { settings, reports, parleyPeakRssMB } = await runHttpScenarios(servers, targets, fixtures?.inboxUuid ?? null, options, wants);
  await stopAllChildren();
  const firstStartSeconds = wants(FIRST_START_ID) ? await measureFirstStart(secretKey, tmpDir) : null;
  const realtime = wants(REALTIME_ID) && fixtures ? await benchRealtime(options, secretKey, tmpDir, fixtures) : null;
  const webhooks = wants(WEBHOOKS_ID) ? await benchWebhooks(options, secretKey, tmpDir, targets.admin.authorization) : null;
  const email = await benchEmail(options, wants);
  if (wants(NOTIFICATIONS_ID)) await benchNotifications(options);

  const cpus = os.cpus();
  const machine: Machine = {
    cpu: cpus[0]?.model.trim() ?? 'unknown',
    cores: os.availableParallelism(),
    memoryGiB: os.totalmem() / 1024 ** 3,
    node: process.version,
    postgres,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    loadBefore,
  };
  const report: RunReport = {
    date: new Date(),
    machine,
    dataset,
    scale: options.scale,
    seedSeconds,
    settings,
    processes: options.processes,
    scenarios: reports,
    totalSeconds: (performance.now() - started) / 1000,
    parleyPeakRssMB,
    firstStartSeconds,
  };
  publishRun(options, report, { realtime, webhooks, email });
}

async function main(): Promise<number> {
  let options: BenchOptions;
  try {
    options = parseOptions(process.argv.slice(2), process.env);
  } catch (error) {
    if (error instanceof OptionsError) {
      progress(`bench: ${error.message}`);
      return 2;
    }
    throw error;
  }
  if (options.help) {
    progress(USAGE);
    return 0;
  }
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', killAllChildrenNow);
  try {
    await bench(options);
    return 0;
  } catch (error) {
    if (interrupted) return 130;
    progress(`bench: the run failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    return 1;
  } finally {
    await cleanup();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    progress(`bench: ${error instanceof Error ? error.message : String(error)}`);
    killAllChildrenNow();
    process.exit(1);
  },
);
