// The realtime load generator. It holds every client socket AND sends the messages, so the
// latency of a frame is measured on one clock: from the start of the HTTP request that created
// the message to the frame's arrival on each socket it must reach. realtime.ts starts it as a child
// process (`node realtime-client.ts --child`, settings over IPC), so that its CPU is its own and
// is measured; tests call runRealtimeLoad in process.
import http from 'node:http';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { agentAddress, expectedRecipients, type PlannedMessage, planMessages, type RealtimePlan, visitorAddress } from './realtime-plan.ts';
import { agentSocket, type ClientSocket, newFrameLog, openAll, widgetSocket } from './realtime-sockets.ts';
import { accountDeliveries, agentKey, type LatencySummary, type Sent, summarise, widgetKey, worstBySecond } from './realtime-stats.ts';

export interface ClientSettings {
  plan: RealtimePlan;
  /** Messages per second, half agent replies and half visitor messages. */
  rate: number;
  warmupSeconds: number;
  durationSeconds: number;
  /** A frame later than this after its request started counts as lost. */
  lossAfterMs: number;
  /** Sockets being opened at once. */
  connectConcurrency: number;
  seed: number;
}

export interface ClientResult {
  sockets: { agents: number; widgets: number; openSeconds: number; failed: number; failureSamples: string[] };
  /** Sockets that answered an application ping before the window (the others are reported, not waited for). */
  warm: { answered: number; seconds: number };
  sent: number;
  /** HTTP answers by status (and "error" for a request that got none). */
  statuses: Record<string, number>;
  httpSample: string | null;
  http: LatencySummary;
  toWidget: LatencySummary;
  toAgents: LatencySummary;
  crossInstance: LatencySummary;
  expected: number;
  lostToWidget: number;
  lostToAgents: number;
  late: number;
  unexpected: number;
  failedRequests: number;
  lostSamples: string[];
  framesPerSecond: number;
  framesByType: Record<string, number>;
  closedDuringRun: number;
  closeSamples: string[];
  /** The generator's own CPU over the window, as a share of one core, and its event-loop delay. */
  cpuShare: number;
  eventLoopDelayP99: number;
  windowSeconds: number;
  /** The slowest delivery of the messages sent in each second of the window (ms). */
  worstBySecond: number[];
}

type Progress = (message: string) => void;

const REPLY_TEXT = '<p>Thanks for waiting: I have checked your order and it ships today.</p>';
const VISITOR_TEXT = 'Hello, is anyone there? I have a question about my order.';

function uuidFrom(status: number, text: string): string | null {
  if (status < 200 || status >= 300) return null;
  try {
    const body = JSON.parse(text) as { data?: unknown };
    const data = body.data as Record<string, unknown> | undefined;
    const uuid = typeof data?.['uuid'] === 'string' ? data['uuid'] : (data?.['message'] as Record<string, unknown> | undefined)?.['uuid'];
    return typeof uuid === 'string' ? uuid : null;
  } catch {
    return null;
  }
}

/** Keep-alive HTTP agents: one per instance and client address (each agent's, each group of visitors'). */
const httpAgents = new Map<string, http.Agent>();
function httpAgent(key: string, localAddress?: string): http.Agent {
  let agent = httpAgents.get(key);
  if (!agent) {
    agent = new http.Agent({ keepAlive: true, maxSockets: 32, ...(localAddress ? { localAddress } : {}) });
    httpAgents.set(key, agent);
  }
  return agent;
}

function post(url: string, headers: Record<string, string>, body: string, agent: http.Agent): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        timeout: 30_000,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error('no answer within 30 s')));
    request.on('error', reject);
    request.end(body);
  });
}

/** One message over HTTP: an agent's reply, or a visitor's message through the widget API (from the visitor's address). */
export async function sendMessage(
  plan: RealtimePlan,
  message: PlannedMessage,
): Promise<{ status: string; uuid: string | null; text: string }> {
  const base = plan.instances[message.instance] as string;
  const conversation = plan.conversations[message.conversation];
  if (!conversation) throw new Error(`no conversation ${message.conversation}`);
  try {
    const answer =
      message.kind === 'reply'
        ? await post(
            `${base}/api/v1/conversations/${conversation.uuid}/messages`,
            { authorization: (plan.agents[conversation.agent] as { authorization: string }).authorization },
            JSON.stringify({ message: REPLY_TEXT }),
            httpAgent(`${base} ${agentAddress(conversation.agent)}`, agentAddress(conversation.agent)),
          )
        : await post(
            `${base}/api/v1/widget/chat/conversations/${conversation.uuid}/message`,
            { authorization: `Bearer ${conversation.token}`, 'x-service-inbox-id': plan.inboxUuid },
            JSON.stringify({ message: VISITOR_TEXT }),
            httpAgent(`${base} ${visitorAddress(message.conversation)}`, visitorAddress(message.conversation)),
          );
    return { status: String(answer.status), uuid: uuidFrom(answer.status, answer.text), text: answer.text };
  } catch (error) {
    return { status: 'error', uuid: null, text: error instanceof Error ? error.message : String(error) };
  }
}

/** Sends `messages` open-loop: message i starts at `startAt + i/rate` s, whether or not earlier ones have been answered. */
async function stream(
  messages: readonly PlannedMessage[],
  rate: number,
  send: (m: PlannedMessage, startedAt: number) => Promise<void>,
): Promise<void> {
  const startAt = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < messages.length; i++) {
    const due = startAt + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await sleep(wait);
    pending.push(send(messages[i] as PlannedMessage, performance.now()));
  }
  await Promise.all(pending);
}

/** `window` is told when the measured window opens and closes (the parent samples the servers' CPU then). */
export async function runRealtimeLoad(
  settings: ClientSettings,
  progress: Progress,
  window: (edge: 'open' | 'close') => void = () => {},
): Promise<ClientResult> {
  const { plan } = settings;
  const log = newFrameLog();
  const sockets: ClientSocket[] = [];
  try {
    // 1. Open every socket, a bounded number at a time.
    const openStarted = performance.now();
    const widgetFailures = await openAll(plan.widgetSockets.length, settings.connectConcurrency, (i) => {
      const { socket, ready } = widgetSocket(plan, i, log);
      sockets.push(socket);
      return ready;
    });
    const agentFailures = await openAll(plan.agentSockets.length, settings.connectConcurrency, (i) => {
      const { socket, ready } = agentSocket(plan, i, log);
      sockets.push(socket);
      return ready;
    });
    const failures = [...widgetFailures, ...agentFailures];
    const openSeconds = (performance.now() - openStarted) / 1000;
    progress(
      `    ${plan.widgetSockets.length - widgetFailures.length} widget and ${plan.agentSockets.length - agentFailures.length} agent sockets ready in ${openSeconds.toFixed(1)} s` +
        (failures.length ? `; ${failures.length} FAILED (${failures[0]?.message})` : ''),
    );

    // 2. Warm: every socket answers a ping (the server has it in its tables), and the stream runs unmeasured.
    const warmStarted = performance.now();
    for (const socket of sockets) if (socket.ready) socket.send({ type: 'ping' });
    const readySockets = sockets.filter((s) => s.ready);
    const pingDeadline = performance.now() + 15_000;
    while (readySockets.some((s) => s.pongs === 0) && performance.now() < pingDeadline) await sleep(50);
    const answered = readySockets.filter((s) => s.pongs > 0).length;
    const warmUpCount = Math.round(settings.rate * settings.warmupSeconds);
    const measuredCount = Math.round(settings.rate * settings.durationSeconds);
    const messages = planMessages(plan, warmUpCount + measuredCount, settings.seed);
    await stream(messages.slice(0, warmUpCount), settings.rate, async (m) => {
      await sendMessage(plan, m);
    });
    progress(
      `    warm-up ${((performance.now() - warmStarted) / 1000).toFixed(1)} s: ${answered} of ${readySockets.length} sockets answered a ping, ${warmUpCount} messages sent`,
    );

    // 3. The measured window.
    const sent: Sent[] = [];
    const statuses: Record<string, number> = {};
    const httpTimes: number[] = [];
    let httpSample: string | null = null;
    const closedBefore = log.closedAfterReady;
    // Only sockets that opened are expected to receive anything (those that did not are reported as failed).
    const opened = new Set(readySockets.map((socket) => socket.key));
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const cpuBefore = process.cpuUsage();
    window('open');
    const windowStart = performance.now();
    log.counting.from = windowStart;
    await stream(messages.slice(warmUpCount), settings.rate, async (m, startedAt) => {
      const answer = await sendMessage(plan, m);
      httpTimes.push(performance.now() - startedAt);
      statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
      if (answer.uuid === null && httpSample === null) httpSample = `${m.kind}: ${answer.status} ${answer.text.slice(0, 200)}`;
      const expected = expectedRecipients(plan, m);
      sent.push({
        kind: m.kind,
        startedAt,
        uuid: answer.uuid,
        instance: m.instance,
        expectedWidgets: expected.widgets.filter((w) => opened.has(widgetKey(w))),
        expectedAgents: expected.agents.filter((a) => opened.has(agentKey(a))),
      });
    });
    const windowEnd = Math.max(performance.now(), windowStart + settings.durationSeconds * 1000);
    log.counting.until = windowEnd;
    window('close');
    const cpu = process.cpuUsage(cpuBefore);
    loop.disable();
    const windowSeconds = (windowEnd - windowStart) / 1000;

    // 4. Late frames: wait until every expected frame has arrived, or the loss limit has passed for the last message.
    const instanceOfWidget = (s: number) => plan.widgetSockets[s]?.instance ?? 0;
    const instanceOfAgent = (s: number) => plan.agentSockets[s]?.instance ?? 0;
    const options = { lossAfterMs: settings.lossAfterMs, instanceOfWidget, instanceOfAgent };
    const lastStart = sent.reduce((latest, s) => Math.max(latest, s.startedAt), windowStart);
    let account = accountDeliveries(sent, log.arrivals, options);
    while (account.lostToWidget + account.lostToAgents > 0 && performance.now() < lastStart + settings.lossAfterMs + 100) {
      await sleep(100);
      account = accountDeliveries(sent, log.arrivals, options);
    }
    const closedDuringRun = log.closedAfterReady - closedBefore;
    return {
      sockets: {
        agents: plan.agentSockets.length,
        widgets: plan.widgetSockets.length,
        openSeconds,
        failed: failures.length,
        failureSamples: failures.slice(0, 3).map((f) => f.message),
      },
      warm: { answered, seconds: (windowStart - warmStarted) / 1000 },
      sent: sent.length,
      statuses,
      httpSample,
      http: summarise(httpTimes),
      toWidget: summarise(account.toWidget),
      toAgents: summarise(account.toAgents),
      crossInstance: summarise(account.crossInstance),
      expected: account.expected,
      lostToWidget: account.lostToWidget,
      lostToAgents: account.lostToAgents,
      late: account.late,
      unexpected: account.unexpected,
      failedRequests: account.failedRequests,
      lostSamples: account.lostSamples,
      framesPerSecond: log.counting.frames / windowSeconds,
      framesByType: Object.fromEntries(log.byType),
      closedDuringRun,
      closeSamples: log.samples,
      cpuShare: (cpu.user + cpu.system) / 1000 / (windowEnd - windowStart),
      eventLoopDelayP99: loop.percentile(99) / 1e6,
      windowSeconds,
      worstBySecond: worstBySecond(sent, log.arrivals, windowStart, settings.durationSeconds),
    };
  } finally {
    for (const socket of sockets) socket.close();
    for (const agent of httpAgents.values()) agent.destroy();
    httpAgents.clear();
  }
}

// As a child process: settings arrive over IPC, the result goes back the same way, progress on stderr.
if (process.argv.includes('--child') && process.send) {
  process.once('message', (settings: ClientSettings) => {
    runRealtimeLoad(
      settings,
      (line) => process.stderr.write(`${line}\n`),
      (edge) => process.send?.({ kind: 'window', edge }),
    ).then(
      (result) => process.send?.({ kind: 'result', result }, () => process.exit(0)),
      (error: unknown) =>
        process.send?.({ kind: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) }, () =>
          process.exit(1),
        ),
    );
  });
  process.on('disconnect', () => process.exit(1));
}
