// An email inbox as the channel uses it: its address parsed and its settings typed, secrets in
// clear (never answered to a client). One loader for the reader and the sender.
import type { Static } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { DataError } from '../errors.ts';
import { channelHas } from '../inboxes/channels.ts';
import { getInboxWithSecrets } from '../inboxes/inboxes.service.ts';
import type { EmailConfig } from '../inboxes/inboxes.schema.ts';
import { DecryptionError } from '../security/encryption.ts';
import { type MailAddress, parseAddress } from './email.addresses.ts';

/** The stored settings, defaults filled in on save (inboxes.service.ts). */
export type EmailSettings = Required<Static<typeof EmailConfig>> & {
  imap: Required<Static<typeof EmailConfig>['imap']>;
  smtp: Static<typeof EmailConfig>['smtp'] &
    Required<Pick<Static<typeof EmailConfig>['smtp'], 'username' | 'password' | 'tls_skip_verify'>>;
};

export interface EmailInbox {
  id: number;
  uuid: string;
  name: string;
  enabled: boolean;
  /** The inbox's `from` as written: `Support <support@example.com>`. */
  from: string;
  address: MailAddress;
  settings: EmailSettings;
  updatedAt: Date;
}

/**
 * The live email inbox `id`, or null when it is gone or not an email inbox. A password that no
 * longer decrypts is a DataError saying what to do.
 */
export async function loadEmailInbox(deps: AppDeps, id: number): Promise<EmailInbox | null> {
  let row: Awaited<ReturnType<typeof getInboxWithSecrets>>;
  try {
    row = await getInboxWithSecrets(deps, id);
  } catch (error) {
    if (!(error instanceof DecryptionError)) throw error;
    throw new DataError(
      `The mail passwords of inbox ${id} cannot be decrypted (was SECRET_KEY changed?): an administrator must enter them again`,
    );
  }
  if (!row || !channelHas(row.channel, 'threadsByMail') || row.from === null) return null;
  return {
    id: row.id,
    uuid: row.uuid,
    name: row.name,
    enabled: row.enabled,
    from: row.from,
    address: parseAddress(row.from),
    settings: row.config as unknown as EmailSettings,
    updatedAt: row.updated_at,
  };
}

/** Inboxes as last loaded for sending, by app and inbox id, with the version they were loaded at. */
const loadedByApp = new WeakMap<AppDeps, Map<number, { version: string; inbox: EmailInbox }>>();
const MAX_KEPT_INBOXES = 1000;

/**
 * The email inbox `id` at `version` (a digest of its `from` and stored settings, read with the
 * message to send) and `updatedAt`: kept from an earlier call while the version is the same, so
 * that each mail does not read the inbox again nor decrypt its passwords. Loaded otherwise, and
 * kept only when what was loaded is the row the version was read from (its `updated_at` is the
 * same; the inbox may have changed in between). Null when it is gone or not an email inbox.
 */
export async function emailInboxAt(deps: AppDeps, id: number, version: string, updatedAt: Date): Promise<EmailInbox | null> {
  let loaded = loadedByApp.get(deps);
  if (!loaded) {
    loaded = new Map();
    loadedByApp.set(deps, loaded);
  }
  const kept = loaded.get(id);
  if (kept?.version === version) return kept.inbox;
  const inbox = await loadEmailInbox(deps, id);
  if (!inbox) {
    loaded.delete(id);
    return null;
  }
  if (inbox.updatedAt.getTime() === updatedAt.getTime()) {
    loaded.delete(id);
    // The oldest entry makes room (Map keeps insertion order).
    if (loaded.size >= MAX_KEPT_INBOXES) loaded.delete(loaded.keys().next().value as number);
    loaded.set(id, { version, inbox });
  }
  return inbox;
}
