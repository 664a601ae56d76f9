// Frozen: never edit a migration once it has landed; add a new dated one.
// The wake-up of the realtime relay leaves the writers' transactions (db/event-commits.ts): the
// NOTIFY that a statement-level trigger sent from inside every transaction recording domain
// events made PostgreSQL serialise those commits, WAL flush included, on one lock. The database
// layer now tells its own process after the commit and other processes by a coalesced NOTIFY on
// the same channel. During a rolling upgrade, an instance still running the previous version
// hears the new ones' events from that NOTIFY and its own within its 10 s safety poll.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists domain_events_notify on domain_events`.execute(db);
  await sql`drop function if exists domain_events_notify()`.execute(db);
}
