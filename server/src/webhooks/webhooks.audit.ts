// What a webhook's audit entries show: name, url, enabled, events, whether the signing secret
// changed (masked: only that it did) and each custom header as its own field (`headers.X-Team`),
// the credentials among them masked by the rule answers use (webhooks.input.ts); the url without
// its user info and query values, which often carry a token.
import { type AuditActor, type AuditChanges, changesBetween, MASKED, recordAudit } from '../audit/audit.service.ts';
import type { DB } from '../db/database.ts';
import { isSensitiveHeader } from './webhooks.input.ts';

export type WebhookAction = 'webhook.created' | 'webhook.updated' | 'webhook.deleted' | 'webhook.secret_rotated';

interface Audited {
  name: string;
  url: string;
  enabled: boolean;
  events: string[];
  headers: Record<string, string>;
}

function flat(row: Audited | null): Record<string, unknown> | null {
  if (!row) return null;
  const { headers, ...rest } = row;
  return { ...rest, ...Object.fromEntries(Object.entries(headers).map(([name, value]) => [`headers.${name}`, value])) };
}

const HEADER = 'headers.';

/**
 * The fields that differ; a credential header's values masked (an emptied one stays empty). The
 * rows never carry the secret: `secretChanged` says whether the change set one (always on create
 * and delete).
 */
export function webhookChanges(
  before: Audited | null,
  after: Audited | null,
  secretChanged = before === null || after === null,
): AuditChanges {
  const changes = changesBetween(flat(before), flat(after));
  if (secretChanged) changes['secret'] = [before ? MASKED : null, after ? MASKED : null];
  // Compared whole, shown without what often carries a credential: a password in the address, query values.
  if (changes['url'])
    changes['url'] = changes['url'].map((value) => (typeof value === 'string' ? withoutCredentials(value) : value)) as [unknown, unknown];
  for (const [field, pair] of Object.entries(changes)) {
    if (field.startsWith(HEADER) && isSensitiveHeader(field.slice(HEADER.length))) {
      changes[field] = pair.map((value) => (value === null || value === '' ? value : MASKED)) as [unknown, unknown];
    }
  }
  return changes;
}

/** The address with its user info and every query value masked (`https://[redacted]@host/path?token=[redacted]`). */
export function withoutCredentials(address: string): string {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return MASKED;
  }
  const user = url.username || url.password ? `${MASKED}@` : '';
  const keys = [...new Set(url.searchParams.keys())];
  const query = keys.length === 0 ? '' : `?${keys.map((key) => `${encodeURIComponent(key)}=${MASKED}`).join('&')}`;
  return `${url.protocol}//${user}${url.host}${url.pathname}${query}`;
}

/** Writes the webhook's entry; an update that changed nothing writes none. */
export async function auditWebhook(
  trx: DB,
  actor: AuditActor,
  action: WebhookAction,
  webhook: { id: number; name: string },
  changes: AuditChanges,
  at: Date,
): Promise<void> {
  if (action === 'webhook.updated' && Object.keys(changes).length === 0) return;
  await recordAudit(trx, actor, { action, resource: { type: 'webhook', id: webhook.id, name: webhook.name }, changes }, at);
}
