// Named prepared statements for PostgreSQL. Kysely sends every query as text with
// parameters, so PostgreSQL parses and plans each one again; for the short queries of a
// helpdesk, planning costs as much as running (1–2 ms for a list's record query). Giving
// each distinct statement text a name makes the driver prepare it once per connection and
// lets PostgreSQL reuse the plan (plan_cache_mode decides between generic and custom plans).
//
// Only SELECT/INSERT/UPDATE/DELETE/WITH statements are named (never BEGIN, SET, DDL), and only
// the first MAX_NAMED distinct texts: a query whose text is built from unbounded input would
// otherwise grow every connection's statement cache without end. Variable-length lists are
// written as `= any($1)` so that they keep one text. Turn it off with
// DATABASE_PREPARED_STATEMENTS=false behind a pooler that cannot keep prepared statements
// (PgBouncer in transaction mode before 1.21).
import { createHash } from 'node:crypto';
import { type PostgresPool, type PostgresPoolClient, sql } from 'kysely';
import type pg from 'pg';

/**
 * Put in a statement (Kysely: `.modifyFront(customPlan)`) whose best plan depends on its
 * parameters, such as text search, where a common word and a rare one need different plans:
 * it is then sent unnamed and planned for its values each time.
 */
export const CUSTOM_PLAN_MARKER = '/* custom-plan */';
export const customPlan = sql.raw(CUSTOM_PLAN_MARKER);

const MAX_NAMED = 500;
const MAX_TEXT = 16_384;
const PREPARABLE = /^\s*(?:select|insert|update|delete|with)\b/i;
/** invalid_sql_statement_name: the server does not know a statement the client believes prepared. */
const UNKNOWN_STATEMENT = '26000';

export class StatementNames {
  readonly #names = new Map<string, string | null>();

  /** The statement's name, or null when it is not to be prepared. */
  nameFor(text: string): string | null {
    if (text.length > MAX_TEXT || text.includes(CUSTOM_PLAN_MARKER)) return null;
    const known = this.#names.get(text);
    if (known !== undefined) return known;
    if (this.#names.size >= MAX_NAMED) return null;
    const name = PREPARABLE.test(text) ? `k${createHash('sha1').update(text).digest('base64url')}` : null;
    this.#names.set(text, name);
    return name;
  }

  get size(): number {
    return this.#names.size;
  }
}

type QueryArgs = [text: unknown, values?: unknown];

interface Wrapped {
  client: PostgresPoolClient;
  /** Set when a named statement may be out of step with the server: the connection is then discarded. */
  broken: boolean;
}

/** A Kysely pool whose clients run each preparable statement under its name. */
export function preparingPool(pool: pg.Pool, names = new StatementNames()): PostgresPool {
  // One wrapper per pg client, so Kysely's per-client connection cache keeps working.
  const wrappers = new WeakMap<pg.PoolClient, Wrapped>();
  const wrap = (client: pg.PoolClient): Wrapped => {
    const query = client.query.bind(client) as (...args: unknown[]) => Promise<unknown>;
    const wrapped: Wrapped = {
      broken: false,
      client: {
        query: ((...args: QueryArgs) => {
          const [text, values] = args;
          const name = typeof text === 'string' ? names.nameFor(text) : null;
          if (!name) return query(...args);
          return query({ name, text, values }).catch((error: unknown) => {
            // A parameter that failed to serialise leaves the driver believing the statement is
            // prepared while the server dropped it; a server that lost it answers 26000. Either
            // way, this connection is not reused.
            const code = (error as { code?: unknown } | null)?.code;
            if (code === undefined || code === UNKNOWN_STATEMENT) wrapped.broken = true;
            throw error;
          });
        }) as PostgresPoolClient['query'],
        release: () => {
          if (wrapped.broken) {
            wrappers.delete(client);
            client.release(true);
          } else {
            client.release();
          }
        },
      },
    };
    return wrapped;
  };
  return {
    async connect(): Promise<PostgresPoolClient> {
      const client = await pool.connect();
      let wrapped = wrappers.get(client);
      if (!wrapped) {
        wrapped = wrap(client);
        wrappers.set(client, wrapped);
      }
      return wrapped.client;
    },
    end: () => pool.end(),
  };
}
