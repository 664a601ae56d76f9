// Standard Webhooks signatures (docs/api.md, "Webhooks" → "Signatures"): the `standardwebhooks`
// package signs `<webhook-id>.<webhook-timestamp>.<body>` with HMAC-SHA256 under the webhook's
// `whsec_…` secret, so that any Standard Webhooks library verifies what Parley sends.
import { Webhook } from 'standardwebhooks';
import packageJson from '../../package.json' with { type: 'json' };
import type { AppDeps } from '../deps.ts';
import { decryptWebhookSecret } from './webhooks.secret.ts';

export const USER_AGENT = `Parley-Webhooks/${packageJson.version}`;

/** The headers Parley sets on every request; a webhook's own `headers` never replace them. */
const RESERVED = new Set(['webhook-id', 'webhook-timestamp', 'webhook-signature', 'content-type', 'user-agent', 'content-length', 'host']);

/** The webhook-id of a delivery: its uuid, the same on every attempt. */
export function messageIdOf(uuid: string): string {
  return `msg_${uuid}`;
}

export interface Signed {
  headers: Record<string, string>;
  /** The base64 signature (what a snippet must never show). */
  signature: string;
}

/**
 * The request headers of one attempt: the webhook's custom headers (names the CRUD side
 * validated), then Parley's own, which win whatever the case of a custom name.
 */
export function signedHeaders(
  signer: Webhook,
  input: { msgId: string; at: Date; body: string; custom: Readonly<Record<string, string>> },
): Signed {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.custom)) if (!RESERVED.has(name.toLowerCase())) headers[name] = value;
  const versioned = signer.sign(input.msgId, input.at, input.body);
  headers['content-type'] = 'application/json';
  headers['user-agent'] = USER_AGENT;
  headers['webhook-id'] = input.msgId;
  headers['webhook-timestamp'] = String(Math.floor(input.at.getTime() / 1000));
  headers['webhook-signature'] = versioned;
  return { headers, signature: versioned.slice(versioned.indexOf(',') + 1) };
}

/**
 * Decrypted signers by webhook, kept while the webhook row is unchanged (its updated_at): a
 * rotated secret changes the row, and the next attempt decrypts it again. Bounded.
 */
export class SignerCache {
  readonly #entries = new Map<number, { updatedAt: number; signer: Webhook; secret: string }>();
  readonly #deps: Pick<AppDeps, 'config'>;
  readonly #max: number;

  constructor(deps: Pick<AppDeps, 'config'>, max = 1000) {
    this.#deps = deps;
    this.#max = max;
  }

  /** The signer of a webhook and its plain secret (to keep it out of snippets). Throws DecryptionError. */
  get(webhookId: number, updatedAt: Date, encrypted: string): { signer: Webhook; secret: string } {
    const cached = this.#entries.get(webhookId);
    if (cached && cached.updatedAt === updatedAt.getTime()) return cached;
    const secret = decryptWebhookSecret(this.#deps, encrypted);
    const entry = { updatedAt: updatedAt.getTime(), signer: new Webhook(secret), secret };
    if (this.#entries.size >= this.#max) this.#entries.clear();
    this.#entries.set(webhookId, entry);
    return entry;
  }
}
