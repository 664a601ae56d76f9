// An email inbox as the channel uses it: its address parsed and its settings typed, secrets in
// clear (never answered to a client). One loader for the reader and the sender.
import type { Static } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { DataError } from '../errors.ts';
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
  if (!row || row.channel !== 'email' || row.from === null) return null;
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
