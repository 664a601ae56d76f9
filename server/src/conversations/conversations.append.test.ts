// An agent's reply in one statement (appendAgentMessageAtOnce) writes exactly what the locked
// path (appendMessage in a transaction) writes, and writes nothing where it does not apply: an
// unknown conversation, one the caller may not read, one with an applied SLA.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import type { Principal } from '../auth/credential-cache.ts';
import { prepareContent } from '../messages/messages.content.ts';
import { agentWith, createConversation, createInbox, createTeam, uniqueEmail, uniqueNumber } from '../../test/factories.ts';
import { buildTestApp, dataOf, fakeClock, readingEverything, type TestApp } from '../../test/helpers.ts';
import { agentMessage, appendAgentMessageAtOnce, appendMessage } from './conversations.append.ts';
import { lockReadableConversation } from './conversations.read.ts';

describe('a reply in one statement', () => {
  const clock = fakeClock();
  let t: TestApp;
  let admin: Principal;

  before(async () => {
    t = await buildTestApp({ clock });
    admin = readingEverything(t.admin.id);
  });
  after(() => t.close());

  const message = (userId: number, html: string, extra: { private?: boolean; meta?: Record<string, unknown> } = {}) =>
    agentMessage(userId, prepareContent(html, 'html', 'message'), { contentType: 'html', ...extra });

  /** Everything a message wrote, with the ids that differ between two conversations left out. */
  async function written(uuid: string) {
    const db = t.deps.db;
    const conversation = await db
      .selectFrom('conversations')
      .where('uuid', '=', uuid)
      .select([
        'id',
        'last_message',
        'last_message_at',
        'last_message_sender',
        'first_reply_at',
        'last_reply_at',
        'waiting_since',
        'updated_at',
      ])
      .executeTakeFirstOrThrow();
    const { id, ...columns } = conversation;
    const messages = await db
      .selectFrom('messages')
      .where('conversation_id', '=', id)
      .where('type', '!=', 'activity')
      .orderBy('id')
      .select([
        'id',
        'type',
        'status',
        'content',
        'text_content',
        'content_type',
        'private',
        'sender_id',
        'sender_type',
        'meta',
        'created_at',
      ])
      .execute();
    const ids = messages.map((m) => m.id);
    const events = await db
      .selectFrom('domain_events')
      .where('type', '=', 'message.created')
      .where(sql<number>`(payload->>'conversation_id')::int`, '=', id)
      .orderBy('id')
      .select(['type', 'payload', 'created_at'])
      .execute();
    const jobs = await db
      .selectFrom('jobs')
      .where(sql<number>`(payload->>'message_id')::int`, '=', sql<number>`any(${ids}::int[])`)
      .orderBy('id')
      .select(['kind', 'payload', 'max_attempts'])
      .execute();
    const keys = await db
      .selectFrom('idempotency_keys')
      .where('message_id', '=', sql<number>`any(${ids}::int[])`)
      .orderBy('message_id')
      .select(['user_id', 'key', 'request_hash', 'created_at'])
      .execute();
    const uuids = await db.selectFrom('messages').where('id', '=', sql<number>`any(${ids}::int[])`).select(['id', 'uuid']).execute();
    const ordinal = new Map(ids.map((messageId, i) => [messageId, i]));
    const uuidOrdinal = new Map(uuids.map((m) => [m.uuid, ordinal.get(m.id)]));
    // Ids become the message's position, so two conversations' writes compare equal.
    const local = (payload: Record<string, unknown>) => ({
      ...payload,
      ...('conversation_id' in payload ? { conversation_id: 'this', conversation_uuid: 'this' } : {}),
      message_id: ordinal.get(payload['message_id'] as number),
      message_uuid: uuidOrdinal.get(payload['message_uuid'] as string),
    });
    return {
      columns,
      messages: messages.map(({ id: _id, ...m }) => m),
      events: events.map((e) => ({ ...e, payload: local(e.payload as Record<string, unknown>) })),
      jobs: jobs.map((j) => ({ ...j, payload: local(j.payload as Record<string, unknown>) })),
      keys: keys.map((k) => ({ ...k, key: k.key.replace(/-[ab]$/, '') })),
    };
  }

  it('writes what the locked path writes: the reply, the conversation, the event, the job, the key', async () => {
    const inbox = await createInbox(t);
    const contact_email = uniqueEmail('customer');
    const one = await createConversation(t, { inbox_id: inbox.id, contact_email });
    const other = await createConversation(t, { inbox_id: inbox.id, contact_email });
    const steps = [
      { html: '<p>First <b>reply</b></p>', extra: { meta: { to: ['a@example.com'] } }, key: `k-${uniqueNumber()}` },
      { html: '<p>A note</p>', extra: { private: true } },
      { html: '<p>Second reply</p>', extra: {} },
    ];
    for (const step of steps) {
      clock.advance(60_000);
      const input = message(admin.userId, step.html, step.extra);
      const key = (side: string) => (step.key ? { userId: admin.userId, key: `${step.key}-${side}`, requestHash: 'h' } : undefined);
      const atOnce = await appendAgentMessageAtOnce(t.deps, admin, one.uuid, input, clock.now(), key('a'));
      assert.ok(atOnce, 'the one statement wrote the message');
      assert.equal(atOnce.conversation_uuid, one.uuid);
      await t.deps.db.transaction().execute(async (trx) => {
        const locked = await lockReadableConversation(trx, admin, other.uuid);
        await appendMessage(t.deps, trx, locked, input, clock.now(), key('b'));
      });
    }
    const [a, b] = [await written(one.uuid), await written(other.uuid)];
    assert.deepEqual(JSON.parse(JSON.stringify(a)), JSON.parse(JSON.stringify(b)));
    // And what they wrote is what a reply means.
    assert.equal(a.messages.length, 4, 'the contact’s first message and three of ours');
    assert.deepEqual(
      a.messages.slice(1).map((m) => [m.status, m.private]),
      [
        ['pending', false],
        ['sent', true],
        ['pending', false],
      ],
    );
    assert.equal(a.columns.waiting_since, null);
    assert.equal(a.columns.first_reply_at?.getTime(), a.messages[1]!.created_at.getTime(), 'the first reply is kept');
    assert.equal(a.columns.last_reply_at?.getTime(), a.messages[3]!.created_at.getTime());
    assert.equal(a.columns.last_message, 'Second reply');
    assert.deepEqual(
      a.jobs.map((j) => [j.kind, j.payload['message_id']]),
      [
        ['livechat.deliver', 1],
        ['livechat.deliver', 3],
      ],
    );
    assert.equal(a.events.length, 4);
    assert.equal(a.keys.length, 1);
  });

  it('writes nothing for an unknown conversation, one the caller may not read, or one with an applied SLA', async () => {
    const conversation = await createConversation(t);
    const count = async () =>
      Number(
        (
          await t.deps.db
            .selectFrom('messages')
            .innerJoin('conversations as c', 'c.id', 'messages.conversation_id')
            .where('c.uuid', '=', conversation.uuid)
            .where('messages.type', '!=', 'activity')
            .select(sql<number>`count(*)`.as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const input = message(admin.userId, '<p>Hello</p>');
    assert.equal(await appendAgentMessageAtOnce(t.deps, admin, '00000000-0000-4000-8000-000000000000', input, clock.now()), undefined);

    const agent = await agentWith(t, ['conversations:read', 'conversations:read_assigned', 'messages:write']);
    const stranger: Principal = {
      ...readingEverything(agent.id),
      permissions: new Set(['conversations:read', 'conversations:read_assigned']),
    };
    assert.equal(await appendAgentMessageAtOnce(t.deps, stranger, conversation.uuid, input, clock.now()), undefined);
    assert.equal(await count(), before, 'no message for a conversation the caller may not read');

    const policy = dataOf<{ id: number }>(
      await t.call({ method: 'POST', url: '/api/v1/sla', payload: { name: `Policy ${uniqueNumber()}`, first_response_minutes: 60 } }),
    );
    dataOf(await t.call({ method: 'PUT', url: `/api/v1/conversations/${conversation.uuid}/sla`, payload: { sla_policy_id: policy.id } }));
    assert.equal(await appendAgentMessageAtOnce(t.deps, admin, conversation.uuid, input, clock.now()), undefined);
    assert.equal(await count(), before, 'an applied SLA leaves the reply to the locked path');
    // A note moves no deadline: it is written at once, SLA or not.
    const note = message(admin.userId, '<p>A note</p>', { private: true });
    assert.ok(await appendAgentMessageAtOnce(t.deps, admin, conversation.uuid, note, clock.now()));
    assert.equal(await count(), before + 1);
    const owed = dataOf<{ first_response: { met_at: string | null } }>(
      await t.call({ url: `/api/v1/conversations/${conversation.uuid}/sla` }),
    );
    assert.equal(owed.first_response.met_at, null, 'a note is no first response');

    // Through the API the reply still goes out, by the locked path, and meets the first response.
    dataOf(await t.call({ method: 'POST', url: `/api/v1/conversations/${conversation.uuid}/messages`, payload: { message: 'Hi' } }));
    assert.equal(await count(), before + 2);
    const sla = dataOf<{ first_response: { met_at: string | null } }>(
      await t.call({ url: `/api/v1/conversations/${conversation.uuid}/sla` }),
    );
    assert.ok(sla.first_response.met_at, 'the first response is met');
  });

  it('applies each form of the access rule in the statement: assigned, team, unassigned', async () => {
    const agent = await agentWith(t, ['conversations:read']);
    const team = await createTeam(t);
    const [mine, teams, nobodys] = [await createConversation(t), await createConversation(t), await createConversation(t)];
    const set = (uuid: string, values: { assigned_user_id?: number | null; assigned_team_id?: number | null }) =>
      t.deps.db.updateTable('conversations').set(values).where('uuid', '=', uuid).execute();
    await set(mine.uuid, { assigned_user_id: agent.id });
    await set(teams.uuid, { assigned_user_id: t.admin.id, assigned_team_id: team.id });
    const as = (permissions: string[], teamIds: number[] = []): Principal => ({
      ...readingEverything(agent.id),
      permissions: new Set(['conversations:read', ...permissions]),
      teamIds,
    });
    const row = (uuid: string) =>
      t.deps.db
        .selectFrom('conversations')
        .where('uuid', '=', uuid)
        .select(['last_message', 'last_message_at', 'updated_at', 'first_reply_at'])
        .executeTakeFirstOrThrow();
    const reply = (principal: Principal, uuid: string) =>
      appendAgentMessageAtOnce(t.deps, principal, uuid, message(agent.id, `<p>To ${uuid}</p>`), clock.now());

    const assignedOrTeam = as(['conversations:read_assigned', 'conversations:read_team_inbox'], [team.id]);
    clock.advance(1000);
    assert.ok(await reply(assignedOrTeam, mine.uuid), 'assigned to the caller');
    assert.ok(await reply(assignedOrTeam, teams.uuid), 'in the caller’s team');
    const untouched = await row(nobodys.uuid);
    assert.equal(await reply(assignedOrTeam, nobodys.uuid), undefined, 'neither');
    assert.deepEqual(await row(nobodys.uuid), untouched, 'the conversation is left as it was');
    assert.equal(await reply(as(['conversations:read_team_inbox'], [team.id + 1000]), teams.uuid), undefined, 'another team');

    const unassigned = as(['conversations:read_unassigned']);
    assert.ok(await reply(unassigned, nobodys.uuid), 'unassigned');
    assert.equal(await reply(unassigned, mine.uuid), undefined, 'assigned to somebody');
    await set(nobodys.uuid, { assigned_user_id: t.admin.id });
    assert.equal(await reply(unassigned, nobodys.uuid), undefined, 'assigned since');
    assert.equal((await row(mine.uuid)).last_message, `To ${mine.uuid}`);
  });
});
