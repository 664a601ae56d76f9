// The realtime benchmark's accounting, kept pure so it can be tested alone: percentiles, and
// for every message sent, which of its expected recipients got its frame, how late, and which
// never did (lost). Times are milliseconds on one clock (performance.now() of the process that
// both sends the requests and holds the sockets).

/** Nearest-rank percentile of ascending values; NaN when there are none. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export interface LatencySummary {
  count: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export function summarise(values: readonly number[]): LatencySummary {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    p99: percentile(sorted, 99),
    max: sorted.length ? (sorted[sorted.length - 1] as number) : Number.NaN,
  };
}

/** One message the load generator sent over HTTP. */
export interface Sent {
  /** 'reply': an agent's reply; 'visitor': a visitor's message through the widget API. */
  kind: 'reply' | 'visitor';
  /** When the HTTP request started. */
  startedAt: number;
  /** The message uuid from the answer; null when the request failed (no frame can be expected). */
  uuid: string | null;
  /** The instance the request went to (index into the instances). */
  instance: number;
  /** Sockets that must receive its `new_message` frame. */
  expectedWidgets: readonly number[];
  expectedAgents: readonly number[];
}

/** Arrival times of `new_message` frames: message uuid → socket key → first arrival. */
export type Arrivals = ReadonlyMap<string, ReadonlyMap<string, number>>;

export const widgetKey = (socket: number): string => `w${socket}`;
export const agentKey = (socket: number): string => `a${socket}`;

export interface DeliveryAccount {
  /** Latency of each expected frame that arrived in time, to widget sockets and to agent sockets. */
  toWidget: number[];
  toAgents: number[];
  /** The same, only where the socket sits on another instance than the one the request went to. */
  crossInstance: number[];
  /** Expected frames. */
  expected: number;
  /** Expected frames that never arrived, or arrived later than the loss limit. */
  lostToWidget: number;
  lostToAgents: number;
  /** Of the lost ones, those that did arrive, but late. */
  late: number;
  /** Frames for our messages on sockets that were not expected to get them (not an error: the server may tell more sockets than we watch). */
  unexpected: number;
  /** Requests that failed (no uuid): their frames are not counted as lost, the failure is reported instead. */
  failedRequests: number;
  /** A few lost deliveries, to say which. */
  lostSamples: string[];
}

/**
 * Matches frames to messages. `instanceOfWidget` / `instanceOfAgent` give each socket's instance
 * (for the cross-instance figure); `lossAfterMs`: a frame later than this counts as lost.
 */
export function accountDeliveries(
  sent: readonly Sent[],
  arrivals: Arrivals,
  options: {
    lossAfterMs: number;
    instanceOfWidget: (socket: number) => number;
    instanceOfAgent: (socket: number) => number;
  },
): DeliveryAccount {
  const account: DeliveryAccount = {
    toWidget: [],
    toAgents: [],
    crossInstance: [],
    expected: 0,
    lostToWidget: 0,
    lostToAgents: 0,
    late: 0,
    unexpected: 0,
    failedRequests: 0,
    lostSamples: [],
  };
  for (const message of sent) {
    if (message.uuid === null) {
      account.failedRequests++;
      continue;
    }
    const got = arrivals.get(message.uuid);
    const expectedKeys = new Set<string>();
    const check = (key: string, instance: number, latencies: number[], lost: 'lostToWidget' | 'lostToAgents') => {
      expectedKeys.add(key);
      account.expected++;
      const at = got?.get(key);
      const latency = at === undefined ? undefined : at - message.startedAt;
      if (latency === undefined || latency > options.lossAfterMs) {
        account[lost]++;
        if (latency !== undefined) account.late++;
        if (account.lostSamples.length < 5)
          account.lostSamples.push(
            `${message.kind} ${message.uuid} → ${key}${latency === undefined ? ' never arrived' : ` arrived after ${Math.round(latency)} ms`}`,
          );
        return;
      }
      latencies.push(latency);
      if (instance !== message.instance) account.crossInstance.push(latency);
    };
    for (const socket of message.expectedWidgets)
      check(widgetKey(socket), options.instanceOfWidget(socket), account.toWidget, 'lostToWidget');
    for (const socket of message.expectedAgents) check(agentKey(socket), options.instanceOfAgent(socket), account.toAgents, 'lostToAgents');
    if (got) for (const key of got.keys()) if (!expectedKeys.has(key)) account.unexpected++;
  }
  return account;
}

/** A small deterministic PRNG (mulberry32), so a run's plan is the same every time. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The send times of an open-loop stream: `rate` per second for `seconds`, evenly spaced from 0 (ms). */
export function schedule(rate: number, seconds: number): number[] {
  const count = Math.floor(rate * seconds);
  return Array.from({ length: count }, (_, i) => (i * 1000) / rate);
}

/**
 * The slowest delivery of the messages sent in each second of the window (ms; NaN for a second
 * with none arrived): a tail made of a few stalls shows as a few bad seconds, a slow system as
 * every second bad.
 */
export function worstBySecond(sent: readonly Sent[], arrivals: Arrivals, windowStart: number, seconds: number): number[] {
  const worst = Array.from({ length: seconds }, () => Number.NaN);
  for (const message of sent) {
    if (message.uuid === null) continue;
    const second = Math.floor((message.startedAt - windowStart) / 1000);
    if (second < 0 || second >= seconds) continue;
    const got = arrivals.get(message.uuid);
    if (!got) continue;
    const keys = [...message.expectedWidgets.map(widgetKey), ...message.expectedAgents.map(agentKey)];
    for (const key of keys) {
      const at = got.get(key);
      if (at === undefined) continue;
      const latency = at - message.startedAt;
      if (!(latency <= (worst[second] as number))) worst[second] = latency;
    }
  }
  return worst;
}
