// Frozen: never edit a migration once it has landed; add a new dated one.
// Followers and mentions (docs/api.md, "Working together"). An agent follows a conversation
// when assigned to it or when writing in it: a statement-level trigger on domain_events adds
// them in the event's own transaction, whichever code path (a reply, a note, round robin, a
// bulk assignment) recorded the event. Mentions are written by the note's own transaction
// (followers/mentions.service.ts), once the mentioned agents' access is checked.
import { type Kysely, sql } from 'kysely';

const statements = [
  `create table conversation_followers (
    conversation_id integer not null references conversations (id) on delete cascade,
    agent_id integer not null references users (id) on delete cascade,
    created_at timestamptz not null,
    primary key (conversation_id, agent_id)
  )`,
  `create index conversation_followers_agent_idx on conversation_followers (agent_id, conversation_id)`,
  `create table conversation_mentions (
    id bigserial primary key,
    conversation_id integer not null references conversations (id) on delete cascade,
    message_id integer not null references messages (id) on delete cascade,
    agent_id integer not null references users (id) on delete cascade,
    created_at timestamptz not null,
    unique (message_id, agent_id)
  )`,
  `create index conversation_mentions_agent_idx on conversation_mentions (agent_id, created_at desc, id desc)`,
  `create index conversation_mentions_conversation_idx on conversation_mentions (conversation_id)`,
  `create function domain_events_follow() returns trigger language plpgsql as $$
   begin
     insert into conversation_followers (conversation_id, agent_id, created_at)
       select distinct on (f.conversation_id, f.agent_id) f.conversation_id, f.agent_id, f.created_at
       from (
         select (e.payload->>'conversation_id')::integer as conversation_id,
                (case when e.type = 'message.created' then e.payload->>'sender_id' else e.payload->>'assignee_id' end)::integer as agent_id,
                e.created_at
         from new_events e
         where (e.type = 'message.created' and e.payload->>'sender_type' = 'agent' and e.payload->>'sender_id' is not null)
            or (e.type = 'conversation.assigned' and e.payload->>'assignee_type' = 'user')
       ) f
       join users u on u.id = f.agent_id and u.type = 'agent'
       order by f.conversation_id, f.agent_id, f.created_at
     on conflict do nothing;
     return null;
   end
   $$`,
  `create trigger domain_events_follow after insert on domain_events
     referencing new table as new_events
     for each statement execute function domain_events_follow()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
