// Web Push (docs/api.md, "Web Push"): the installation's VAPID key pair (one row, made on first
// use; the private key encrypted with SECRET_KEY) and the agents' push subscriptions. An
// endpoint belongs to one agent: the browser profile that holds it shows the notifications of
// the agent who last turned push on there.
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table push_vapid_keys (
    id smallint primary key default 1 check (id = 1),
    public_key text not null,
    private_key text not null,
    created_at timestamptz not null
  )`,
  `create table push_subscriptions (
    id serial primary key,
    agent_id integer not null references users (id) on delete cascade,
    -- the sign-in that subscribed (null: API credentials); a session that ends takes its pushes with it
    session_id text references sessions (id) on delete cascade,
    endpoint text not null unique check (char_length(endpoint) <= 2048),
    p256dh text not null check (char_length(p256dh) <= 100),
    auth text not null check (char_length(auth) <= 100),
    user_agent text check (char_length(user_agent) <= 512),
    created_at timestamptz not null,
    updated_at timestamptz not null,
    last_success_at timestamptz
  )`,
  `create index push_subscriptions_agent_idx on push_subscriptions (agent_id, id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
