// The domain-event outbox. A service records an event inside the transaction of the change it
// describes, on the line after the change; dispatchers (webhooks, sockets) consume the table.
// Each event's type and payload are declared in events.schema.ts, and both ways of writing
// one below take them from there.
import { type AliasedRawBuilder, type Expression, isExpression, type RawBuilder, sql } from 'kysely';
import type { DB } from '../db/database.ts';
import * as q from './events.queries.ts';
import type { DomainEventPayload, DomainEventType } from './events.schema.ts';

export async function recordEvent<K extends DomainEventType>(db: DB, type: K, payload: DomainEventPayload<K>, at: Date): Promise<void> {
  await q.insertEvent(db, type, payload, at);
}

/** A payload whose fields are values or SQL expressions of the same type (per member of a union payload). */
export type SqlPayload<T> = T extends unknown ? { [P in keyof T]: T[P] | Expression<T[P]> } : never;

/**
 * For the set-based writers (an INSERT … SELECT, often a data-modifying CTE): the `type`,
 * `payload` and `created_at` columns of a domain_events row. Fields given as SQL expressions
 * (columns of the statement's rows) are built with jsonb_build_object; the others are one
 * JSON parameter. Keys and value types are checked against the event's declaration.
 */
export function eventColumns<K extends DomainEventType>(
  type: K,
  payload: SqlPayload<DomainEventPayload<K>>,
  at: Date,
): [AliasedRawBuilder<string, 'type'>, AliasedRawBuilder<string, 'payload'>, AliasedRawBuilder<Date, 'created_at'>] {
  const values: Record<string, unknown> = {};
  const computed: RawBuilder<unknown>[] = [];
  for (const [key, value] of Object.entries(payload as Record<string, unknown>)) {
    if (isExpression(value)) computed.push(sql`${sql.lit(key)}, ${value}`);
    else values[key] = value;
  }
  const json = sql`${JSON.stringify(values)}::jsonb`;
  const body = computed.length === 0 ? json : sql`${json} || jsonb_build_object(${sql.join(computed)})`;
  return [sql<string>`${type}::text`.as('type'), sql<string>`${body}`.as('payload'), sql<Date>`${at}::timestamptz`.as('created_at')];
}
