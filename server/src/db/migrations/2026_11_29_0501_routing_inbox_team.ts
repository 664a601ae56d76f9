// Frozen: never edit a migration once it has landed; add a new dated one.
// Routing by inbox (inboxes.service.ts, conversations/conversations.team.ts): an inbox's default
// team, which a new conversation arriving without one enters (its SLA, its round robin), cleared
// when the team is deleted; and `assign_on_first_reply`, which gives an unassigned conversation to
// the agent who sends its first public reply. Inboxes are few: no index on the foreign key.
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table inboxes
    add column default_team_id integer references teams (id) on delete set null,
    add column assign_on_first_reply boolean not null default false`.execute(db);
}
