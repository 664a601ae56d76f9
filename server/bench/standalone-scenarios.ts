// The scenarios that start what they need of their own once the HTTP scenarios' servers are
// stopped: the first start on an empty embedded database, realtime (Parley with Redis under
// thousands of sockets), webhooks (Parley delivering to receivers in this process) and email
// (each direction in a child process).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildDatabaseImage } from '../scripts/build-db-image.ts';
import { runEmail } from './email.ts';
import { EMAIL_IDS, type EmailBenchReport } from './email-report.ts';
import type { BenchOptions } from './options.ts';
import { startParley, stopChild } from './processes.ts';
import { type RealtimeReport, runRealtime, type ServerContext } from './realtime.ts';
import type { RealtimeFixtures } from './realtime-plan.ts';
import { progress, ROOT } from './run-env.ts';
import { runWebhooks } from './webhooks.ts';
import type { WebhookBenchReport } from './webhooks-report.ts';

/**
 * From spawning the server on an empty embedded database (a new DATA_DIR: PGlite created and
 * migrated, built-in data written) to its first 200 from /ready, as `npm start` runs it after
 * `npm install`. The median of three, each on a new directory (all three are printed).
 */
export async function measureFirstStart(secretKey: string, tmpDir: string): Promise<number> {
  progress('- First start on an empty embedded database (3 times)');
  // As `npm start` does first (ensure-built.ts): the migrated image made when missing.
  await buildDatabaseImage((line) => progress(`    ${line}`));
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const dataDir = join(tmpDir, `first-start-${i}`);
    const begun = performance.now();
    const child = await startParley({ root: ROOT, databaseUrl: null, dataDir, secretKey, logDir: tmpDir, logName: `first-start-${i}.log` });
    times.push((performance.now() - begun) / 1000);
    await stopChild(child.pid);
    rmSync(dataDir, { recursive: true, force: true });
  }
  progress(`    ${times.map((t) => `${t.toFixed(2)} s`).join(', ')}`);
  return [...times].sort((a, b) => a - b)[1] as number;
}

/** What the realtime and webhooks scenarios start their Parley instances with: the run's database, directories and Redis. */
function serverContext(options: BenchOptions, secretKey: string, tmpDir: string): ServerContext {
  return {
    root: ROOT,
    databaseUrl: options.databaseUrl,
    dataDir: join(tmpDir, 'data'),
    secretKey,
    logDir: tmpDir,
    redisUrl: options.redisUrl,
    profileDir: options.profileDir,
  };
}

/** The realtime scenario (realtime.ts) on the agents and visitors seeded for it. */
export function benchRealtime(
  options: BenchOptions,
  secretKey: string,
  tmpDir: string,
  fixtures: RealtimeFixtures,
): Promise<RealtimeReport> {
  return runRealtime(serverContext(options, secretKey, tmpDir), fixtures, options.realtime, progress);
}

/** The webhooks scenario (webhooks.ts), its webhooks created with the admin's credentials. */
export function benchWebhooks(
  options: BenchOptions,
  secretKey: string,
  tmpDir: string,
  authorization: string,
): Promise<WebhookBenchReport> {
  const context = serverContext(options, secretKey, tmpDir);
  progress('- Webhooks: idle latency, throughput, a slow receiver beside a prompt one');
  return runWebhooks(context, authorization, options.webhooks, progress);
}

/** The email scenarios; on their own (--only=email-in,email-out) nothing is seeded nor started. */
export async function benchEmail(options: BenchOptions, wants: (id: string) => boolean): Promise<EmailBenchReport | null> {
  if (!EMAIL_IDS.some(wants)) return null;
  return runEmail({ root: ROOT, databaseUrl: options.databaseUrl, redisUrl: options.redisUrl }, options.email, wants, progress);
}
