// Calls the SLA tests make through the API (server/src/sla/*.test.ts): policies, a contact's
// conversation entering a team, replies and contact messages, the applied SLA as the API shows
// it, and the warning and breach events recorded. The app is read when a call is made, so the
// calls can be taken apart in a describe block before its `before` built the app.
import { uniqueNumber } from './factories.ts';
import { dataOf, type TestApp } from './helpers.ts';
import { startVisitor, type Visitor, type WidgetInboxFixture, widgetCall } from './widget.ts';

export type Json = Record<string, unknown>;
export interface Metric {
  deadline_at: string | null;
  met_at: string | null;
  breached: boolean;
}
export interface Applied {
  applied_sla_id: number;
  sla_policy_id: number | null;
  applied_at: string;
  first_response: Metric | null;
  next_response: Metric | null;
  resolution: Metric | null;
}

export function slaCalls(clock: { set(date: Date): void }, world: () => { t: TestApp; chat: WidgetInboxFixture }) {
  const call: TestApp['call'] = (options) => world().t.call(options);
  const put = async (uuid: string, path: string, payload: Json) =>
    dataOf(await call({ method: 'PUT', url: `/api/v1/conversations/${uuid}/${path}`, payload }));
  return {
    at: (iso: string) => clock.set(new Date(iso)),
    policy: async (body: Json) =>
      dataOf<{ id: number }>(await call({ method: 'POST', url: '/api/v1/sla', payload: { name: `Policy ${uniqueNumber()}`, ...body } })),
    conversation: async (uuid: string) => dataOf<Json>(await call({ url: `/api/v1/conversations/${uuid}` })),
    applied: async (uuid: string) => dataOf<Applied | null>(await call({ url: `/api/v1/conversations/${uuid}/sla` })),
    put,
    reply: async (uuid: string, extra: Json = {}) =>
      dataOf(await call({ method: 'POST', url: `/api/v1/conversations/${uuid}/messages`, payload: { message: 'On it', ...extra } })),
    write: async (visitor: Visitor) =>
      dataOf(
        await widgetCall(world().t, {
          method: 'POST',
          url: `chat/conversations/${visitor.conversationUuid}/message`,
          inbox: world().chat.uuid,
          token: visitor.token,
          payload: { message: 'Any news?' },
        }),
      ),
    /** A contact's conversation (from the widget) that enters `teamId`. */
    inTeam: async (teamId: number) => {
      const visitor = await startVisitor(world().t, world().chat.uuid);
      await put(visitor.conversationUuid, 'assignee/team', { assignee_id: teamId });
      return visitor;
    },
    deadlines: (c: Json) => ({
      first: c['first_response_deadline_at'],
      resolution: c['resolution_deadline_at'],
      next: c['next_response_deadline_at'],
      nextMet: c['next_response_met_at'],
      soonest: c['next_sla_deadline_at'],
    }),
    /** The conversation's warning and breach events, oldest first, each with its payload. */
    slaEvents: async (uuid: string) => {
      const rows = await world()
        .t.deps.db.selectFrom('domain_events')
        .where('type', 'in', ['conversation.sla_warning', 'conversation.sla_breached'])
        .select(['type', 'payload'])
        .orderBy('id')
        .execute();
      return rows
        .filter((r) => (r.payload as Json)['conversation_uuid'] === uuid)
        .map((r): Json => ({ type: r.type, ...(r.payload as Json) }));
    },
    /** The conversation's activity lines about its SLA deadlines (warnings and breaches), oldest first. */
    slaActivity: async (uuid: string) => {
      const rows = await world()
        .t.deps.db.selectFrom('messages as m')
        .innerJoin('conversations as c', 'c.id', 'm.conversation_id')
        .where('c.uuid', '=', uuid)
        .where('m.type', '=', 'activity')
        .where('m.content', 'like', '%SLA deadline%')
        .select('m.content')
        .orderBy('m.id')
        .execute();
      return rows.map((r) => r.content);
    },
  };
}
