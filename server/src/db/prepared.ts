// Named prepared statements for PostgreSQL. Kysely sends every query as text with
// parameters, so PostgreSQL parses and plans each one again; for the short queries of a
// helpdesk, planning costs as much as running (1–2 ms for a list's record query). Giving
// each distinct statement text a name makes the driver prepare it once per connection and
// lets PostgreSQL reuse the plan (plan_cache_mode decides between generic and custom plans).
//
// Only SELECT/INSERT/UPDATE/DELETE/WITH statements are named (never BEGIN, SET, DDL), and only
// the first MAX_NAMED distinct texts: a query whose text is built from unbounded input would
// otherwise grow every connection's statement cache without end. Turn it off with
// DATABASE_PREPARED_STATEMENTS=false behind a pooler that cannot keep prepared statements.
import { createHash } from 'node:crypto';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';

const MAX_NAMED = 2_000;
const MAX_TEXT = 16_384;
const PREPARABLE = /^\s*(?:select|insert|update|delete|with)\b/i;

export class StatementNames {
  readonly #names = new Map<string, string | null>();

  /** The statement's name, or null when it is not to be prepared. */
  nameFor(text: string): string | null {
    const known = this.#names.get(text);
    if (known !== undefined) return known;
    if (this.#names.size >= MAX_NAMED) return null;
    const name = text.length <= MAX_TEXT && PREPARABLE.test(text) ? `k${createHash('sha1').update(text).digest('base64url')}` : null;
    this.#names.set(text, name);
    return name;
  }

  get size(): number {
    return this.#names.size;
  }
}

type QueryArgs = [text: unknown, values?: unknown];

/** A Kysely pool whose clients run each preparable statement under its name. */
export function preparingPool(pool: pg.Pool, names = new StatementNames()): PostgresPool {
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
      return {
        query: ((...args: QueryArgs) => {
          const [text, values] = args;
          if (typeof text === 'string') {
            const name = names.nameFor(text);
            if (name) return query({ name, text, values });
          }
          return query(...args);
        }) as PostgresPoolClient['query'],
        release: () => client.release(),
      };
    },
    end: () => pool.end(),
  };
}
