// The run's dataset in PostgreSQL: seeded afresh (or, with --reuse, a kept one of the same scale
// vacuumed), then read for what the scenarios need: the ids they load (targets.ts), the
// dataset's counts, the agents and visitors seeded for the realtime scenario and the widget's
// inbox, and PostgreSQL's version.
import { sql } from 'kysely';
import pino from 'pino';
import type { EnvConfig } from '../src/config.ts';
import { openRuntime, prepareDatabase } from '../src/setup.ts';
import { markSeeded, recreateDatabase } from './database.ts';
import { type BenchOptions, REALTIME_ID } from './options.ts';
import type { RealtimeFixtures } from './realtime-plan.ts';
import { agentsFor, agentsPerTeam, seedRealtime } from './realtime-seed.ts';
import { progress } from './run-env.ts';
import { seedDataset, vacuumDataset } from './seed.ts';
import { countDataset, type DatasetCounts, type LoadTargets, loadTargets } from './targets.ts';

export interface PreparedDataset {
  /** Null when a kept database was reused. */
  seedSeconds: number | null;
  targets: LoadTargets;
  dataset: DatasetCounts;
  /** Seeded when the realtime or widget-init scenario runs. */
  fixtures: RealtimeFixtures | null;
  postgres: string;
}

/** Seeds the dataset, or with `reuse` (a database seeded at the options' scale is there: database.ts) vacuums it; then reads it. */
export async function prepareDataset(
  config: EnvConfig,
  options: BenchOptions,
  reuse: boolean,
  wants: (id: string) => boolean,
): Promise<PreparedDataset> {
  const databaseUrl = options.databaseUrl;
  if (options.reuse && !reuse) progress(`No database seeded at scale ${options.scale} to reuse: seeding one.`);
  if (reuse) progress(`Reusing the database seeded at scale ${options.scale}.`);
  else {
    progress(`Seeding ${new URL(databaseUrl).pathname.slice(1)} at scale ${options.scale}:`);
    await recreateDatabase(databaseUrl);
  }

  const wantsRealtime = wants(REALTIME_ID);
  let fixtures: RealtimeFixtures | null = null;
  const runtime = await openRuntime(config, pino({ level: 'warn' }, pino.destination(2)));
  let seedSeconds: number | null = null;
  let targets: LoadTargets;
  let dataset: DatasetCounts;
  let postgres: string;
  try {
    if (reuse) {
      await prepareDatabase(runtime.deps.db);
      const started = performance.now();
      await vacuumDataset(runtime.deps.db);
      progress(`Vacuumed and analysed the reused database in ${((performance.now() - started) / 1000).toFixed(1)} s.`);
    } else {
      seedSeconds = (await seedDataset(runtime.deps, options.scale, progress)).seconds;
      await markSeeded(databaseUrl, options.scale);
      progress(`Seeded in ${seedSeconds.toFixed(0)} s.`);
    }
    targets = await loadTargets(runtime.deps);
    dataset = await countDataset(runtime.deps.db, targets.agent.id);
    if (wantsRealtime || wants('widget-init')) {
      const rt = options.realtime;
      fixtures = await seedRealtime(
        runtime.deps,
        wantsRealtime
          ? { agents: agentsFor(rt.agentSockets, rt.tabs), visitors: rt.widgetSockets, agentsPerTeam: agentsPerTeam(rt.tabs) }
          : { agents: 0, visitors: 0, agentsPerTeam: 1 },
        progress,
      );
    }
    const { rows } = await sql<{ server_version: string }>`show server_version`.execute(runtime.deps.db);
    postgres = rows[0]?.server_version ?? 'unknown';
  } finally {
    await runtime.close();
  }
  progress(
    `Dataset: ${dataset.conversations} conversations, ${dataset.messages} messages, ${dataset.contacts} contacts; ` +
      `the benchmark agent has ${dataset.benchAgentConversations} assigned conversations.`,
  );
  return { seedSeconds, targets, dataset, fixtures, postgres };
}
