// Every statement of Web Push: the VAPID key row and the push subscriptions.
import type { DB } from '../db/database.ts';

/** Inserts the key pair unless one exists (the first instance to get there wins), then reads the stored one. */
export async function insertVapidKeysIfAbsent(db: DB, keys: { public_key: string; private_key: string }, at: Date) {
  await db
    .insertInto('push_vapid_keys')
    .values({ id: 1, ...keys, created_at: at })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
  return readVapidKeys(db);
}

export async function readVapidKeys(db: DB) {
  return db.selectFrom('push_vapid_keys').select(['public_key', 'private_key']).where('id', '=', 1).executeTakeFirst();
}

const LISTED = ['id', 'endpoint', 'user_agent', 'created_at', 'updated_at', 'last_success_at'] as const;

export async function listSubscriptionsOf(db: DB, agentId: number) {
  return db.selectFrom('push_subscriptions').select(LISTED).where('agent_id', '=', agentId).orderBy('id').execute();
}

export async function countSubscriptionsOf(db: DB, agentId: number, exceptEndpoint: string): Promise<number> {
  const row = await db
    .selectFrom('push_subscriptions')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('agent_id', '=', agentId)
    .where('endpoint', '<>', exceptEndpoint)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/**
 * Records the subscription, or updates the one with this endpoint: its keys, and its agent (a
 * browser profile shows the notifications of the agent who last turned push on there). Moving
 * to another agent forgets the last success, which was the other agent's.
 */
export async function upsertSubscription(
  db: DB,
  input: { agent_id: number; session_id: string | null; endpoint: string; p256dh: string; auth: string; user_agent: string | null },
  at: Date,
) {
  return db
    .insertInto('push_subscriptions')
    .values({ ...input, created_at: at, updated_at: at })
    .onConflict((oc) =>
      oc.column('endpoint').doUpdateSet((eb) => ({
        agent_id: eb.ref('excluded.agent_id'),
        session_id: eb.ref('excluded.session_id'),
        p256dh: eb.ref('excluded.p256dh'),
        auth: eb.ref('excluded.auth'),
        user_agent: eb.ref('excluded.user_agent'),
        updated_at: eb.ref('excluded.updated_at'),
        last_success_at: eb
          .case()
          .when('push_subscriptions.agent_id', '=', eb.ref('excluded.agent_id'))
          .then(eb.ref('push_subscriptions.last_success_at'))
          .else(null)
          .end(),
      })),
    )
    .returning(LISTED)
    .executeTakeFirstOrThrow();
}

/** Deletes one of the agent's subscriptions; false when it has none with this id. */
export async function deleteSubscriptionOf(db: DB, agentId: number, id: number): Promise<boolean> {
  const result = await db.deleteFrom('push_subscriptions').where('id', '=', id).where('agent_id', '=', agentId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** What a delivery needs: the notification, its conversation's uuid, and whether its agent may still get it. */
export async function notificationToPush(db: DB, notificationId: number) {
  return db
    .selectFrom('notifications as n')
    .innerJoin('conversations as c', 'c.id', 'n.conversation_id')
    .innerJoin('users as u', 'u.id', 'n.agent_id')
    .select(['n.id', 'n.agent_id', 'n.type', 'n.title', 'n.excerpt', 'n.created_at', 'n.read_at', 'c.uuid as conversation_uuid'])
    .select(['u.enabled', 'u.deleted_at'])
    .where('n.id', '=', notificationId)
    .executeTakeFirst();
}

const SENDABLE = ['id', 'endpoint', 'p256dh', 'auth'] as const;

export async function sendableSubscriptionsOf(db: DB, agentId: number) {
  return db.selectFrom('push_subscriptions').select(SENDABLE).where('agent_id', '=', agentId).orderBy('id').execute();
}

/** The subscription, if it still belongs to the agent (a retry finds it gone, or moved to another agent). */
export async function sendableSubscription(db: DB, agentId: number, id: number) {
  return db.selectFrom('push_subscriptions').select(SENDABLE).where('id', '=', id).where('agent_id', '=', agentId).executeTakeFirst();
}

export async function markSubscriptionSucceeded(db: DB, id: number, at: Date): Promise<void> {
  await db.updateTable('push_subscriptions').set({ last_success_at: at }).where('id', '=', id).execute();
}

/** The push service said the subscription is gone (404/410): forgotten, unless its keys changed since the send. */
export async function deleteExpiredSubscription(db: DB, id: number, endpoint: string): Promise<void> {
  await db.deleteFrom('push_subscriptions').where('id', '=', id).where('endpoint', '=', endpoint).execute();
}
