// Frozen: never edit a migration once it has landed; add a new dated one.
// An agent whose socket opens comes back from an absence: an `offline` that nobody chose (the
// 5-minute absence rule put it there, or the agent was created so) becomes `available`
// (agents.service.ts, returnFromAbsence). An offline nobody chose is marked by source `idle`,
// so new agents now start offline with source `idle`. Existing agents who are offline with
// source `user` but never changed their availability themselves (no `agent.availability_changed`
// event of theirs) were created so: they get source `idle` too. A manual offline stays.
import { type Kysely, sql } from 'kysely';

const statements = [
  `alter table users alter column availability_source set default 'idle'`,
  `update users u set availability_source = 'idle'
     where u.type = 'agent' and u.availability_status = 'offline' and u.availability_source = 'user'
       and not exists (select 1 from domain_events e
                        where e.type = 'agent.availability_changed' and e.payload->>'agent_id' = u.id::text)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
