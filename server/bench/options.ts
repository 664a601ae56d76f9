// The benchmark's options: command-line flags first, then BENCH_* environment variables,
// then defaults. Parsed once from an explicit argv and env (run.ts passes process's own).
import { DEFAULT_EMAIL_SETTINGS, EMAIL_IDS, type EmailBenchSettings } from './email-report.ts';
import { DEFAULT_WEBHOOK_SETTINGS, type WebhookBenchSettings } from './webhooks-report.ts';

export interface BenchOptions {
  /** PostgreSQL database the benchmark (re)creates, seeds and drops. Its name must contain "bench". */
  databaseUrl: string;
  /** 1 = 100,000 conversations, 1,000,000 messages, 50,000 contacts. */
  scale: number;
  /** Seconds of measured load per scenario. */
  duration: number;
  /** Minimum seconds of unmeasured load on the connections before each scenario's measured window. */
  warmup: number;
  connections: number;
  /** Parley server processes (SERVER_PROCESSES); above 1 they share events through Redis. */
  processes: number;
  /** Redis for several processes. */
  redisUrl: string;
  /** Sequential single requests timed for the report and search (their median is the per-request figure). */
  sequentialRuns: number;
  /** Skip seeding when the database already holds a dataset of the same scale. */
  reuse: boolean;
  /** Keep the database at the end (for a later --reuse). */
  keep: boolean;
  /** Markdown file to write the results to, or null to print them only. */
  out: string | null;
  /** Record this run's row in the scale curve of this file (--curve), or null. */
  curve: string | null;
  /** Scenario ids to run (the two bare reference routes always run); null = all. Results are then only printed. */
  only: string[] | null;
  /** Folder for a V8 CPU profile of the Parley process, or null. */
  profileDir: string | null;
  /** The realtime scenario's sizes (it runs when --only is absent or names "realtime"). */
  realtime: RealtimeOptions;
  /** The webhooks scenario's sizes (it runs when --only is absent or names "webhooks"). */
  webhooks: WebhookBenchSettings;
  /** The email scenarios' sizes (each runs when --only is absent or names it: email-in, email-out). */
  email: EmailBenchSettings;
  help: boolean;
}

export interface RealtimeOptions {
  agentSockets: number;
  widgetSockets: number;
  /** Sockets per agent: creating an agent's API key costs a scrypt hash, so fewer agents hold several tabs each. */
  tabs: number;
  subscriptionsPerSocket: number;
  /** Messages per second over HTTP (half agent replies, half visitor messages). */
  rate: number;
  warmup: number;
  duration: number;
  lossAfterMs: number;
  /** One run per entry, with that many Parley instances. */
  instances: number[];
}

export class OptionsError extends Error {
  override name = 'OptionsError';
}

export const USAGE = `Usage: npm run bench -- [options]

  --scale=N          dataset size; 1 = 100,000 conversations, 1,000,000 messages (default 1)
  --duration=S       measured seconds per scenario (default 10; env BENCH_DURATION)
  --warmup=S         unmeasured warm-up seconds per scenario, on the connections then measured;
                     it also lasts until each connection has answered a few requests
                     (default 2; env BENCH_WARMUP)
  --connections=N    concurrent clients (default 50; env BENCH_CONNECTIONS)
  --processes=N      Parley server processes (SERVER_PROCESSES; default 1; env BENCH_PROCESSES);
                     above 1 they use Redis (BENCH_REDIS_URL, default redis://127.0.0.1:6379)
  --runs=N           sequential requests timed for the report and search (default 20)
  --reuse            keep an existing database seeded at the same scale instead of reseeding
  --curve            record this run's row (message, list, reply, reports) in the scale curve of
                     docs/performance.md (or --out), whatever the scale; other rows are kept
  --keep             do not drop the database at the end (use with --reuse next time)
  --out=FILE         write the Markdown results there (default docs/performance.md at scale 1;
                     at other scales results are only printed unless --out is given)
  --no-write         print only, even at scale 1
  --only=IDS         run only these scenarios (comma-separated: message, assigned-1, assigned-50,
                     report, service-report, service-report-tag, search, reply, widget-init, first-start,
                     realtime, webhooks, email-in, email-out, notifications);
                     implies --no-write unless --out is given (then only the sections of the
                     scenarios run are replaced); with only email scenarios, or only
                     notifications, nothing is seeded (notifications: printed only, each phase
                     --duration seconds)
  --profile=DIR      write a CPU profile of the Parley process(es) to DIR (open it in Chrome DevTools)

Realtime scenario (PostgreSQL + Redis; one run with one Parley instance, one with two):
  --rt-agents=N      agent sockets (default 1000)
  --rt-tabs=N        sockets per agent (default 10: 1,000 sockets are 100 agents)
  --rt-widgets=N     widget sockets, one visitor and conversation each (default 5000)
  --rt-subscriptions=N  conversations each agent socket subscribes to (default 5)
  --rt-rate=N        messages per second, half replies, half visitor messages (default 100)
  --rt-warmup=S      unmeasured seconds of messages after the sockets are ready (default 5)
  --rt-duration=S    measured seconds (default 20)
  --rt-loss-ms=MS    a frame later than this is lost (default 5000)
  --rt-instances=L   runs by number of instances, comma-separated (default 1,2)

Webhooks scenario (PostgreSQL; receivers on 127.0.0.1 in the benchmark's process):
  --wh-webhooks=N    webhooks sharing each event in the throughput phase (default 16)
  --wh-events=N      events of the throughput phase (default 250)
  --wh-slow-ms=MS    how late the slow receiver of the isolation phase answers (default 10000)

Email scenarios (PostgreSQL, each in a child process; email-in needs Debian's Dovecot,
/usr/sbin/dovecot, and is skipped without it):
  --ei-mails=N       mails taken in over IMAP, threads of 5 (default 10000)
  --eo-mails=N       replies sent over SMTP (default 2000)
  --eo-concurrency=N JOB_CONCURRENCY of the sending runner (default 16)
  --eo-connections=N the inbox's SMTP connections (default 5)

Environment: BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/parley_bench).
The database is dropped and recreated: its name must contain "bench".`;

export const SCENARIO_IDS = [
  'message',
  'assigned-1',
  'assigned-50',
  'report',
  'service-report',
  'service-report-tag',
  'search',
  'reply',
  'widget-init',
];
/** The realtime scenario: not an HTTP scenario of the table, but selectable with --only. */
export const REALTIME_ID = 'realtime';
/** Time to the first answer of a server started on an empty embedded database. */
export const FIRST_START_ID = 'first-start';
/** The webhooks scenario, likewise. */
export const WEBHOOKS_ID = 'webhooks';
/** The notifications scenario (notifications.ts), likewise; alone, nothing is seeded. */
export const NOTIFICATIONS_ID = 'notifications';

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/parley_bench';
export const DEFAULT_OUT = 'docs/performance.md';

function positiveNumber(name: string, raw: string, min: number, max: number, integer: boolean): number {
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value))) {
    throw new OptionsError(`${name} must be ${integer ? 'an integer' : 'a number'} between ${min} and ${max}, got "${raw}"`);
  }
  return value;
}

function parseInstances(raw: string): number[] {
  const list = raw.split(',').map((part) => positiveNumber('--rt-instances', part.trim(), 1, 8, true));
  if (list.length === 0 || list.length > 4) throw new OptionsError('--rt-instances takes one to four instance counts, e.g. 1,2');
  return list;
}

export function parseOptions(argv: readonly string[], env: Readonly<Record<string, string | undefined>>): BenchOptions {
  const flags = new Map<string, string>();
  for (const arg of argv) {
    const match = /^--([a-z-]+)(?:=(.*))?$/.exec(arg);
    if (!match) throw new OptionsError(`unknown argument "${arg}"\n\n${USAGE}`);
    flags.set(match[1] as string, match[2] ?? '');
  }
  const known = new Set([
    'scale',
    'duration',
    'warmup',
    'connections',
    'processes',
    'runs',
    'reuse',
    'keep',
    'out',
    'no-write',
    'only',
    'profile',
    'curve',
    'help',
    'rt-agents',
    'rt-tabs',
    'rt-widgets',
    'rt-subscriptions',
    'rt-rate',
    'rt-warmup',
    'rt-duration',
    'rt-loss-ms',
    'rt-instances',
    'wh-webhooks',
    'wh-events',
    'wh-slow-ms',
    'ei-mails',
    'eo-mails',
    'eo-concurrency',
    'eo-connections',
  ]);
  for (const name of flags.keys()) if (!known.has(name)) throw new OptionsError(`unknown option --${name}\n\n${USAGE}`);

  const pick = (flag: string, envName: string | null, fallback: string): string =>
    flags.get(flag) ?? (envName ? env[envName] : undefined) ?? fallback;

  const databaseUrl = env['BENCH_DATABASE_URL'] || DEFAULT_DATABASE_URL;
  let parsed: URL;
  try {
    parsed = new URL(databaseUrl);
  } catch {
    throw new OptionsError('BENCH_DATABASE_URL is not a URL');
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')
    throw new OptionsError('BENCH_DATABASE_URL must be a postgres:// URL');
  const name = decodeURIComponent(parsed.pathname.replace(/^\//, ''));
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(name) || !/bench/i.test(name)) {
    throw new OptionsError(
      `BENCH_DATABASE_URL must name a database whose name contains "bench" (it is dropped and recreated), got "${name}"`,
    );
  }

  const scale = positiveNumber('--scale', pick('scale', null, '1'), 0.001, 10, false);
  const onlyFlag = flags.get('only');
  const only =
    onlyFlag === undefined
      ? null
      : onlyFlag
          .split(',')
          .map((id) => id.trim())
          .filter(Boolean);
  if (only !== null) {
    const ids = [...SCENARIO_IDS, FIRST_START_ID, REALTIME_ID, WEBHOOKS_ID, ...EMAIL_IDS, NOTIFICATIONS_ID];
    const unknown = only.filter((id) => !ids.includes(id));
    if (only.length === 0 || unknown.length > 0) throw new OptionsError(`--only takes scenario ids among ${ids.join(', ')}`);
  }
  const profileFlag = flags.get('profile');
  if (profileFlag === '') throw new OptionsError('--profile needs a folder: --profile=DIR');
  const outFlag = flags.get('out');
  const noWrite = flags.has('no-write') || (only !== null && outFlag === undefined);
  if (outFlag === '') throw new OptionsError('--out needs a file name: --out=FILE');
  const out = noWrite ? null : (outFlag ?? (scale === 1 ? DEFAULT_OUT : null));

  return {
    databaseUrl,
    scale,
    duration: positiveNumber('--duration', pick('duration', 'BENCH_DURATION', '10'), 1, 600, true),
    warmup: positiveNumber('--warmup', pick('warmup', 'BENCH_WARMUP', '2'), 0, 120, true),
    connections: positiveNumber('--connections', pick('connections', 'BENCH_CONNECTIONS', '50'), 1, 1000, true),
    processes: positiveNumber('--processes', pick('processes', 'BENCH_PROCESSES', '1'), 1, 64, true),
    redisUrl: env['BENCH_REDIS_URL'] || 'redis://127.0.0.1:6379',
    sequentialRuns: positiveNumber('--runs', pick('runs', null, '20'), 1, 1000, true),
    reuse: flags.has('reuse'),
    keep: flags.has('keep'),
    out,
    curve: flags.has('curve') ? (outFlag ?? DEFAULT_OUT) : null,
    only,
    profileDir: profileFlag ?? null,
    realtime: {
      agentSockets: positiveNumber('--rt-agents', pick('rt-agents', null, '1000'), 1, 20000, true),
      tabs: positiveNumber('--rt-tabs', pick('rt-tabs', null, '10'), 1, 100, true),
      widgetSockets: positiveNumber('--rt-widgets', pick('rt-widgets', null, '5000'), 1, 50000, true),
      subscriptionsPerSocket: positiveNumber('--rt-subscriptions', pick('rt-subscriptions', null, '5'), 1, 100, true),
      rate: positiveNumber('--rt-rate', pick('rt-rate', null, '100'), 1, 10000, true),
      warmup: positiveNumber('--rt-warmup', pick('rt-warmup', null, '5'), 0, 120, true),
      duration: positiveNumber('--rt-duration', pick('rt-duration', null, '20'), 1, 600, true),
      lossAfterMs: positiveNumber('--rt-loss-ms', pick('rt-loss-ms', null, '5000'), 100, 60000, true),
      instances: parseInstances(pick('rt-instances', null, '1,2')),
    },
    webhooks: {
      ...DEFAULT_WEBHOOK_SETTINGS,
      webhooks: positiveNumber('--wh-webhooks', pick('wh-webhooks', null, String(DEFAULT_WEBHOOK_SETTINGS.webhooks)), 1, 64, true),
      events: positiveNumber('--wh-events', pick('wh-events', null, String(DEFAULT_WEBHOOK_SETTINGS.events)), 1, 100000, true),
      slowMs: positiveNumber('--wh-slow-ms', pick('wh-slow-ms', null, String(DEFAULT_WEBHOOK_SETTINGS.slowMs)), 100, 25000, true),
    },
    email: {
      inMails: positiveNumber('--ei-mails', pick('ei-mails', null, String(DEFAULT_EMAIL_SETTINGS.inMails)), 10, 1_000_000, true),
      outMails: positiveNumber('--eo-mails', pick('eo-mails', null, String(DEFAULT_EMAIL_SETTINGS.outMails)), 10, 1_000_000, true),
      outConcurrency: positiveNumber(
        '--eo-concurrency',
        pick('eo-concurrency', null, String(DEFAULT_EMAIL_SETTINGS.outConcurrency)),
        1,
        256,
        true,
      ),
      outConnections: positiveNumber(
        '--eo-connections',
        pick('eo-connections', null, String(DEFAULT_EMAIL_SETTINGS.outConnections)),
        1,
        100,
        true,
      ),
    },
    help: flags.has('help'),
  };
}
