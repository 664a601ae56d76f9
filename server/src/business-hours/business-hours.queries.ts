import { sql } from 'kysely';
import type { DB } from '../db/database.ts';
import type { HolidayEntry, WeeklyHours } from './business-hours.input.ts';

const columns = ['id', 'created_at', 'updated_at', 'name', 'description', 'timezone', 'always_open', 'hours', 'holidays'] as const;

export interface BusinessHoursValues {
  name?: string;
  description?: string;
  timezone?: string;
  always_open?: boolean;
  hours?: WeeklyHours;
  holidays?: HolidayEntry[];
}

/** jsonb columns get their JSON text: the drivers would write a JS array as a PostgreSQL array. */
function stored<T extends BusinessHoursValues>(values: T): Omit<T, 'hours' | 'holidays'> & { hours?: string; holidays?: string } {
  const { hours, holidays, ...rest } = values;
  return {
    ...rest,
    ...(hours !== undefined ? { hours: JSON.stringify(hours) } : {}),
    ...(holidays !== undefined ? { holidays: JSON.stringify(holidays) } : {}),
  };
}

export async function listBusinessHours(db: DB) {
  return db.selectFrom('business_hours').select(columns).orderBy('name').orderBy('id').execute();
}

export async function findBusinessHours(db: DB, id: number) {
  return db.selectFrom('business_hours').where('id', '=', id).select(columns).executeTakeFirst();
}

export async function businessHoursExists(db: DB, id: number): Promise<boolean> {
  return (await db.selectFrom('business_hours').where('id', '=', id).select('id').executeTakeFirst()) !== undefined;
}

/**
 * Locks the row until the transaction ends: a team or the settings that would start using it
 * meanwhile waits (its foreign key check), so the "in use" check that follows stays true.
 */
export async function lockBusinessHours(db: DB, id: number): Promise<boolean> {
  return (await db.selectFrom('business_hours').where('id', '=', id).select('id').forUpdate().executeTakeFirst()) !== undefined;
}

export async function findBusinessHoursIdByName(db: DB, name: string) {
  return db.selectFrom('business_hours').where(sql`lower(name)`, '=', name.trim().toLowerCase()).select('id').executeTakeFirst();
}

export async function insertBusinessHours(db: DB, values: BusinessHoursValues & { name: string; timezone: string }) {
  return db.insertInto('business_hours').values(stored(values)).returning(columns).executeTakeFirstOrThrow();
}

export async function updateBusinessHours(db: DB, id: number, values: BusinessHoursValues & { updated_at: Date }) {
  return db.updateTable('business_hours').set(stored(values)).where('id', '=', id).returning(columns).executeTakeFirst();
}

export async function deleteBusinessHours(db: DB, id: number): Promise<void> {
  await db.deleteFrom('business_hours').where('id', '=', id).execute();
}

// The references to business hours live in teams and the general settings; they are read here,
// beside the rule they serve, because those domains look business hours up (no import cycle).

/** Who uses these hours: the names of up to `limit` teams (and how many in all), and whether they are the default. */
export async function businessHoursUsers(db: DB, id: number, limit: number) {
  const teams = await db
    .selectFrom('teams')
    .where('business_hours_id', '=', id)
    .select(['name', sql<number>`(count(*) over ())::int`.as('total')])
    .orderBy('name')
    .limit(limit)
    .execute();
  const settings = await db.selectFrom('general_settings').where('business_hours_id', '=', id).select('id').executeTakeFirst();
  // Live-chat inboxes name theirs in their config (what their widget shows).
  const inboxes = await db
    .selectFrom('inboxes')
    .where('deleted_at', 'is', null)
    .where(sql<boolean>`config @> jsonb_build_object('business_hours_id', ${id}::int)`)
    .select('name')
    .orderBy('name')
    .limit(limit)
    .execute();
  return {
    teams: teams.map((team) => team.name),
    teamCount: teams[0]?.total ?? 0,
    isDefault: settings !== undefined,
    inboxes: inboxes.map((inbox) => inbox.name),
  };
}
