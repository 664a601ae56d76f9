// Shared by the edge tests (server/src/http/edge.*.test.ts): the error envelope with its
// X-Request-Id, the fields an error names, raw JSON bodies, the rows an `edge` suite works on
// and the table counts that show a refused request changed nothing.
import assert from 'node:assert/strict';
import { assertError, dataOf, type ErrorBody, type TestApp } from './helpers.ts';

export type Json = Record<string, unknown>;
export type Answer = { statusCode: number; body: string; headers: Record<string, unknown>; json: () => unknown };
export type FieldErrors = { errors: Array<{ field: string; reason: string }> };

/** An error envelope with this status and type, carrying X-Request-Id. */
export function refused(res: Answer, status: number, errorType: string): ErrorBody {
  const body = assertError(res, status, errorType);
  assert.equal(typeof res.headers['x-request-id'], 'string', `X-Request-Id on ${res.statusCode} ${res.body}`);
  return body;
}

export const fieldsOf = (body: ErrorBody) => (body.data as FieldErrors).errors.map((e) => e.field);

export const jsonText = (payload: string) => ({ payload, headers: { 'content-type': 'application/json' } });

/** The rows of the tables a refused request must leave alone, counted (in the app `app()` answers). */
export function tableCounts(app: () => TestApp) {
  return async () => {
    const count = async (table: 'tags' | 'teams' | 'inboxes' | 'users' | 'conversations') =>
      Number(
        (
          await app()
            .deps.db.selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const tables = ['tags', 'teams', 'inboxes', 'users', 'conversations'] as const;
    return Object.fromEntries(await Promise.all(tables.map(async (table) => [table, await count(table)])));
  };
}

/** The rows an `edge` suite works on: a team, a live-chat inbox and a conversation in it. */
export async function edgeFixtures(t: TestApp): Promise<{ teamId: number; inboxId: number; conversation: string }> {
  const teamId = dataOf<{ id: number }>(await t.call({ method: 'POST', url: '/api/v1/teams', payload: { name: 'Edge team' } })).id;
  const inboxId = dataOf<{ id: number }>(
    await t.call({ method: 'POST', url: '/api/v1/inboxes', payload: { name: 'Chat', channel: 'livechat', config: {} } }),
  ).id;
  const created = await t.call({
    method: 'POST',
    url: '/api/v1/conversations',
    payload: { inbox_id: inboxId, contact_email: 'edge-contact@example.com', content: '<p>Hello</p>', initiator: 'contact' },
  });
  const conversation = dataOf<{ uuid: string }>(created).uuid;
  return { teamId, inboxId, conversation };
}
