// Notification preferences (docs/api.md, "Working together"): per type and channel, stored as
// what differs from the defaults, so a default changed in a later release reaches everyone who
// never chose otherwise. Defaults: in the app, every type; by email, assigned, mentioned and
// sla_breached; push off until the agent turns it on.
import type { DB } from '../db/database.ts';
import { NOTIFICATION_TYPES, type NotificationType } from '../db/types.ts';
import { settingsRows } from './notification-settings.queries.ts';

export const NOTIFICATION_CHANNELS = ['in_app', 'email', 'push'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];
export type ChannelChoice = Record<NotificationChannel, boolean>;

const EMAIL_BY_DEFAULT: ReadonlySet<NotificationType> = new Set(['assigned', 'mentioned', 'sla_breached']);

export function defaultChoice(type: NotificationType): ChannelChoice {
  return { in_app: true, email: EMAIL_BY_DEFAULT.has(type), push: false };
}

export interface NotificationSettings {
  types: Record<NotificationType, ChannelChoice>;
  /** Mail as one digest per 15 minutes instead of one mail per notification. */
  email_digest: boolean;
  /** The web app plays a sound on a new notification. */
  sound: boolean;
  /** The web app shows the unread count in the tab's title. */
  title_count: boolean;
}

type StoredTypes = Record<string, Partial<Record<NotificationChannel, boolean>>>;

/** The stored differences laid over the defaults (unknown types or channels in storage are ignored). */
export function settingsFrom(
  stored: { types: StoredTypes; email_digest: boolean; sound: boolean; title_count: boolean } | undefined,
): NotificationSettings {
  const types = {} as Record<NotificationType, ChannelChoice>;
  for (const type of NOTIFICATION_TYPES) {
    const choice = defaultChoice(type);
    const own = stored?.types[type];
    if (own) for (const channel of NOTIFICATION_CHANNELS) if (typeof own[channel] === 'boolean') choice[channel] = own[channel];
    types[type] = choice;
  }
  return { types, email_digest: stored?.email_digest ?? false, sound: stored?.sound ?? true, title_count: stored?.title_count ?? true };
}

/** Each agent's settings (defaults for agents who never saved any). */
export async function settingsOf(db: DB, agentIds: readonly number[]): Promise<Map<number, NotificationSettings>> {
  const rows = await settingsRows(db, agentIds);
  const byAgent = new Map(rows.map((row) => [row.agent_id, row]));
  return new Map(agentIds.map((id) => [id, settingsFrom(byAgent.get(id))]));
}
