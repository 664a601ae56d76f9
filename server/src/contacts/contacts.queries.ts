// Every SQL statement of the contacts domain. Contacts are `users` rows of type
// contact or visitor; `live` means not soft-deleted.
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { Database, NewUser, UserUpdate } from '../db/types.ts';
import { containsPattern } from '../db/like.ts';

const CONTACT_TYPES = ['contact', 'visitor'] as const;

type UsersAlias = Database & { u: Database['users'] };

/** The predicate the partial index users_contacts_created_idx is built on. */
function liveContact(eb: ExpressionBuilder<UsersAlias, 'u'>) {
  return eb.and([eb('u.type', 'in', CONTACT_TYPES), eb('u.deleted_at', 'is', null)]);
}

/** The Agent-shaped record of contacts: a contact has no roles, permissions, teams or API key. */
function selectContactRecords(db: DB) {
  return db
    .selectFrom('users as u')
    .where(liveContact)
    .select([
      'u.id',
      'u.created_at',
      'u.updated_at',
      'u.first_name',
      'u.last_name',
      'u.email',
      'u.type',
      'u.availability_status',
      'u.phone_number_country_code',
      'u.phone_number',
      'u.avatar_url',
      'u.enabled',
      'u.last_active_at',
      'u.last_login_at',
      'u.custom_attributes',
      'u.load_remote_images',
    ]);
}

type ContactRow = Awaited<ReturnType<ReturnType<typeof selectContactRecords>['executeTakeFirstOrThrow']>>;

export type ContactRecord = ContactRow & {
  roles: string[];
  permissions: string[];
  teams: Array<{ id: number; name: string; emoji: string }>;
  api_key: null;
  api_key_last_used_at: null;
};

function toRecord(row: ContactRow): ContactRecord {
  return { ...row, roles: [], permissions: [], teams: [], api_key: null, api_key_last_used_at: null };
}

export async function findContactRecord(db: DB, id: number): Promise<ContactRecord | undefined> {
  const row = await selectContactRecords(db).where('u.id', '=', id).executeTakeFirst();
  return row ? toRecord(row) : undefined;
}

/** Many records in one statement; unknown or deleted ids are left out. */
export async function findContactRecords(db: DB, ids: readonly number[]): Promise<ContactRecord[]> {
  if (ids.length === 0) return [];
  const rows = await selectContactRecords(db)
    .where('u.id', '=', sql<number>`any(${[...ids]}::int[])`)
    .execute();
  return rows.map(toRecord);
}

export interface ContactListFilter {
  q?: string;
  orderBy: 'created_at' | 'updated_at' | 'first_name' | 'email';
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
}

/** Which contacts a caller may read, as SQL over `users` aliased `u` (conversations/contacts.access.ts). */
export type ReadableContacts = (eb: ExpressionBuilder<UsersAlias, 'u'>) => Expression<SqlBool>;

export async function listContactRecords(
  db: DB,
  readable: ReadableContacts,
  filter: ContactListFilter,
): Promise<{ rows: ContactRecord[]; total: number }> {
  let base = db.selectFrom('users as u').where(liveContact).where(readable);
  let records = selectContactRecords(db).where(readable);
  if (filter.q) {
    const pattern = containsPattern(filter.q.toLowerCase());
    const match = sql<boolean>`(lower(u.first_name || ' ' || u.last_name) like ${pattern} or lower(u.email) like ${pattern} or lower(u.phone_number) like ${pattern})`;
    base = base.where(match);
    records = records.where(match);
  }
  const [count, rows] = await Promise.all([
    base.select(sql<number>`count(*)::int`.as('total')).executeTakeFirstOrThrow(),
    records
      .orderBy(filter.orderBy === 'first_name' ? sql`lower(u.first_name)` : `u.${filter.orderBy}`, filter.order)
      .orderBy('u.id', filter.order)
      .limit(filter.limit)
      .offset(filter.offset)
      .execute(),
  ]);
  return { rows: rows.map(toRecord), total: count.total };
}

/** Whether a live contact exists and whether `readable` allows it; undefined when it does not exist. */
export async function contactReadability(
  db: DB,
  id: number,
  readable: ReadableContacts | null,
): Promise<{ readable: boolean } | undefined> {
  return db
    .selectFrom('users as u')
    .where(liveContact)
    .where('u.id', '=', id)
    .select((eb) => sql<boolean>`${readable ? readable(eb) : sql<SqlBool>`false`}`.as('readable'))
    .executeTakeFirst();
}

/** The identity of a live contact, locked for the rest of the transaction. */
export async function lockContact(db: DB, id: number) {
  return db
    .selectFrom('users as u')
    .where(liveContact)
    .where('u.id', '=', id)
    .select(['u.id', 'u.email', 'u.external_user_id'])
    .forUpdate()
    .executeTakeFirst();
}

export async function contactExists(db: DB, id: number): Promise<boolean> {
  const row = await db.selectFrom('users as u').where(liveContact).where('u.id', '=', id).select('u.id').executeTakeFirst();
  return row !== undefined;
}

/** Mirrors users_contact_email_key: email is unique among live contacts without an external id. */
export async function contactEmailTaken(db: DB, email: string, exceptId: number | null): Promise<boolean> {
  let query = db
    .selectFrom('users as u')
    .where(liveContact)
    .where(sql`lower(u.email)`, '=', email.toLowerCase())
    .where('u.external_user_id', 'is', null)
    .select('u.id');
  if (exceptId !== null) query = query.where('u.id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

/** Mirrors users_contact_external_id_key: the external id is unique among live contacts. */
export async function contactExternalIdTaken(db: DB, externalUserId: string, exceptId: number | null): Promise<boolean> {
  let query = db.selectFrom('users as u').where(liveContact).where('u.external_user_id', '=', externalUserId).select('u.id');
  if (exceptId !== null) query = query.where('u.id', '!=', exceptId);
  return (await query.executeTakeFirst()) !== undefined;
}

export async function insertContact(db: DB, values: NewUser): Promise<number> {
  const row = await db.insertInto('users').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Inserts a contact unless a live one already holds the email (users_contact_email_key): its id, or undefined. */
export async function insertContactUnlessEmailTaken(db: DB, values: NewUser): Promise<number | undefined> {
  const row = await db
    .insertInto('users')
    .values(values)
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return row?.id;
}

export async function updateContact(db: DB, id: number, values: UserUpdate): Promise<void> {
  await db.updateTable('users').set(values).where('id', '=', id).execute();
}

// Notes

const MAX_NOTES = 1000;

function selectNotes(db: DB) {
  return db
    .selectFrom('contact_notes as n')
    .leftJoin('users as a', 'a.id', 'n.user_id')
    .select([
      'n.id',
      'n.created_at',
      'n.updated_at',
      'n.contact_id',
      'n.note',
      'n.user_id',
      sql<string>`coalesce(a.first_name, '')`.as('first_name'),
      sql<string>`coalesce(a.last_name, '')`.as('last_name'),
      'a.avatar_url',
    ]);
}

/** Newest first (index contact_notes_contact_idx), capped at MAX_NOTES. */
export async function listNotes(db: DB, contactId: number) {
  return selectNotes(db)
    .where('n.contact_id', '=', contactId)
    .orderBy('n.created_at', 'desc')
    .orderBy('n.id', 'desc')
    .limit(MAX_NOTES)
    .execute();
}

export async function findNote(db: DB, contactId: number, noteId: number) {
  return selectNotes(db).where('n.contact_id', '=', contactId).where('n.id', '=', noteId).executeTakeFirst();
}

export async function insertNote(
  db: DB,
  values: { contact_id: number; user_id: number; note: string; created_at: Date; updated_at: Date },
): Promise<number> {
  const row = await db.insertInto('contact_notes').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function deleteNote(db: DB, noteId: number): Promise<void> {
  await db.deleteFrom('contact_notes').where('id', '=', noteId).execute();
}

/** A contact or visitor that is not deleted (it may be blocked). */
export async function findLiveContact(db: DB, id: number) {
  return db
    .selectFrom('users')
    .where('id', '=', id)
    .where('type', 'in', ['contact', 'visitor'])
    .where('deleted_at', 'is', null)
    .select(['id', 'enabled'])
    .executeTakeFirst();
}

/** The live contact with this email (case-insensitive); one without an external id first, then the oldest. */
export async function findLiveContactByEmail(db: DB, email: string) {
  return db
    .selectFrom('users')
    .where('type', 'in', ['contact', 'visitor'])
    .where('deleted_at', 'is', null)
    .where(sql`lower(email)`, '=', email.toLowerCase())
    .select(['id', 'enabled'])
    .orderBy(sql`external_user_id is null`, 'desc')
    .orderBy('id')
    .executeTakeFirst();
}

/** Sets the contact's last_active_at to `now` unless it was set after `staleBefore`. */
export async function touchLastActive(db: DB, contactId: number, now: Date, staleBefore: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ last_active_at: now })
    .where('id', '=', contactId)
    .where((eb) => eb.or([eb('last_active_at', 'is', null), eb('last_active_at', '<', staleBefore)]))
    .execute();
}

/** The fields macro placeholders fill in. */
export async function findContactFields(db: DB, contactId: number) {
  return db.selectFrom('users').where('id', '=', contactId).select(['first_name', 'last_name', 'email']).executeTakeFirst();
}
