// Table email_readers, its one owner: the lease that lets one instance read an inbox's mailbox
// (holder, lease_until), and the reader's state as admins see it. The supervisor
// (email.readers.ts) takes, renews and releases leases; the reader (email.reader.ts) writes its
// state, and only while its instance holds the lease, so a reader that lost it never overwrites
// what the new holder reports.
//
// Time, as in the job queue: "now" is the later of the database clock and the app clock.
import { type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { EmailReaderState } from '../db/types.ts';
import { channelsWith } from '../inboxes/channels.ts';

/** Every state of a reader (db/types.ts EmailReaderState), for the response schema. */
export const EMAIL_READER_STATES = [
  'stopped',
  'connecting',
  'reading',
  'idle',
  'polling',
  'failing',
] as const satisfies readonly EmailReaderState[];
// Both ways: a state added to the column type must be added here.
const _allStates: readonly (typeof EMAIL_READER_STATES)[number][] = [] as EmailReaderState[];

function nowOf(clockNow: Date): RawBuilder<Date> {
  return sql<Date>`greatest(now(), ${clockNow}::timestamptz)`;
}

/**
 * Takes or renews the leases of these inboxes for `holder`, until now + `leaseMs`: a lease is
 * taken when it is free, expired, or already this holder's. Answers the inboxes `holder` holds
 * now, each with its new lease end.
 */
export async function claimLeases(
  db: DB,
  input: { holder: string; inboxIds: readonly number[]; leaseMs: number; clockNow: Date },
): Promise<Map<number, Date>> {
  if (input.inboxIds.length === 0) return new Map();
  const now = nowOf(input.clockNow);
  const rows = await sql<{ inbox_id: number; lease_until: Date }>`
    insert into email_readers (inbox_id, holder, lease_until, updated_at)
    select wanted.id, ${input.holder}, ${now} + ${input.leaseMs}::double precision * interval '1 millisecond', ${now}
    from unnest(${[...input.inboxIds]}::int[]) as wanted (id)
    where exists (select 1 from inboxes i where i.id = wanted.id)
    on conflict (inbox_id) do update
      set holder = excluded.holder, lease_until = excluded.lease_until, updated_at = excluded.updated_at
      where email_readers.holder = excluded.holder or email_readers.holder is null
        or email_readers.lease_until is null or email_readers.lease_until <= ${now}
    returning inbox_id, lease_until`.execute(db);
  return new Map(rows.rows.map((row) => [Number(row.inbox_id), new Date(row.lease_until)]));
}

/** The earliest end of a lease another holder has on one of these inboxes (when to try again), or null. */
export async function nextForeignExpiry(db: DB, holder: string, inboxIds: readonly number[]): Promise<Date | null> {
  if (inboxIds.length === 0) return null;
  const row = await db
    .selectFrom('email_readers')
    .where('inbox_id', '=', sql<number>`any(${[...inboxIds]}::int[])`)
    .where('holder', '<>', holder)
    .where('lease_until', 'is not', null)
    .select((eb) => eb.fn.min('lease_until').as('until'))
    .executeTakeFirst();
  return row?.until ? new Date(row.until) : null;
}

/** Gives leases back (a stopping instance, a disabled inbox): another instance may take them at once. */
export async function releaseLeases(db: DB, holder: string, inboxIds: readonly number[], clockNow: Date): Promise<void> {
  if (inboxIds.length === 0) return;
  await db
    .updateTable('email_readers')
    .set({ holder: null, lease_until: null, state: 'stopped', updated_at: clockNow })
    .where('inbox_id', '=', sql<number>`any(${[...inboxIds]}::int[])`)
    .where('holder', '=', holder)
    .execute();
}

/** The instance writing for an inbox no longer holds its lease: another may read the mailbox now. */
export class LeaseLost extends Error {
  override name = 'LeaseLost';
}

/**
 * The fence of a transaction that takes mail in: `holder` must hold the inbox's lease, unexpired,
 * or LeaseLost is thrown. The row is then share-locked until the transaction ends, so no other
 * instance can take the lease over in the middle of it; a reader that stalled past its lease
 * (a long pause, a network split) finds it lost and writes nothing.
 */
export async function holdLease(trx: DB, inboxId: number, holder: string, clockNow: Date): Promise<void> {
  const row = await trx
    .selectFrom('email_readers')
    .where('inbox_id', '=', inboxId)
    .where('holder', '=', holder)
    .where('lease_until', '>', nowOf(clockNow))
    .select('inbox_id')
    .forShare()
    .executeTakeFirst();
  if (!row) throw new LeaseLost(`this instance no longer holds the lease of inbox ${inboxId}`);
}

export interface ReaderStateChange {
  state: EmailReaderState;
  connectedAt?: Date | null;
  checkedAt?: Date;
  /** An error (already free of secrets), or null to clear the last one. */
  error?: string | null;
}

/** Writes the reader's state while `holder` holds the lease; false when it does not (any more). */
export async function recordReaderState(db: DB, inboxId: number, holder: string, change: ReaderStateChange, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('email_readers')
    .set({
      state: change.state,
      updated_at: now,
      ...(change.connectedAt !== undefined ? { connected_at: change.connectedAt } : {}),
      ...(change.checkedAt !== undefined ? { last_checked_at: change.checkedAt } : {}),
      ...(change.error !== undefined && change.error !== null ? { last_error: change.error.slice(0, 2000), last_error_at: now } : {}),
    })
    .where('inbox_id', '=', inboxId)
    .where('holder', '=', holder)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The reader's row of an inbox, for the status route; undefined when no reader ever ran. */
export async function readReaderState(db: DB, inboxId: number) {
  return db
    .selectFrom('email_readers')
    .where('inbox_id', '=', inboxId)
    .select(['holder', 'lease_until', 'state', 'connected_at', 'last_checked_at', 'last_error', 'last_error_at'])
    .executeTakeFirst();
}

/** The email inboxes that should have a reader: live and enabled, each with when its settings last changed. */
export async function listReadableInboxes(db: DB): Promise<Array<{ id: number; updated_at: Date }>> {
  return db
    .selectFrom('inboxes')
    .where('channel', 'in', channelsWith('threadsByMail'))
    .where('enabled', '=', true)
    .where('deleted_at', 'is', null)
    .select(['id', 'updated_at'])
    .orderBy('id')
    .execute();
}
