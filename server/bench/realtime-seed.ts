// The realtime scenario's people, added to the seeded dataset: a live-chat inbox of its own,
// agents (with API keys) in teams of ten, and one visitor per widget socket, each with a widget
// session and one open conversation assigned to an agent and the agent's team.
// Agents are fewer than agent sockets: each has several tabs (sockets), because every API key
// costs a scrypt hash and a thousand of them would take minutes on two cores.
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { createAgent, generateApiKey } from '../src/agents/agents.service.ts';
import type { AppDeps } from '../src/deps.ts';
import { createInbox } from '../src/inboxes/inboxes.service.ts';
import { AGENT_ROLE } from '../src/auth/permissions.ts';
import { SYSTEM_ACTOR } from '../src/audit/audit.service.ts';
import { createTeam } from '../src/teams/teams.service.ts';
import { issueWidgetSession, VISITOR_SESSION_MS } from '../src/widget/widget.sessions.ts';
import type { RealtimeFixtures } from './realtime-plan.ts';

export interface RealtimeSeedSizes {
  /** Agents (each gets `agentSockets / agents` sockets, its tabs). */
  agents: number;
  /** Visitors, conversations and widget sockets, one each. */
  visitors: number;
  agentsPerTeam: number;
}

/** Agents for a number of agent sockets: `tabs` sockets each (at least one agent). */
export function agentsFor(agentSockets: number, tabs: number): number {
  return Math.max(1, Math.ceil(agentSockets / tabs));
}

/**
 * Agents per team: a team holds about 20 sockets, as a team of 20 agents with one tab each
 * would. Every conversation event goes to every socket of its team, so with several tabs per
 * agent, teams of 20 agents would multiply the frames by the tabs.
 */
export function agentsPerTeam(tabs: number): number {
  return Math.max(1, Math.round(20 / tabs));
}

const RT_EMAIL_DOMAIN = 'rt.bench.parley.test';

async function inBatches<T, R>(items: readonly T[], size: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += size)
    results.push(...(await Promise.all(items.slice(i, i + size).map((item, k) => work(item, i + k)))));
  return results;
}

export async function seedRealtime(
  deps: AppDeps,
  sizes: RealtimeSeedSizes,
  progress: (message: string) => void,
): Promise<RealtimeFixtures> {
  const started = performance.now();
  const { db } = deps;
  const inbox = await createInbox(deps, SYSTEM_ACTOR, { name: 'Realtime bench chat', channel: 'livechat', config: {} });
  const teamCount = Math.max(1, Math.ceil(sizes.agents / sizes.agentsPerTeam));
  const teams: number[] = [];
  // Team names are unique: a reused database keeps an earlier run's teams.
  const run = randomBytes(3).toString('hex');
  for (let t = 0; t < teamCount; t++)
    teams.push((await createTeam(deps, SYSTEM_ACTOR, { name: `Realtime ${t + 1} (${run})`, emoji: '' })).id);
  const numbers = Array.from({ length: sizes.agents }, (_, i) => i);
  const agents = await inBatches(numbers, 10, async (n) => {
    const team = n % teamCount;
    const agent = await createAgent(deps, SYSTEM_ACTOR, null, {
      first_name: 'Realtime',
      last_name: `Agent ${n + 1}`,
      email: `rt-agent${n + 1}-${randomBytes(3).toString('hex')}@${RT_EMAIL_DOMAIN}`,
      roles: [AGENT_ROLE],
      teams: [teams[team] as number],
    });
    const key = await generateApiKey(deps, SYSTEM_ACTOR, agent.id);
    return { id: agent.id, team, authorization: `token ${key.api_key}:${key.api_secret}` };
  });
  progress(`  realtime: ${teamCount} teams, ${agents.length} agents with API keys: ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const { rows: open } = await sql<{ id: number }>`select id from conversation_statuses where name = 'Open'`.execute(db);
  const openId = open[0]?.id;
  if (openId === undefined) throw new Error('the built-in status Open is missing');
  // Visitors and their conversations in two statements; visitor n's conversation goes to agent n mod agents.
  const agentIds = agents.map((a) => a.id);
  const agentTeams = agents.map((a) => teams[a.team] as number);
  const { rows } = await sql<{ contact_id: number; uuid: string; n: number }>`
    with visitors as (
      insert into users (type, first_name, last_name, custom_attributes, created_at, updated_at)
      select 'visitor', 'Visitor', g::text, '{}'::jsonb, now(), now() from generate_series(1, ${sizes.visitors}::int) as g
      returning id
    ), numbered as (
      select id, (row_number() over (order by id) - 1)::int as n from visitors
    ), conversations as (
      insert into conversations (inbox_id, contact_id, assigned_user_id, assigned_team_id, status_id, subject, custom_attributes, meta,
                                 last_message, last_message_at, last_message_sender, last_incoming_at, waiting_since, created_at, updated_at)
      select ${inbox.id}::int, v.id, (${agentIds}::int[])[1 + v.n % ${agentIds.length}::int], (${agentTeams}::int[])[1 + v.n % ${agentIds.length}::int],
        ${openId}::int, 'Question about my order', '{}'::jsonb, '{}'::jsonb,
        'Hello, I have a question about my order.', now(), 'contact', now(), now(), now(), now()
      from numbered v
      returning id, contact_id, uuid
    ), first_messages as (
      insert into messages (conversation_id, type, status, content, text_content, content_type, private, sender_id, sender_type, created_at, updated_at)
      select id, 'incoming', 'received', 'Hello, I have a question about my order.', 'Hello, I have a question about my order.', 'text', false,
        contact_id, 'contact', now(), now()
      from conversations
    )
    select c.contact_id, c.uuid, v.n from conversations c join numbered v on v.id = c.contact_id order by v.n
  `.execute(db);
  const now = deps.clock.now();
  const tokens = await inBatches(rows, 50, (row) =>
    issueWidgetSession(db, { userId: row.contact_id, inboxId: inbox.id, isVisitor: true, lifetimeMs: VISITOR_SESSION_MS }, now),
  );
  progress(
    `  realtime: ${rows.length} visitors with sessions and conversations: ${((performance.now() - started) / 1000).toFixed(1)} s in all`,
  );
  return {
    inboxUuid: inbox.uuid,
    agents: agents.map((a) => ({ authorization: a.authorization, team: a.team })),
    conversations: rows.map((row, i) => ({ uuid: row.uuid, agent: row.n % agents.length, token: tokens[i] as string })),
  };
}
