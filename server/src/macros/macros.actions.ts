// A macro's actions: what they may say, checked against what exists when
// the macro is saved and again when it is applied, and the conversation changes they become.
import type { Static } from 'typebox';
import { findLiveAgent } from '../agents/agents.service.ts';
import type { Principal } from '../auth/credential-cache.ts';
import { type ConversationChanges, distinctNames, type TagsChange } from '../conversations/conversations.changes.ts';
import type { DB } from '../db/database.ts';
import { InputError } from '../errors.ts';
import { SLA_PERMISSIONS } from '../conversations/conversations.sla.ts';
import { type Permission, requireAnyPermission } from '../auth/permissions.ts';
import { assertSlaPolicyExists } from '../sla/sla.service.ts';
import { findPriorityByName, findStatusByName } from '../statuses/statuses.service.ts';
import { findTagsByNames } from '../tags/tags.service.ts';
import { findTeam } from '../teams/teams.service.ts';
import type { MacroActions as MacroActionsSchema } from './macros.schema.ts';

export type MacroActions = Static<typeof MacroActionsSchema>;
type ActionType = keyof MacroActions;

/** Each action needs one of its permissions. */
const ACTION_PERMISSIONS: Record<ActionType, readonly Permission[]> = {
  set_status: ['conversations:update_status'],
  set_priority: ['conversations:update_priority'],
  assign_team: ['conversations:update_team_assignee'],
  apply_sla: SLA_PERMISSIONS,
  assign_user: ['conversations:update_user_assignee'],
  add_tags: ['conversations:update_tags'],
  remove_tags: ['conversations:update_tags'],
  set_tags: ['conversations:update_tags'],
};

const TAG_ACTIONS = ['set_tags', 'add_tags', 'remove_tags'] as const;

/** Actions as stored (jsonb): only the known keys with well-typed values are kept. */
export function storedActions(raw: Record<string, unknown>): MacroActions {
  const out: MacroActions = {};
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  const id = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : undefined);
  const names = (v: unknown) => {
    if (!Array.isArray(v)) return undefined;
    const list = v.filter((n): n is string => typeof n === 'string');
    return list.length === v.length ? list : undefined;
  };
  const status = text(raw['set_status']);
  if (status !== undefined) out.set_status = status;
  const priority = text(raw['set_priority']);
  if (priority !== undefined) out.set_priority = priority;
  const team = id(raw['assign_team']);
  if (team !== undefined) out.assign_team = team;
  const user = id(raw['assign_user']);
  if (user !== undefined) out.assign_user = user;
  const sla = id(raw['apply_sla']);
  if (sla !== undefined) out.apply_sla = sla;
  for (const key of TAG_ACTIONS) {
    const list = names(raw[key]);
    if (list !== undefined) out[key] = list;
  }
  return out;
}

/** 403 naming the first action the caller may not run. */
export function requireActionPermissions(principal: Principal, actions: MacroActions): void {
  for (const [type, permissions] of Object.entries(ACTION_PERMISSIONS) as Array<[ActionType, readonly Permission[]]>) {
    if (actions[type] !== undefined) requireAnyPermission(principal, permissions, `the macro's ${type} action`);
  }
}

/**
 * Checks every action against what exists now and returns them with canonical names
 * (the stored spelling of statuses, priorities and tags). 400 names the failing field.
 */
export async function checkActions(db: DB, actions: MacroActions): Promise<MacroActions> {
  const out: MacroActions = {};
  if (actions.set_status !== undefined) {
    const status = await findStatusByName(db, actions.set_status);
    if (!status) throw InputError.field('actions.set_status', `unknown status "${actions.set_status.trim()}"`);
    if (status.name === 'Snoozed')
      throw InputError.field('actions.set_status', 'Snoozed needs a snooze time, which a macro cannot give; use another status');
    out.set_status = status.name;
  }
  if (actions.set_priority !== undefined) {
    const priority = await findPriorityByName(db, actions.set_priority);
    if (!priority)
      throw InputError.field('actions.set_priority', `unknown priority "${actions.set_priority.trim()}"; use Low, Medium, High or Urgent`);
    out.set_priority = priority.name;
  }
  if (actions.assign_team !== undefined) {
    if (!(await findTeam(db, actions.assign_team))) throw InputError.field('actions.assign_team', `unknown team id ${actions.assign_team}`);
    out.assign_team = actions.assign_team;
  }
  if (actions.assign_user !== undefined) {
    const agent = await findLiveAgent(db, actions.assign_user);
    if (!agent) throw InputError.field('actions.assign_user', `unknown agent id ${actions.assign_user}`);
    if (!agent.enabled)
      throw InputError.field('actions.assign_user', `agent ${actions.assign_user} is disabled and cannot be assigned conversations`);
    out.assign_user = actions.assign_user;
  }
  if (actions.apply_sla !== undefined) {
    await assertSlaPolicyExists(db, actions.apply_sla, 'actions.apply_sla');
    out.apply_sla = actions.apply_sla;
  }
  for (const key of TAG_ACTIONS) {
    const given = actions[key];
    if (given === undefined) continue;
    const wanted = distinctNames(given);
    const found = await findTagsByNames(db, wanted);
    const byName = new Map(found.map((t) => [t.name.toLowerCase(), t.name]));
    const missing = wanted.filter((n) => !byName.has(n.toLowerCase()));
    if (missing.length > 0) throw InputError.field(`actions.${key}`, `unknown tag ${missing.map((m) => `"${m}"`).join(', ')}`);
    out[key] = wanted.map((n) => byName.get(n.toLowerCase()) ?? n);
  }
  return out;
}

/** The conversation changes the actions ask for; changeConversation runs them in its fixed order. */
export function changesOf(actions: MacroActions): ConversationChanges {
  const changes: ConversationChanges = {};
  if (actions.assign_team !== undefined) changes.teamAssignee = actions.assign_team;
  if (actions.apply_sla !== undefined) changes.slaPolicy = actions.apply_sla;
  if (actions.assign_user !== undefined) changes.userAssignee = actions.assign_user;
  if (actions.set_status !== undefined) changes.status = { status: actions.set_status };
  if (actions.set_priority !== undefined) changes.priority = actions.set_priority;
  const tags: TagsChange[] = [];
  for (const action of TAG_ACTIONS) {
    const names = actions[action];
    if (names !== undefined) tags.push({ action, tags: names });
  }
  if (tags.length > 0) changes.tags = tags;
  return changes;
}
