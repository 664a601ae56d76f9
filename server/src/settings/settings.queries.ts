import type { DB } from '../db/database.ts';

const columns = ['business_hours_id', 'timezone'] as const;

/** The one row (migration 0021 writes it; undefined only if someone removed it by hand). */
export async function findGeneralSettings(db: DB, options: { lock?: boolean } = {}) {
  const query = db.selectFrom('general_settings').select(columns);
  return (options.lock ? query.forUpdate() : query).executeTakeFirst();
}

export async function saveGeneralSettings(
  db: DB,
  values: { business_hours_id?: number | null; timezone?: string | null; updated_at: Date },
) {
  return db
    .insertInto('general_settings')
    .values({ id: true, ...values })
    .onConflict((oc) => oc.column('id').doUpdateSet(values))
    .returning(columns)
    .executeTakeFirstOrThrow();
}
