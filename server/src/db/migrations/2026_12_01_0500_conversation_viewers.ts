// Who is viewing a conversation now (docs/api.md, "Presence"): one row per agent socket and
// conversation it views, written by the instance holding the socket (viewers/viewers.live.ts).
// The rows are the state every instance reads the list from, so an agent on one instance sees a
// viewer on another. The holding instance refreshes `seen_at` every 20 s; a crashed instance's
// rows stop being refreshed and the periodic sweep deletes them after 60 s.
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table conversation_viewers (
    conversation_id integer not null references conversations (id) on delete cascade,
    socket_key text not null,
    agent_id integer not null references users (id) on delete cascade,
    instance text not null,
    replying boolean not null default false,
    since timestamptz not null,
    seen_at timestamptz not null,
    primary key (conversation_id, socket_key)
  )`,
  `create index conversation_viewers_socket_idx on conversation_viewers (socket_key)`,
  `create index conversation_viewers_instance_idx on conversation_viewers (instance)`,
  `create index conversation_viewers_seen_idx on conversation_viewers (seen_at)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
