// How far each email inbox's reader got (table email_cursors), and the mails it passed over
// (email_skipped). Both are written in the transaction that takes mails in or passes them (a
// chunk of a batch, email.ingest.ts), so a crash repeats at most the mails in hand, which
// mail_ids then recognises.
import { sql } from 'kysely';
import type { DB } from '../db/database.ts';

export interface MailSource {
  mailbox: string;
  uidvalidity: number;
  uid: number;
}

export async function readCursor(db: DB, inboxId: number) {
  return db.selectFrom('email_cursors').where('inbox_id', '=', inboxId).select(['mailbox', 'uidvalidity', 'last_uid']).executeTakeFirst();
}

/**
 * The reader has dealt with `source.uid`. A cursor of another mailbox or UIDVALIDITY is replaced
 * (the server renumbered its mails: mail_ids keeps them from counting twice); in the same one it
 * only moves forward.
 */
export async function advanceCursor(trx: DB, inboxId: number, source: MailSource, now: Date): Promise<void> {
  await trx
    .insertInto('email_cursors')
    .values({ inbox_id: inboxId, mailbox: source.mailbox, uidvalidity: source.uidvalidity, last_uid: source.uid, updated_at: now })
    .onConflict((oc) =>
      oc.column('inbox_id').doUpdateSet((eb) => ({
        mailbox: eb.ref('excluded.mailbox'),
        uidvalidity: eb.ref('excluded.uidvalidity'),
        // Forward only within the same mailbox and UIDVALIDITY; a new one starts from its own uid.
        last_uid: sql<number>`case when email_cursors.mailbox = excluded.mailbox and email_cursors.uidvalidity = excluded.uidvalidity
          then greatest(email_cursors.last_uid, excluded.last_uid) else excluded.last_uid end`,
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .execute();
}

export interface SkippedMail {
  source: MailSource | null;
  headerId: string | null;
  sender: string | null;
  subject: string | null;
  size: number | null;
  reason: string;
}

/** A mail that could not be taken in, for admins to see (GET /inboxes/{id}/email/skipped). */
export async function recordSkipped(trx: DB, inboxId: number, mail: SkippedMail, now: Date): Promise<void> {
  await trx
    .insertInto('email_skipped')
    .values({
      inbox_id: inboxId,
      uidvalidity: mail.source?.uidvalidity ?? null,
      uid: mail.source?.uid ?? null,
      header_id: mail.headerId?.slice(0, 998) ?? null,
      sender: mail.sender?.slice(0, 998) ?? null,
      subject: mail.subject?.slice(0, 998) ?? null,
      size: mail.size,
      reason: mail.reason.slice(0, 2000),
      created_at: now,
    })
    .execute();
}
