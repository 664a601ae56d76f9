// From a relayed event to the frames each audience gets (docs/api.md, "Realtime"): built and
// serialised once per event, then each socket only decides whether it may have it.
import type { AgentServerFrame, WidgetServerFrame } from './frames.schema.ts';
import type { RelayedEvent } from './relay.enrich.ts';

export interface Frames {
  /** For agents allowed to see the conversation (or every agent when `conversation` is null and `toAllAgents`). */
  agent: string | null;
  toAllAgents: boolean;
  /** The one agent whose sockets get `agent` (a notification), whatever the conversation. */
  toAgent: number | null;
  /** For the widget sockets of the conversation's contact. */
  widget: string | null;
  /** Agent sockets to close (the agent was deleted). */
  closeAgent: number | null;
  /** Widget sockets of this contact or visitor to close (blocked, or merged into a verified contact). */
  closeWidgetsOf: number | null;
  /** An inbox whose widget sockets are checked again (it changed, was disabled or deleted). */
  recheckInbox: { id: number; uuid: string } | null;
}

const NONE: Frames = {
  agent: null,
  toAllAgents: false,
  toAgent: null,
  widget: null,
  closeAgent: null,
  closeWidgetsOf: null,
  recheckInbox: null,
};

/** A server frame: `{type, data}`, plus the event it comes from (id, time) for re-sync. Its shape: frames.schema.ts. */
export function frame(
  type: AgentServerFrame['type'] | WidgetServerFrame['type'],
  data: unknown,
  event?: { id: number; created_at: string },
): string {
  return JSON.stringify(event ? { type, data, event: { id: event.id, created_at: event.created_at } } : { type, data });
}

function pick(payload: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) if (key in payload) out[key] = payload[key];
  return out;
}

export function framesOf(event: RelayedEvent): Frames {
  const p = event.payload;
  const c = event.conversation;
  const ev = { id: event.id, created_at: event.created_at };
  if (event.type === 'agent.availability_changed') {
    return { ...NONE, toAllAgents: true, agent: frame('agent_availability_update', pick(p, ['agent_id', 'availability_status']), ev) };
  }
  if (event.type === 'notification.created' && typeof p['agent_id'] === 'number') {
    return { ...NONE, toAgent: p['agent_id'], agent: frame('notification', p['notification'], ev) };
  }
  if (event.type === 'agent.deleted') return { ...NONE, closeAgent: typeof p['agent_id'] === 'number' ? p['agent_id'] : null };
  if (event.type === 'contact.merged' && typeof p['merged_contact_id'] === 'number')
    return { ...NONE, closeWidgetsOf: p['merged_contact_id'] };
  if (event.type === 'inbox.changed' && typeof p['inbox_id'] === 'number' && typeof p['inbox_uuid'] === 'string') {
    return { ...NONE, recheckInbox: { id: p['inbox_id'], uuid: p['inbox_uuid'] } };
  }
  if (event.type === 'contact.enabled_changed' && p['enabled'] === false && typeof p['contact_id'] === 'number') {
    return { ...NONE, closeWidgetsOf: p['contact_id'] };
  }
  if (!c) return NONE;
  const update = (data: Record<string, unknown>, widgetData: Record<string, unknown> | null): Frames => ({
    ...NONE,
    agent: frame('conversation_update', { uuid: c.uuid, ...data }, ev),
    widget: c.livechat && widgetData ? frame('conversation_update', { uuid: c.uuid, ...widgetData }, ev) : null,
  });
  switch (event.type) {
    case 'conversation.created':
      return {
        ...NONE,
        agent: frame(
          'new_conversation',
          {
            uuid: c.uuid,
            id: p['conversation_id'],
            inbox_id: c.inbox_id,
            contact_id: c.contact_id,
            initiator: p['initiator'],
            assigned_user_id: c.assigned_user_id,
            assigned_team_id: c.assigned_team_id,
            created_at: event.created_at,
          },
          ev,
        ),
      };
    case 'message.created': {
      const chat = event.widget?.['message'];
      return {
        ...NONE,
        agent: event.message ? frame('new_message', event.message, ev) : null,
        widget: chat ? frame('new_message', chat, ev) : null,
      };
    }
    case 'message.updated':
      return {
        ...NONE,
        agent: frame(
          'message_update',
          { uuid: p['message_uuid'], id: p['message_id'], conversation_uuid: c.uuid, status: p['status'] },
          ev,
        ),
      };
    case 'conversation.status_changed': {
      const data = pick(p, ['status', 'status_category', 'previous_status', 'snoozed_until']);
      return update(data, pick(p, ['status', 'status_category']));
    }
    case 'conversation.priority_changed':
      return update(pick(p, ['priority', 'previous_priority']), null);
    case 'conversation.tags_changed':
      return update(pick(p, ['tags', 'added', 'removed']), null);
    case 'conversation.assigned':
    case 'conversation.unassigned': {
      const isUser = p['assignee_type'] === 'user';
      const data = isUser
        ? {
            assigned_user_id: event.type === 'conversation.assigned' ? p['assignee_id'] : null,
            ...pick(p, ['previous_assignee_id', 'auto']),
          }
        : { assigned_team_id: event.type === 'conversation.assigned' ? p['team_id'] : null, ...pick(p, ['previous_team_id']) };
      return update(data, isUser ? { assignee: event.widget?.['assignee'] ?? null } : null);
    }
    case 'conversation.sla_warning':
    case 'conversation.sla_breached':
      return update(
        {
          sla: {
            event: event.type === 'conversation.sla_warning' ? 'warning' : 'breached',
            ...pick(p, ['applied_sla_id', 'metric', 'deadline_at']),
          },
        },
        null,
      );
    case 'conversation.csat_answered':
      return update({ csat: { uuid: p['survey_uuid'], ...pick(p, ['rating', 'feedback', 'submitted_at']) } }, null);
    case 'conversation.contact_seen': {
      const data = pick(p, ['contact_last_seen_at']);
      return update(data, data);
    }
    default:
      return NONE;
  }
}
