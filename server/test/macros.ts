import { agentWith, createInbox, createTeam } from './factories.ts';
import { type Caller, dataOf, type fakeClock, type TestApp } from './helpers.ts';

export type Json = Record<string, unknown>;
export type Macro = {
  id: number;
  created_at: string;
  updated_at: string;
  name: string;
  actions: Json;
  visibility: string;
  visible_when: string[];
  message_content: string;
  user_id: string | null;
  team_id: string | null;
  usage_count: number;
};
export type Conversation = Json & {
  id: number;
  uuid: string;
  reference_number: string;
  status: string;
  status_category: string;
  priority: string | null;
  tags: string[];
  assigned_user_id: number | null;
  assigned_team_id: number | null;
  last_message_sender: string | null;
};
export type Applied = { conversation: Conversation; message_content: string };

export const MACRO_FIELDS = [
  'actions',
  'created_at',
  'id',
  'message_content',
  'name',
  'team_id',
  'updated_at',
  'usage_count',
  'user_id',
  'visibility',
  'visible_when',
];
export const ALL_WHEN = ['conversation_open', 'conversation_waiting', 'conversation_resolved'];

let seq = 0;
export const email = (label = 'c') => `${label}-${process.pid}-${++seq}@example.com`;

/** The requests of a `macros` suite, against the app `app()` answers; writes advance `clock` a second
 * first; new conversations go to the inbox `inboxId()` answers. */
export function macroCalls(app: () => TestApp, clock: ReturnType<typeof fakeClock>, inboxId: () => number) {
  const as = (caller?: Caller | null) => (caller !== undefined ? { as: caller } : {});
  const post = (payload: unknown, caller?: Caller | null) => {
    clock.advance(1000);
    return app().call({ method: 'POST', url: '/api/v1/macros', payload: payload as Json, ...as(caller) });
  };
  const put = (id: number | string, payload: unknown, caller?: Caller | null) => {
    clock.advance(1000);
    return app().call({ method: 'PUT', url: `/api/v1/macros/${id}`, payload: payload as Json, ...as(caller) });
  };
  const get = (id: number | string, caller?: Caller | null) => app().call({ method: 'GET', url: `/api/v1/macros/${id}`, ...as(caller) });
  const del = (id: number | string, caller?: Caller | null) => app().call({ method: 'DELETE', url: `/api/v1/macros/${id}`, ...as(caller) });
  const list = (query = '', caller?: Caller | null) => app().call({ method: 'GET', url: `/api/v1/macros${query}`, ...as(caller) });
  const create = async (payload: Json, caller?: Caller | null) => dataOf<Macro>(await post(payload, caller));
  const apply = (uuid: string, id: number | string, payload?: unknown, caller?: Caller | null) => {
    clock.advance(1000);
    return app().call({
      method: 'POST',
      url: `/api/v1/conversations/${uuid}/macros/${id}/apply`,
      ...(payload !== undefined ? { payload: payload as Json } : {}),
      ...as(caller),
    });
  };
  const newConversation = async (extra: Json = {}) => {
    clock.advance(1000);
    return dataOf<Conversation>(
      await app().call({
        method: 'POST',
        url: '/api/v1/conversations',
        payload: {
          inbox_id: inboxId(),
          contact_email: email(),
          content: '<p>Hello there</p>',
          initiator: 'contact',
          subject: 'Help',
          ...extra,
        },
      }),
    );
  };
  const conversation = async (uuid: string) =>
    dataOf<Conversation>(await app().call({ method: 'GET', url: `/api/v1/conversations/${uuid}` }));
  const messagesOf = async (conversationId: number) =>
    app()
      .deps.db.selectFrom('messages')
      .where('conversation_id', '=', conversationId)
      .select(['type', 'status', 'content', 'text_content', 'sender_id', 'private'])
      .orderBy('id')
      .execute();
  const macroCount = async () =>
    Number(
      (
        await app()
          .deps.db.selectFrom('macros')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const fieldsOf = (res: { json: () => unknown }) =>
    ((res.json() as { data: { errors?: Array<{ field: string }> } | null }).data?.errors ?? []).map((e) => e.field);
  return { post, put, get, del, list, create, apply, newConversation, conversation, messagesOf, macroCount, fieldsOf };
}

/** The inbox, teams, agents and tags of a `macros` suite. */
export async function macroFixtures(t: TestApp) {
  const inboxId = (await createInbox(t, { name: 'Chat' })).id;
  const teamA = (await createTeam(t, { name: 'Team A' })).id;
  const teamB = (await createTeam(t, { name: 'Team B' })).id;
  const alice = await t.makeAgent({ teams: [teamA], first_name: 'Alice' });
  const bob = await t.makeAgent({ teams: [teamB], first_name: 'Bob' });
  const assignedOnly = [
    'conversations:read',
    'conversations:read_assigned',
    'conversations:update_status',
    'messages:read',
    'messages:write',
  ];
  const carol = await agentWith(t, assignedOnly, { first_name: 'Carol' });
  const noPriority = await agentWith(
    t,
    [
      'conversations:read',
      'conversations:read_unassigned',
      'conversations:read_assigned',
      'conversations:update_status',
      'conversations:update_tags',
      'messages:read',
      'messages:write',
    ],
    { first_name: 'Nora' },
  );
  const noWrite = await agentWith(t, ['conversations:read', 'conversations:read_all', 'conversations:update_status', 'messages:read'], {
    first_name: 'Walt',
  });
  for (const name of ['vip', 'billing', 'spam', 'doomed']) dataOf(await t.call({ method: 'POST', url: '/api/v1/tags', payload: { name } }));
  return { inboxId, teamA, teamB, alice, bob, carol, noPriority, noWrite };
}
