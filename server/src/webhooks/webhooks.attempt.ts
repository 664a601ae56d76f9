// One attempt of a delivery (docs/api.md, "Webhooks"): the claimed delivery's frozen body is
// signed and sent through the guarded client, the outcome is classified and written by the
// claim's holder (the delivery's status, the attempt's row, the webhook's failing_since), and a
// webhook failing for a day is disabled with an event. Shared by the dispatcher and by the
// manual attempts of the routes (test, retry).
import type { AppDeps } from '../deps.ts';
import { recordEvent } from '../events/events.service.ts';
import { DecryptionError } from '../security/encryption.ts';
import {
  type AttemptRecord,
  type ClaimedDelivery,
  type DeliveryClaim,
  disableFailingWebhook,
  freezeBodies,
  recordAttempts,
} from './webhooks.dispatch.queries.ts';
import { buildEventData, serializeBody } from './webhooks.payloads.ts';
import {
  AddressRefusedError,
  type AddressPolicy,
  createWebhookAgents,
  SendError,
  sendWebhookRequest,
  type WebhookAgents,
  webhookAddressPolicy,
} from './webhooks.send.ts';
import { messageIdOf, SignerCache, signedHeaders } from './webhooks.signing.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;

/**
 * The wait after failed attempt n (1..7), Standard Webhooks-like: 8 attempts spread over about
 * 28 hours. Each wait is jittered by ±20 % so that deliveries failing together spread out.
 */
export const RETRY_SCHEDULE_MS: readonly number[] = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR];
export const RETRY_JITTER = 0.2;
/** A webhook whose attempts have all failed for this long is disabled. */
export const FAILING_LIMIT_MS = 24 * HOUR;
/** A lease outlives the request timeout by this much (the outcome's write, a slow database). */
export const LEASE_MARGIN_MS = 5 * SECOND;
const MAX_ERROR_LENGTH = 1000;

/** How long to wait after the `failures`-th failed attempt, jittered. */
export function retryDelayMs(failures: number, random: () => number = Math.random): number {
  const index = Math.min(Math.max(failures, 1), RETRY_SCHEDULE_MS.length) - 1;
  const base = RETRY_SCHEDULE_MS[index] ?? HOUR;
  return Math.round(base * (1 - RETRY_JITTER + 2 * RETRY_JITTER * random()));
}

/** What sends: keep-alive agents behind the address guard, the timeout, the decrypted signers. */
export interface WebhookSender {
  readonly agents: WebhookAgents;
  readonly policy: AddressPolicy;
  readonly timeoutMs: number;
  readonly signers: SignerCache;
  close(): void;
}

export function createWebhookSender(deps: Pick<AppDeps, 'config'>, options: { timeoutMs?: number } = {}): WebhookSender {
  const policy = webhookAddressPolicy(deps.config.webhookAllowList);
  const agents = createWebhookAgents(policy);
  return {
    agents,
    policy,
    timeoutMs: options.timeoutMs ?? deps.config.webhookTimeoutMs,
    signers: new SignerCache(deps),
    close: () => agents.close(),
  };
}

/** The lease of a claim: the request's timeout plus a margin. */
export function leaseMsOf(sender: WebhookSender): number {
  return sender.timeoutMs + LEASE_MARGIN_MS;
}

export type ReadyDelivery = ClaimedDelivery & { body: string };

/**
 * Gives every claimed delivery its body: the stored one, or one built now (set-based for the
 * batch) and frozen, so that every later attempt sends the same bytes.
 */
export async function prepareBodies(deps: AppDeps, claimed: readonly ClaimedDelivery[]): Promise<ReadyDelivery[]> {
  const missing = claimed.filter((d) => d.body === null);
  if (missing.length === 0) return claimed as ReadyDelivery[];
  const data = await buildEventData(deps, missing);
  const built = missing.map((d, i) => ({ id: d.id, body: serializeBody(d.event_type, d.event_at, data[i] ?? d.event_payload) }));
  const stored = await freezeBodies(deps.db, built);
  const fallback = new Map(built.map((b) => [b.id, b.body]));
  return claimed.map((d) => ({ ...d, body: d.body ?? stored.get(d.id) ?? fallback.get(d.id) ?? '' }));
}

function bounded(text: string): string {
  const clean = text.replaceAll('\u0000', '');
  return clean.length > MAX_ERROR_LENGTH ? `${clean.slice(0, MAX_ERROR_LENGTH - 1)}…` : clean;
}

/** Whatever the receiver echoed of the secret or the signature does not reach the log. */
function scrub(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= 8) out = out.replaceAll(secret, '[redacted]');
  return out;
}

export interface SentAttempt {
  record: Omit<AttemptRecord, 'status' | 'retryInMs' | 'manual'>;
}

/** Signs and sends one attempt; never throws (every failure is an outcome). */
export async function sendAttempt(
  deps: AppDeps,
  sender: WebhookSender,
  delivery: ReadyDelivery,
  signal?: AbortSignal,
): Promise<SentAttempt> {
  const startedAt = deps.clock.now();
  const base = { startedAt, statusCode: null, snippet: null, latencyMs: 0 };
  let signer: ReturnType<SignerCache['get']>;
  try {
    signer = sender.signers.get(delivery.webhook_id, delivery.webhook_updated_at, delivery.secret);
  } catch (error) {
    const why =
      error instanceof DecryptionError
        ? 'the webhook secret could not be decrypted (was SECRET_KEY changed?)'
        : 'the webhook secret is not a valid whsec_ secret';
    return { record: { ...base, outcome: 'failed', error: why } };
  }
  const signed = signedHeaders(signer.signer, {
    msgId: messageIdOf(delivery.uuid),
    at: startedAt,
    body: delivery.body,
    custom: delivery.headers,
  });
  const hidden = [signer.secret, signer.secret.replace(/^whsec_/, ''), signed.signature];
  try {
    const result = await sendWebhookRequest({
      url: delivery.url,
      headers: signed.headers,
      body: delivery.body,
      timeoutMs: sender.timeoutMs,
      agents: sender.agents,
      policy: sender.policy,
      ...(signal ? { signal } : {}),
    });
    const ok = result.statusCode >= 200 && result.statusCode < 300;
    const redirect = result.statusCode >= 300 && result.statusCode < 400 ? ' (redirects are not followed)' : '';
    return {
      record: {
        startedAt,
        outcome: ok ? 'succeeded' : 'failed',
        statusCode: result.statusCode,
        latencyMs: result.latencyMs,
        error: ok ? null : `the receiver answered ${result.statusCode}${redirect}`,
        snippet: scrub(result.snippet, hidden),
      },
    };
  } catch (error) {
    if (error instanceof AddressRefusedError) {
      return { record: { ...base, outcome: 'refused', error: bounded(scrub(`address refused: ${error.message}`, hidden)) } };
    }
    if (error instanceof SendError) {
      return { record: { ...base, outcome: 'failed', latencyMs: error.latencyMs, error: bounded(scrub(error.message, hidden)) } };
    }
    const message = error instanceof Error ? error.message : String(error);
    return { record: { ...base, outcome: 'failed', error: bounded(scrub(`the request could not be made: ${message}`, hidden)) } };
  }
}

/** The delivery's status after an attempt with this outcome, and when it is tried again. */
export function nextState(
  outcome: AttemptRecord['outcome'],
  delivery: { attempts: number; max_attempts: number },
  random: () => number = Math.random,
): Pick<AttemptRecord, 'status' | 'retryInMs'> {
  if (outcome === 'succeeded') return { status: 'succeeded', retryInMs: null };
  if (outcome === 'refused') return { status: 'refused', retryInMs: null };
  if (delivery.attempts >= delivery.max_attempts) return { status: 'dead', retryInMs: null };
  return { status: 'failed', retryInMs: retryDelayMs(delivery.attempts, random) };
}

export interface AttemptResult {
  /** False when the claim was lost meanwhile (another instance has the delivery): nothing was written. */
  recorded: boolean;
  record: AttemptRecord;
  /** The dispatcher disabled the webhook after this attempt. */
  disabledWebhook: boolean;
}

export interface FinishedAttempt {
  claim: DeliveryClaim;
  delivery: ReadyDelivery;
  sent: SentAttempt;
}

/**
 * Writes the outcomes of attempts (one statement for all of them), each for its claim's holder;
 * after automatic failures, disables each webhook that has failed for a day (manual attempts
 * never disable: an admin is watching). Answers in the order given.
 */
export async function finishAttempts(
  deps: AppDeps,
  finished: readonly FinishedAttempt[],
  options: { manual: boolean; random?: () => number },
): Promise<AttemptResult[]> {
  const records = finished.map(({ sent, delivery }) => {
    const record: AttemptRecord = { ...sent.record, ...nextState(sent.record.outcome, delivery, options.random), manual: options.manual };
    return record;
  });
  const clockNow = deps.clock.now();
  const written = await recordAttempts(
    deps.db,
    finished.map((f, i) => ({ claim: f.claim, record: records[i] as AttemptRecord })),
    clockNow,
  );
  deps.metrics.countWebhookAttempts(records.filter((_, i) => written[i]?.recorded).map((record) => record.status));
  const disabled = new Set<number>();
  if (!options.manual) {
    const failingBefore = new Date(Math.max(clockNow.getTime(), Date.now()) - FAILING_LIMIT_MS);
    /** Per webhook, its failing_since and the last error of the batch. */
    const candidates = new Map<number, { since: Date; error: string | null }>();
    written.forEach((w, i) => {
      const record = records[i];
      if (!w.recorded || w.webhookId === null || w.failingSince === null || !record || record.outcome === 'succeeded') return;
      if (w.failingSince.getTime() <= failingBefore.getTime()) candidates.set(w.webhookId, { since: w.failingSince, error: record.error });
    });
    for (const [webhookId, { since, error }] of candidates) {
      if (await disableWebhook(deps, webhookId, since, failingBefore, error)) disabled.add(webhookId);
    }
  }
  return written.map((w, i) => ({
    recorded: w.recorded,
    record: records[i] as AttemptRecord,
    disabledWebhook: w.webhookId !== null && disabled.has(w.webhookId),
  }));
}

/** One attempt's outcome (finishAttempts for one). */
export async function finishAttempt(
  deps: AppDeps,
  claim: DeliveryClaim,
  delivery: ReadyDelivery,
  sent: SentAttempt,
  options: { manual: boolean; random?: () => number },
): Promise<AttemptResult> {
  const [result] = await finishAttempts(deps, [{ claim, delivery, sent }], options);
  if (!result) throw new Error('finishAttempt: no result');
  return result;
}

async function disableWebhook(deps: AppDeps, webhookId: number, failingSince: Date, failingBefore: Date, lastError: string | null) {
  const reason = bounded(
    `disabled after failing for 24 hours (every attempt since ${failingSince.toISOString()} failed); last error: ${lastError ?? 'unknown'}`,
  );
  const clockNow = deps.clock.now();
  const disabled = await deps.db.transaction().execute(async (trx) => {
    const done = await disableFailingWebhook(trx, { webhookId, reason, failingBefore, clockNow });
    if (done) await recordEvent(trx, 'webhook.disabled', { webhook_id: webhookId, reason }, clockNow);
    return done;
  });
  if (disabled) deps.log.warn({ webhookId, reason }, 'webhook disabled: it failed for 24 hours');
  return disabled;
}
