// The outbox table. Writers go through events.service.ts, which types each event.
import type { DB } from '../db/database.ts';

export async function insertEvent(db: DB, type: string, payload: object, at: Date): Promise<void> {
  await db
    .insertInto('domain_events')
    .values({ type, payload: JSON.stringify(payload), created_at: at })
    .execute();
}
