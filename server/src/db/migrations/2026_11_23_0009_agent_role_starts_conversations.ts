// Frozen: never edit a migration once it has landed; add a new dated one.
// The built-in Agent role gains `conversations:write` (starting a conversation), which new
// installations seed. Only the built-in role changes, never a custom one; running it again
// changes nothing. Permissions stay sorted in byte order, as the service stores them.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update roles
       set permissions = array(select distinct p collate "C" from unnest(permissions || array['conversations:write']) as p order by 1)
     where is_builtin and lower(name) = 'agent' and not ('conversations:write' = any (permissions))
  `.execute(db);
}
