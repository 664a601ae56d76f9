// Frozen: never edit a migration once it has landed; add a new dated one.
// Notifications are made from domain events (docs/api.md, "Working together" → "Notifications"):
// a statement-level trigger on domain_events writes one `notifications.fan_out` job per event
// that may notify someone, in the event's own transaction, whichever code path recorded it (a
// reply, a note, round robin, a bulk assignment, the SLA task). A job exists if and only if its
// cause committed; it carries the event itself, since events are pruned after a few days.
// Which agents get what is decided by the job (notifications/notifications.fanout.ts).
import { type Kysely, sql } from 'kysely';

const statements = [
  `create function domain_events_notifications() returns trigger language plpgsql as $$
   begin
     insert into jobs (kind, payload)
       select 'notifications.fan_out',
              jsonb_build_object('event_id', e.id, 'type', e.type, 'payload', e.payload, 'created_at', e.created_at)
       from new_events e
       where e.type in ('conversation.assigned', 'conversation.sla_warning', 'conversation.sla_breached')
          -- a contact's message (reply; not an automatic one: an out-of-office notifies nobody)
          -- or an agent's private note (its mentions)
          or (e.type = 'message.created' and (
                (e.payload->>'sender_type' = 'contact' and e.payload->>'type' = 'incoming'
                 and not exists (select 1 from messages m
                                 where m.id = (e.payload->>'message_id')::integer and m.meta ? 'auto_submitted'))
             or (e.payload->>'sender_type' = 'agent' and e.payload->>'private' = 'true')))
       order by e.id;
     return null;
   end
   $$`,
  `create trigger domain_events_notifications after insert on domain_events
     referencing new table as new_events
     for each statement execute function domain_events_notifications()`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
