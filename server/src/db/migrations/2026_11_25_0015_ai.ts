// Frozen: never edit a migration once it has landed; add a new dated one.
// The AI writing helper (docs/api.md, "AI"): the OpenAI-compatible provider (one row per
// kind; only `completion` today), its key encrypted at rest, and the rewrite prompts, seeded
// with the keys of the contract and editable by admins.
import { type Kysely, sql } from 'kysely';

const prompts: [key: string, title: string, content: string][] = [
  ['make_friendly', 'Make friendly', 'Rewrite the reply so that it sounds warm, friendly and approachable, keeping its meaning.'],
  ['make_concise', 'Make concise', 'Rewrite the reply so that it is shorter and to the point, keeping every fact and request it contains.'],
  [
    'add_empathy',
    'Add empathy',
    "Rewrite the reply so that it acknowledges the customer's situation and feelings with genuine empathy, keeping its meaning.",
  ],
  ['adjust_positive_tone', 'Positive tone', 'Rewrite the reply in a positive, constructive tone, keeping its meaning.'],
  ['make_professional', 'Make professional', 'Rewrite the reply in a clear, polite and professional tone, keeping its meaning.'],
  ['fix_grammar_spelling', 'Fix grammar and spelling', 'Correct the grammar, spelling and punctuation of the reply. Change nothing else.'],
];

const statements = [
  `create table ai_providers (
    id serial primary key,
    kind text not null default 'completion' check (kind in ('completion')),
    provider text not null check (provider in ('openai')),
    -- encrypted at rest (security/encryption.ts)
    api_key text not null,
    base_url text,
    model text,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create unique index ai_providers_kind_key on ai_providers (kind)`,
  `create table ai_prompts (
    id serial primary key,
    key text not null,
    title text not null,
    content text not null,
    created_at timestamptz not null default now(),
    updated_at timestamptz not null default now()
  )`,
  `create unique index ai_prompts_key_key on ai_prompts (key)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
  for (const [key, title, content] of prompts) {
    await sql`insert into ai_prompts (key, title, content) values (${key}, ${title}, ${content})`.execute(db);
  }
}
