// The domain-event outbox. A service appends here inside the transaction of the
// change it describes; dispatchers (webhooks, sockets) consume the table.
import type { DB } from '../db/database.ts';

export async function recordEvent(db: DB, type: string, payload: Record<string, unknown>, at: Date): Promise<void> {
  await db.insertInto('domain_events').values({ type, payload: JSON.stringify(payload), created_at: at }).execute();
}
