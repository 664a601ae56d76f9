// The installation's general settings (docs/api.md, "General settings").
import type { Static } from 'typebox';
import { type AuditActor, changesBetween, recordAudit } from '../audit/audit.service.ts';
import { assertBusinessHoursExist, getBusinessHoursIfAny } from '../business-hours/business-hours.service.ts';
import { requireTimeZone } from '../business-hours/zoned-time.ts';
import type { DB } from '../db/database.ts';
import type { AppDeps } from '../deps.ts';
import * as q from './settings.queries.ts';
import type { UpdateGeneralSettingsBody } from './settings.schema.ts';

export interface GeneralSettings {
  business_hours_id: number | null;
  timezone: string;
}

/** A stored null time zone follows TIMEZONE, so changing the variable still moves an installation that never chose one. */
function answer(deps: AppDeps, row: { business_hours_id: number | null; timezone: string | null } | undefined): GeneralSettings {
  return { business_hours_id: row?.business_hours_id ?? null, timezone: row?.timezone ?? deps.config.timezone };
}

export async function getGeneralSettings(deps: AppDeps): Promise<GeneralSettings> {
  return answer(deps, await q.findGeneralSettings(deps.db));
}

/**
 * Saves the given settings. Its audit entry shows the stored values (a null time zone: follows
 * TIMEZONE); a save that changes nothing writes none.
 */
export async function updateGeneralSettings(
  deps: AppDeps,
  actor: AuditActor,
  input: Static<typeof UpdateGeneralSettingsBody>,
): Promise<GeneralSettings> {
  const timezone = input.timezone == null ? input.timezone : requireTimeZone(input.timezone);
  return deps.db.transaction().execute(async (trx) => {
    if (input.business_hours_id != null) await assertBusinessHoursExist(trx, input.business_hours_id);
    const before = await q.findGeneralSettings(trx, { lock: true });
    const row = await q.saveGeneralSettings(trx, {
      ...(input.business_hours_id !== undefined ? { business_hours_id: input.business_hours_id } : {}),
      ...(timezone !== undefined ? { timezone } : {}),
      updated_at: deps.clock.now(),
    });
    const changes = changesBetween(before, row);
    if (Object.keys(changes).length > 0) {
      const resource = { type: 'settings', id: 'general', name: 'General settings' };
      await recordAudit(trx, actor, { action: 'settings.updated', resource, changes }, deps.clock.now());
    }
    return answer(deps, row);
  });
}

/**
 * The business hours that apply where several may be set, most specific first (a team's, then
 * an inbox's…): the first of `candidates` that exists, else the installation's default, else
 * null (no hours: always open, calendar time). `db` may be the caller's transaction.
 */
export async function hoursInEffect(db: DB, candidates: ReadonlyArray<number | null | undefined>) {
  for (const id of candidates) {
    if (id == null) continue;
    const hours = await getBusinessHoursIfAny(db, id);
    if (hours) return hours;
  }
  const fallback = (await q.findGeneralSettings(db))?.business_hours_id;
  return fallback == null ? null : ((await getBusinessHoursIfAny(db, fallback)) ?? null);
}
