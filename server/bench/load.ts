// The load: autocannon (programmatic) with N connections, opened and warmed before a measured
// window of fixed length that counts only answers on warm connections; requests rotate over real
// ids so caches do not make a scenario trivial. And sequential single-request timings for the
// endpoints whose targets are per-request times.
import autocannon from 'autocannon';

export interface Scenario {
  id: string;
  title: string;
  /** Who the requests authenticate as, for the table. */
  as: string;
  method: 'GET' | 'POST';
  /** Rotated over, one per request. */
  paths: readonly string[];
  headers: Record<string, string>;
  /** Rotated over with the paths (POST only). */
  bodies?: readonly string[];
}

export interface LoadSettings {
  connections: number;
  duration: number;
  warmup: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  total: number;
  non2xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** First non-2xx answer seen, to say what went wrong. */
  sampleError: string | null;
  /** Connections opened again during the measured window (after an error, a timeout or a close by the server). */
  reopened: number;
  /** How long the warm-up took, and the first answer of each connection (it includes opening the connection). */
  warmUp: { seconds: number; firstAnswerMedian: number; firstAnswerMax: number };
}

export type Probe = { kind: 'ok' } | { kind: 'missing'; detail: string } | { kind: 'failing'; status: number; detail: string };

function requestInit(scenario: Scenario, i: number): RequestInit {
  const body = scenario.bodies ? scenario.bodies[i % scenario.bodies.length] : undefined;
  return {
    method: scenario.method,
    headers: { ...scenario.headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body } : {}),
  };
}

function pathAt(scenario: Scenario, i: number): string {
  const path = scenario.paths[i % scenario.paths.length];
  if (path === undefined) throw new Error(`scenario ${scenario.id} has no paths`);
  return path;
}

function summarise(text: string): string {
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && 'message' in parsed && typeof parsed.message === 'string') return parsed.message;
  } catch {
    // not JSON
  }
  return text.slice(0, 200);
}

/** One request first: a route that does not exist yet (404 "Route not found") is "not available", not a failure of the run. */
export async function probe(baseUrl: string, scenario: Scenario): Promise<Probe> {
  const response = await fetch(baseUrl + pathAt(scenario, 0), { ...requestInit(scenario, 0), signal: AbortSignal.timeout(30_000) });
  const text = await response.text();
  if (response.status >= 200 && response.status < 300) return { kind: 'ok' };
  if (response.status === 404 && /route not found/i.test(text)) return { kind: 'missing', detail: 'route not found (404)' };
  return { kind: 'failing', status: response.status, detail: summarise(text) };
}

/** Answers every connection must have received before the measured window opens: the first pays for the connection itself. */
export const WARM_ANSWERS_PER_CONNECTION = 3;
/** How long the connections may take to warm up beyond the warm-up time before the scenario is given up. */
const WARM_UP_LIMIT_SECONDS = 120;

/** The scenario's connections could not all be opened and warmed in time: the scenario failed, the run goes on. */
export class WarmUpError extends Error {
  override name = 'WarmUpError';
}

function autocannonRequest(scenario: Scenario, onResponse: (status: number, body: string) => void): autocannon.Request {
  let next = 0;
  const body = (i: number) => (scenario.bodies ? scenario.bodies[i % scenario.bodies.length] : undefined);
  const headers = (i: number) => ({ ...scenario.headers, ...(body(i) !== undefined ? { 'content-type': 'application/json' } : {}) });
  // One fixed request is encoded once; rotating ones are rebuilt for each request.
  const fixed = scenario.paths.length === 1 && (scenario.bodies?.length ?? 0) <= 1;
  if (fixed)
    return {
      method: scenario.method,
      path: pathAt(scenario, 0),
      headers: headers(0),
      ...(body(0) !== undefined ? { body: body(0) } : {}),
      onResponse,
    };
  return {
    method: scenario.method,
    setupRequest: (req) => {
      const i = next++;
      const b = body(i);
      return { ...req, path: pathAt(scenario, i), headers: headers(i), ...(b !== undefined ? { body: b } : {}) };
    },
    onResponse,
  };
}

/** Nearest-rank percentile of ascending values. */
function percentile(sorted: Float64Array | number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/**
 * One autocannon instance per scenario, so the warm-up and the measured window share its
 * connections. The window opens once the warm-up time has passed and every connection has
 * answered WARM_ANSWERS_PER_CONNECTION requests; it counts only the answers that arrive within
 * it on connections that were already warm, timed here (autocannon's own totals include the
 * warm-up). A connection re-opened during the window (after an error, a timeout or a close by the
 * server) counts again only once warm, and is reported.
 */
export async function runLoad(
  baseUrl: string,
  scenario: Scenario,
  settings: LoadSettings,
  /** Told when the measured window opens and closes (the CPU readings, cpu.ts). */
  window?: { opened(): void; closed(): void },
): Promise<LoadResult> {
  const connections = new Map<autocannon.Client, { socket: unknown; answers: number }>();
  let warmConnections = 0;
  const firstAnswers: number[] = [];
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let answers = 0;
  let non2xx = 0;
  let errors = 0;
  let timeouts = 0;
  let reopened = 0;
  let sampleError: string | null = null;
  let lastError: string | null = null;
  let phase: 'warm-up' | 'measured' | 'over' = 'warm-up';
  const started = performance.now();
  const warmUpEnds = started + settings.warmup * 1000;
  let windowStart = 0;
  let windowEnd = 0;

  const onResponse = (status: number, body: string) => {
    if (status < 200 || status >= 300) lastError = `${status}: ${summarise(body)}`;
  };
  const { promise: finished, resolve, reject } = Promise.withResolvers<void>();
  const instance = autocannon(
    {
      url: baseUrl,
      connections: settings.connections,
      // Stopped by this function; the duration is only a backstop.
      duration: settings.warmup + WARM_UP_LIMIT_SECONDS + settings.duration + 10,
      requests: [autocannonRequest(scenario, onResponse)],
      timeout: 30,
    },
    (error: unknown) => (error ? reject(error) : resolve()),
  );
  let closeWindow: NodeJS.Timeout | undefined;
  // The observer hears the window open and close once each, whatever ends the load.
  let observed: 'no' | 'open' | 'closed' = 'no';
  const tell = (edge: 'opened' | 'closed') => {
    if (!window || (edge === 'opened' ? observed !== 'no' : observed !== 'open')) return;
    observed = edge === 'opened' ? 'open' : 'closed';
    try {
      window[edge]();
    } catch (error) {
      process.emitWarning(`the measured window's observer failed: ${String(error)}`);
    }
  };
  const openWindow = () => {
    phase = 'measured';
    tell('opened');
    windowStart = performance.now();
    closeWindow = setTimeout(() => {
      windowEnd = performance.now();
      phase = 'over';
      tell('closed');
      instance.stop();
    }, settings.duration * 1000);
  };
  const giveUp = setTimeout(
    () => {
      if (phase !== 'warm-up') return;
      phase = 'over';
      instance.stop();
    },
    (settings.warmup + WARM_UP_LIMIT_SECONDS) * 1000,
  );

  instance.on('response', (client, status, _bytes, time) => {
    if (phase === 'over') return;
    const socket: unknown = Reflect.get(client, 'conn');
    let connection = connections.get(client);
    if (connection === undefined) {
      connection = { socket, answers: 0 };
      connections.set(client, connection);
      firstAnswers.push(time);
    } else if (connection.socket !== socket) {
      if (connection.answers >= WARM_ANSWERS_PER_CONNECTION) warmConnections--;
      connection.socket = socket;
      connection.answers = 0;
      if (phase === 'measured') reopened++;
    }
    const warm = connection.answers >= WARM_ANSWERS_PER_CONNECTION;
    if (++connection.answers === WARM_ANSWERS_PER_CONNECTION) warmConnections++;
    if (phase === 'warm-up') {
      if (warmConnections === settings.connections && performance.now() >= warmUpEnds) openWindow();
      return;
    }
    if (!warm) return;
    answers++;
    statusCodes[status] = (statusCodes[status] ?? 0) + 1;
    if (status >= 200 && status < 300) latencies.push(time);
    else {
      non2xx++;
      sampleError ??= lastError ?? `${status}`;
    }
  });
  instance.on('reqError', (error: unknown) => {
    if (phase !== 'measured') return;
    errors++;
    if (error instanceof Error && /timed out/.test(error.message)) timeouts++;
  });

  try {
    await finished;
  } finally {
    clearTimeout(giveUp);
    clearTimeout(closeWindow);
    tell('closed');
  }
  windowEnd ||= performance.now();
  const warmUpSeconds = ((windowStart || performance.now()) - started) / 1000;
  if (windowStart === 0) {
    throw new WarmUpError(
      `after ${warmUpSeconds.toFixed(0)} s only ${warmConnections} of ${settings.connections} connections had answered ` +
        `${WARM_ANSWERS_PER_CONNECTION} requests${lastError ? ` (last failure ${lastError})` : ''}`,
    );
  }
  const sorted = Float64Array.from(latencies).sort();
  const firsts = Float64Array.from(firstAnswers).sort();
  return {
    requestsPerSecond: answers / ((windowEnd - windowStart) / 1000),
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.length ? (sorted[sorted.length - 1] as number) : 0,
    total: answers,
    non2xx,
    errors,
    timeouts,
    reopened,
    statusCodes,
    sampleError,
    warmUp: { seconds: warmUpSeconds, firstAnswerMedian: percentile(firsts, 50), firstAnswerMax: percentile(firsts, 100) },
  };
}

export interface Timing {
  median: number;
  /** Exact percentile of the runs (with 100 runs, the second slowest). */
  p99: number;
  min: number;
  max: number;
  runs: number;
  failures: number;
}

/** `runs` requests one after the other (after two untimed ones), each timed to its last body byte. */
export async function timeSequential(baseUrl: string, scenario: Scenario, runs: number): Promise<Timing> {
  const times: number[] = [];
  let failures = 0;
  for (let i = -2; i < runs; i++) {
    const started = performance.now();
    const response = await fetch(baseUrl + pathAt(scenario, i + 2), {
      ...requestInit(scenario, i + 2),
      signal: AbortSignal.timeout(60_000),
    });
    await response.arrayBuffer();
    const elapsed = performance.now() - started;
    if (i < 0) continue;
    if (response.status < 200 || response.status >= 300) failures++;
    times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  const mid = Math.floor(times.length / 2);
  const median = times.length % 2 ? (times[mid] as number) : ((times[mid - 1] as number) + (times[mid] as number)) / 2;
  return { median, p99: percentile(times, 99), min: times[0] as number, max: times[times.length - 1] as number, runs, failures };
}
