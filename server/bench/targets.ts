// What the load needs from a seeded dataset: the identities it calls as, the ids it reads,
// and the dataset's counts for the report.
import { sql } from 'kysely';
import { findAgentIdByEmail, generateApiKey } from '../src/agents/agents.service.ts';
import type { DB } from '../src/db/database.ts';
import type { AppDeps } from '../src/deps.ts';
import { BENCH_ADMIN_EMAIL, BENCH_AGENT_EMAIL } from './seed.ts';
import { WORDS } from './words.ts';
import { SYSTEM_ACTOR } from '../src/audit/audit.service.ts';

export interface DatasetCounts {
  conversations: number;
  messages: number;
  contacts: number;
  agents: number;
  teams: number;
  tags: number;
  inboxes: number;
  conversationTags: number;
  /** Conversations assigned to the agent the benchmark authenticates as. */
  benchAgentConversations: number;
}

// ---------------------------------------------------------------- what the load needs

export interface Identity {
  id: number;
  email: string;
  /** `Authorization` header value. */
  authorization: string;
}

async function identity(deps: AppDeps, email: string): Promise<Identity> {
  const id = await findAgentIdByEmail(deps, email);
  if (id === undefined) throw new Error(`the seeded agent ${email} is missing: reseed without --reuse`);
  const { api_key, api_secret } = await generateApiKey(deps, SYSTEM_ACTOR, id);
  return { id, email, authorization: `token ${api_key}:${api_secret}` };
}

export interface LoadTargets {
  agent: Identity;
  admin: Identity;
  /** [conversation uuid, message uuid, message id] of messages in the agent's conversations. */
  messages: Array<[string, string, number]>;
  /** Uuids of the agent's live-chat conversations (replies there go out through no external channel). */
  replyConversations: string[];
  searchWords: string[];
}

/** The benchmark's identities (fresh API keys: secrets are only ever shown once) and real ids to rotate over. */
export async function loadTargets(deps: AppDeps): Promise<LoadTargets> {
  const agent = await identity(deps, BENCH_AGENT_EMAIL);
  const admin = await identity(deps, BENCH_ADMIN_EMAIL);
  const { rows: messages } = await sql<{ cuuid: string; uuid: string; id: number }>`
    select c.uuid as cuuid, m.uuid, m.id from messages m join conversations c on c.id = m.conversation_id
    where c.assigned_user_id = ${agent.id} order by random() limit 300
  `.execute(deps.db);
  const { rows: replies } = await sql<{ uuid: string }>`
    select c.uuid from conversations c join inboxes i on i.id = c.inbox_id
    where c.assigned_user_id = ${agent.id} and i.channel = 'livechat' order by random() limit 200
  `.execute(deps.db);
  // Words of every frequency class of the skewed vocabulary: common, middling and rare.
  const searchWords = [
    'refund',
    'password',
    'invoice',
    'shipping',
    'tracking',
    'subscription',
    'warranty',
    'discount',
    'battery',
    'webhook',
    'timeout',
    'duplicate',
    'calendar',
    'certificate',
    'mattress',
    'grinder',
    'helmet',
    'tripod',
    'quokka',
    'marmalade',
  ].filter((word) => WORDS.includes(word));
  // What an agent also types: a short prefix, a phrase, accents left out, CJK inside longer text.
  searchWords.push('pa', 'refu', '"reset password"', 'cafe', 'résumé', '密码', 'パスワード');
  return {
    agent,
    admin,
    messages: messages.map((m) => [m.cuuid, m.uuid, m.id]),
    replyConversations: replies.map((r) => r.uuid),
    searchWords,
  };
}

export async function countDataset(db: DB, agentId: number): Promise<DatasetCounts> {
  const { rows } = await sql<DatasetCounts>`
    select
      (select count(*) from conversations)::int as "conversations",
      (select count(*) from messages)::int as "messages",
      (select count(*) from users where type = 'contact')::int as "contacts",
      (select count(*) from users where type = 'agent' and deleted_at is null)::int as "agents",
      (select count(*) from teams)::int as "teams",
      (select count(*) from tags)::int as "tags",
      (select count(*) from inboxes)::int as "inboxes",
      (select count(*) from conversation_tags)::int as "conversationTags",
      (select count(*) from conversations where assigned_user_id = ${agentId})::int as "benchAgentConversations"
  `.execute(db);
  const counts = rows[0];
  if (!counts) throw new Error('could not count the dataset');
  return counts;
}
