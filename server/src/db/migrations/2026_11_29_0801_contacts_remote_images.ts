// Frozen: never edit a migration once it has landed; add a new dated one.
// A contact's "always load remote images" choice (issue 33): the agent web app holds back remote
// images in a contact's HTML until an agent asks; with this flag set it loads them for every
// agent and device. Off by default (tracking pixels stay blocked).
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column load_remote_images boolean not null default false`.execute(db);
}
