// Frozen: never edit a migration once it has landed; add a new dated one.
// CSAT surveys (docs/api.md, "CSAT"): at most one per conversation (the unique key is the rule
// "a survey on the first resolve only": a second resolve finds it and creates none). The uuid
// is random (gen_random_uuid, 122 random bits): it is the only credential of the public page.
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table csat_surveys (
    id serial primary key,
    uuid uuid not null default gen_random_uuid(),
    conversation_id integer not null references conversations (id) on delete cascade,
    sent_via text not null check (sent_via in ('livechat', 'email')),
    rating smallint check (rating between 1 and 5),
    feedback text not null default '' check (char_length(feedback) <= 2000),
    submitted_at timestamptz,
    created_at timestamptz not null default now(),
    check ((rating is null) = (submitted_at is null))
  )`,
  `create unique index csat_surveys_uuid_key on csat_surveys (uuid)`,
  `create unique index csat_surveys_conversation_key on csat_surveys (conversation_id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
