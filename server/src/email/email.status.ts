// What admins see of an email inbox's reader (GET /inboxes/{id}/email/status and /skipped), and
// the retention of the skipped-mail list (a periodic task of workers.ts).
import type { AppDeps } from '../deps.ts';
import { NotFoundError } from '../errors.ts';
import type { PageRequest } from '../http/schemas.ts';
import { pagedResult } from '../http/schemas.ts';
import { channelHas } from '../inboxes/channels.ts';
import { findLiveInbox } from '../inboxes/inboxes.service.ts';
import { readCursor } from './email.cursor.ts';
import { readReaderState } from './email.reader-state.ts';

const DAY = 24 * 3600 * 1000;
/** Skipped mails are listed this long. */
export const SKIPPED_RETENTION_MS = 30 * DAY;
const PURGE_BATCH = 1000;

/** 404 unless `id` is a live email inbox. */
async function assertEmailInbox(deps: AppDeps, id: number): Promise<void> {
  const inbox = await findLiveInbox(deps.db, id);
  if (!inbox) throw new NotFoundError('Inbox not found');
  if (!channelHas(inbox.channel, 'threadsByMail')) throw new NotFoundError('Not an email inbox: only email inboxes have a mail reader');
}

export async function readerStatus(deps: AppDeps, id: number) {
  await assertEmailInbox(deps, id);
  const [row, cursor] = await Promise.all([readReaderState(deps.db, id), readCursor(deps.db, id)]);
  // A lease that ran out belongs to no one: its holder died or stopped.
  const live = row?.holder != null && row.lease_until !== null && row.lease_until.getTime() > deps.clock.now().getTime();
  return {
    state: live ? (row?.state ?? 'stopped') : 'stopped',
    holder: live ? (row?.holder ?? null) : null,
    connected_at: row?.connected_at ?? null,
    last_checked_at: row?.last_checked_at ?? null,
    last_error: row?.last_error ?? null,
    last_error_at: row?.last_error_at ?? null,
    cursor: cursor ? { mailbox: cursor.mailbox, uidvalidity: Number(cursor.uidvalidity), last_uid: Number(cursor.last_uid) } : null,
  };
}

/** The mails the reader passed over, newest first, paged. */
export async function listSkippedMails(deps: AppDeps, id: number, page: PageRequest) {
  await assertEmailInbox(deps, id);
  const base = deps.db.selectFrom('email_skipped').where('inbox_id', '=', id);
  const [rows, count] = await Promise.all([
    base
      .select(['id', 'uidvalidity', 'uid', 'header_id', 'sender', 'subject', 'size', 'reason', 'created_at'])
      .orderBy('id', 'desc')
      .limit(page.pageSize)
      .offset(page.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
  ]);
  const results = rows.map(({ header_id, ...row }) => ({
    ...row,
    id: Number(row.id),
    uidvalidity: row.uidvalidity === null ? null : Number(row.uidvalidity),
    uid: row.uid === null ? null : Number(row.uid),
    message_id: header_id,
  }));
  return pagedResult(results, Number(count.total), page);
}

/** Deletes skipped-mail entries past their retention, in bounded batches (at most 100 a run). Returns how many. */
export async function purgeSkippedMails(deps: AppDeps): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - SKIPPED_RETENTION_MS);
  let total = 0;
  for (let round = 0; round < 100; round += 1) {
    const result = await deps.db
      .deleteFrom('email_skipped')
      .where('id', 'in', (eb) => eb.selectFrom('email_skipped').where('created_at', '<', before).select('id').limit(PURGE_BATCH))
      .executeTakeFirst();
    const deleted = Number(result.numDeletedRows);
    total += deleted;
    if (deleted < PURGE_BATCH) break;
  }
  return total;
}
