// The SQL of contact access and identity changes that reaches beyond the contact's row.
import type { DB } from '../db/database.ts';

/** Every conversation of the contact, locked (in id order, like every writer of several conversations). */
export async function lockContactConversations(db: DB, contactId: number): Promise<Array<{ id: number; uuid: string }>> {
  return db.selectFrom('conversations').where('contact_id', '=', contactId).select(['id', 'uuid']).orderBy('id').forUpdate().execute();
}
