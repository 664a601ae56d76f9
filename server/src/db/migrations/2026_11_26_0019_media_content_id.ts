// Frozen: never edit a migration once it has landed; add a new dated one.
// Inline images of incoming mail (docs/email.md): the Content-ID that the mail's HTML names in
// its `cid:` links, kept on the stored file so a client can show the image where the HTML puts it.
import { type Kysely, sql } from 'kysely';

const statements = [`alter table media add column content_id text check (char_length(content_id) <= 500)`];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
