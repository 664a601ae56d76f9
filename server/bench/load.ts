// The load: autocannon (programmatic) with N connections for a fixed time after an unmeasured
// warm-up, rotating over real ids so caches do not make a scenario trivial; and sequential
// single-request timings for the endpoints whose targets are per-request times.
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

async function fire(baseUrl: string, scenario: Scenario, connections: number, duration: number, measure: boolean): Promise<LoadResult> {
  let next = 0;
  let sampleError: string | null = null;
  const onResponse = (status: number, body: string) => {
    if (measure && sampleError === null && (status < 200 || status >= 300)) sampleError = `${status}: ${summarise(body)}`;
  };
  const body = (i: number) => (scenario.bodies ? scenario.bodies[i % scenario.bodies.length] : undefined);
  const headers = (i: number) => ({ ...scenario.headers, ...(body(i) !== undefined ? { 'content-type': 'application/json' } : {}) });
  // One fixed request is encoded once; rotating ones are rebuilt for each request.
  const fixed = scenario.paths.length === 1 && (scenario.bodies?.length ?? 0) <= 1;
  const request: autocannon.Request = fixed
    ? { method: scenario.method, path: pathAt(scenario, 0), headers: headers(0), ...(body(0) !== undefined ? { body: body(0) } : {}), onResponse }
    : {
        method: scenario.method,
        setupRequest: (req) => {
          const i = next++;
          const b = body(i);
          return { ...req, path: pathAt(scenario, i), headers: headers(i), ...(b !== undefined ? { body: b } : {}) };
        },
        onResponse,
      };
  const result = await autocannon({
    url: baseUrl,
    connections,
    duration,
    requests: [request],
    timeout: 30,
  });
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stat.count ?? 0;
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p90: result.latency.p90,
    p99: result.latency.p99,
    max: result.latency.max,
    total: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes,
    sampleError,
  };
}

export async function runLoad(baseUrl: string, scenario: Scenario, settings: LoadSettings): Promise<LoadResult> {
  if (settings.warmup > 0) await fire(baseUrl, scenario, settings.connections, settings.warmup, false);
  return fire(baseUrl, scenario, settings.connections, settings.duration, true);
}

export interface Timing {
  median: number;
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
    const response = await fetch(baseUrl + pathAt(scenario, i + 2), { ...requestInit(scenario, i + 2), signal: AbortSignal.timeout(60_000) });
    await response.arrayBuffer();
    const elapsed = performance.now() - started;
    if (i < 0) continue;
    if (response.status < 200 || response.status >= 300) failures++;
    times.push(elapsed);
  }
  times.sort((a, b) => a - b);
  const mid = Math.floor(times.length / 2);
  const median = times.length % 2 ? (times[mid] as number) : ((times[mid - 1] as number) + (times[mid] as number)) / 2;
  return { median, min: times[0] as number, max: times[times.length - 1] as number, runs, failures };
}
