// The statements that add a message to a conversation: the message row, the conversation's
// denormalised columns, `message.created`, and optionally a job and an idempotency key, in one
// statement (data-modifying CTEs). conversations.append.ts decides what they write.
//
// The agent's one-statement reply is compiled once per shape (db/statement.ts): building and
// compiling a statement of five CTEs with Kysely costs about 0.2 ms of CPU, as much as the rest
// of a reply's own work. A shape is the names of the values written (and the access scope's
// form); every value is a query parameter, given to the builder as a named placeholder the
// first time. Both statements are built from the same named values.
import { type Expression, type ExpressionBuilder, type Selectable, type SqlBool, sql } from 'kysely';
import type { DB } from '../db/database.ts';
import { type Arg, compiledPerShape } from '../db/statement.ts';
import type { Database, MessageMeta, MessageStatus, MessageType, SenderType } from '../db/types.ts';
import type { DomainEventPayload } from '../events/events.schema.ts';
import { type ChannelName, deliveryJobSql } from '../inboxes/channels.ts';
import { type AccessScope, scopeFilter, scopeShape } from './conversations.access.ts';
import type { ConversationUpdate } from './conversations.queries.ts';

export interface NewMessage {
  conversation_id: number;
  type: MessageType;
  status: MessageStatus;
  content: string;
  text_content: string;
  content_type: 'text' | 'html';
  private: boolean;
  sender_id: number | null;
  sender_type: SenderType;
  meta: MessageMeta;
  source_id?: string | null;
  created_at: Date;
  updated_at: Date;
}

const MESSAGE_COLUMNS = [
  'id',
  'uuid',
  'created_at',
  'updated_at',
  'type',
  'status',
  'conversation_id',
  'content',
  'text_content',
  'content_type',
  'private',
  'sender_id',
  'sender_type',
  'meta',
] as const;

export async function insertMessage(db: DB, values: NewMessage) {
  return db
    .insertInto('messages')
    .values({ ...values, meta: JSON.stringify(values.meta) })
    .returning(MESSAGE_COLUMNS)
    .executeTakeFirstOrThrow();
}

/** The conversation's denormalised columns after a message: `set` always, `setIfNull` only where the row has no value yet. */
export interface ColumnsAfterMessage {
  set: ConversationUpdate;
  setIfNull: { first_reply_at?: Date; waiting_since?: Date; first_message?: string };
}

/** The fields of `message.created` known before the statement (the ids come from its rows). */
export type MessageCreatedFields = Omit<
  DomainEventPayload<'message.created'>,
  'conversation_id' | 'conversation_uuid' | 'message_id' | 'message_uuid'
>;

export interface MessageEffects {
  conversation: ColumnsAfterMessage;
  event: { fields: MessageCreatedFields; at: Date };
  /**
   * A job queued with the message (its delivery); `message_id` and `message_uuid` make its
   * payload. Its kind is given to the locked statement; the other makes it from the channel.
   */
  job: { kind?: string; maxAttempts: number } | null;
  /** An Idempotency-Key remembered with the message (a second use fails on the unique key, 23505). */
  idempotency?: { userId: number; key: string; requestHash: string } | undefined;
}

type MessageValues = Omit<NewMessage, 'conversation_id' | 'meta' | 'source_id'> & { meta: MessageMeta; source_id: string | null };

type MessageRow = Pick<Selectable<Database['messages']>, (typeof MESSAGE_COLUMNS)[number]>;

/** A statement's values by name: the names make its shape, the values its parameters. */
type Named = Array<[string, Arg]>;

function named(prefix: string, values: object): Named {
  return Object.entries(values).map(([name, value]) => [`${prefix}${name}`, value as Arg]);
}

/** The values every message statement writes, in a fixed order of names. */
function commonValues(values: MessageValues, effects: MessageEffects): Named {
  const { meta, ...message } = values;
  const job = effects.job;
  const idempotency = effects.idempotency;
  return [
    ...named('msg.', message),
    ['msg.meta', JSON.stringify(meta)],
    ...named('set.', effects.conversation.set),
    ...named('ifnull.', effects.conversation.setIfNull),
    ['event.fields', JSON.stringify(effects.event.fields)],
    ['event.at', effects.event.at],
    ['job', job !== null],
    ['job.max_attempts', job?.maxAttempts ?? 1],
    ['idem', idempotency !== undefined],
    ['idem.user_id', idempotency?.userId ?? 0],
    ['idem.key', idempotency?.key ?? ''],
    ['idem.request_hash', idempotency?.requestHash ?? ''],
  ];
}

/** The values again by name, inside a builder (placeholders the first time). */
type Values = ReadonlyMap<string, Arg>;

function byPrefix(v: Values, prefix: string): Record<string, Arg> {
  const out: Record<string, Arg> = {};
  for (const [name, value] of v) if (name.startsWith(prefix)) out[name.slice(prefix.length)] = value;
  return out;
}

/** The SET of the conversation's update (`setIfNull` as coalesce over the row's own value). */
function conversationSet(v: Values): ConversationUpdate {
  const set: Record<string, unknown> = byPrefix(v, 'set.');
  for (const [name, value] of Object.entries(byPrefix(v, 'ifnull.'))) set[name] = sql`coalesce(${sql.ref(`c.${name}`)}, ${value})`;
  return set as unknown as ConversationUpdate;
}

/**
 * What follows the message, reading the `msg` CTE and the conversation's id, uuid and (for the
 * job's kind) channel from `conversation`: the event, the job and the idempotency key, each
 * inserted only when there is a message. The event's row is written here rather than by
 * eventColumns (events.service.ts), which serialises the payload's values itself: a statement
 * compiled once must carry each value as a parameter. Its fields are typed by
 * MessageCreatedFields and the four ids added here are those of `message.created`.
 */
function withFollowers<Q>(
  query: Q,
  v: Values,
  conversation: { from: string[]; id: Expression<number>; uuid: Expression<string>; jobKind: Expression<string> },
) {
  const at = v.get('event.at');
  const ids = sql`'conversation_id', ${conversation.id}, 'conversation_uuid', ${conversation.uuid}`;
  // biome-ignore lint/suspicious/noExplicitAny: each `with` grows the CTE chain's type; the callers' final select is typed.
  return (query as any)
    .with('ev', (d: DB) =>
      d
        .insertInto('domain_events')
        .columns(['type', 'payload', 'created_at'])
        .expression((eb) =>
          eb
            .selectFrom(conversation.from as never)
            .select([
              sql<string>`'message.created'`.as('type'),
              sql<string>`${v.get('event.fields')}::jsonb || jsonb_build_object(${ids}, 'message_id', msg.id, 'message_uuid', msg.uuid)`.as(
                'payload',
              ),
              sql<Date>`${at}::timestamptz`.as('created_at'),
            ]),
        )
        .returning('id'),
    )
    .with('job', (d: DB) =>
      d
        .insertInto('jobs')
        .columns(['kind', 'payload', 'max_attempts'])
        .expression((eb) =>
          eb
            .selectFrom(conversation.from as never)
            .select([
              sql<string>`${conversation.jobKind}`.as('kind'),
              sql<string>`jsonb_build_object('message_id', msg.id, 'message_uuid', msg.uuid)`.as('payload'),
              sql<number>`${v.get('job.max_attempts')}::int`.as('max_attempts'),
            ])
            .where(sql<SqlBool>`${v.get('job')}::boolean`),
        )
        .returning('id'),
    )
    .with('idem', (d: DB) =>
      d
        .insertInto('idempotency_keys')
        .columns(['user_id', 'key', 'request_hash', 'message_id', 'created_at'])
        .expression((eb) =>
          eb
            .selectFrom('msg' as never)
            .select([
              sql<number>`${v.get('idem.user_id')}::int`.as('user_id'),
              sql<string>`${v.get('idem.key')}::text`.as('key'),
              sql<string>`${v.get('idem.request_hash')}::text`.as('request_hash'),
              sql<number>`msg.id`.as('message_id'),
              sql<Date>`${at}::timestamptz`.as('created_at'),
            ])
            .where(sql<SqlBool>`${v.get('idem')}::boolean`),
        )
        .returning('message_id'),
    ) as Q;
}

/**
 * A new message and what it causes, in one statement: the message row, the conversation's
 * columns, the domain event, and optionally a job and an idempotency key. Inside the caller's
 * transaction, with the conversation locked; the job's kind is given.
 */
export async function insertMessageWithEffects(
  db: DB,
  conversation: { id: number; uuid: string },
  values: MessageValues,
  effects: MessageEffects,
): Promise<MessageRow> {
  const all = commonValues(values, effects);
  // Built on each call: this path serves the rarer cases (uploads, an applied SLA, the channels'
  // incoming mail and chat), and a statement built per call keeps Kysely plugins working (the
  // email ingest's fault tests inject failures by the values a statement carries).
  const v: Values = new Map(all);
  const start = db
    .with('msg', (w) =>
      w
        .insertInto('messages')
        .values({ ...values, meta: JSON.stringify(values.meta), conversation_id: conversation.id })
        .returning(MESSAGE_COLUMNS),
    )
    .with('conv', (w) => w.updateTable('conversations as c').set(conversationSet(v)).where('c.id', '=', conversation.id).returning('c.id'));
  return withFollowers(start, v, {
    from: ['msg'],
    id: sql<number>`${conversation.id}::int`,
    uuid: sql<string>`${conversation.uuid}::text`,
    jobKind: sql<string>`${effects.job?.kind ?? ''}::text`,
  })
    .selectFrom('msg')
    .select(MESSAGE_COLUMNS)
    .executeTakeFirstOrThrow();
}

const atOnceStatement = compiledPerShape<MessageRow & { conversation_uuid: string; inbox_channel: ChannelName }>();

/**
 * The same without a transaction: the conversation is found by uuid and written only when the
 * caller's access scope allows it, (with `withoutSla`) no SLA is applied to it and (with
 * `withoutFirstReplyAssignment`) the reply would not assign it to its sender, its row
 * locked by the update; PostgreSQL checks those conditions again on the newest row if another
 * transaction changed it first. The message and its followers are inserted only then. The
 * job's kind is the delivery job of the inbox's channel (inboxes/channels.ts). Answers the message with its
 * conversation's uuid and channel, or undefined when nothing was written.
 */
export async function insertMessageIfConversation(
  db: DB,
  uuid: string,
  scope: AccessScope,
  values: MessageValues,
  effects: MessageEffects,
  options: { withoutSla: boolean; withoutFirstReplyAssignment: boolean },
) {
  const all: Named = [['conversation.uuid', uuid], ...commonValues(values, effects)];
  // The scope's ids that its SQL uses (scopeShape names the form). A placeholder stands in for
  // the team ids while the statement is built: scopeFilter only passes them on as a value.
  if (!scope.all && scope.assignedTo !== null) all.push(['scope.assigned_to', scope.assignedTo]);
  if (!scope.all && scope.teams.length > 0) all.push(['scope.teams', scope.teams]);
  const shape = [
    scopeShape(scope),
    options.withoutSla ? 'no-sla' : 'any-sla',
    options.withoutFirstReplyAssignment ? 'no-first-reply-assignment' : 'any',
    all.map(([name]) => name).join(','),
  ].join('|');
  const args = all.map(([, value]) => value);
  const [row] = await atOnceStatement(db, shape, args, (d, ...placeholders) => {
    const v: Values = new Map(all.map(([name], i) => [name, placeholders[i] as Arg]));
    const readable = scopeFilter<Database & { c: Database['conversations'] }, 'c'>({
      all: scope.all,
      assignedTo: (v.get('scope.assigned_to') as number | undefined) ?? null,
      teams: (v.get('scope.teams') as readonly number[] | undefined) ?? [],
      unassigned: scope.unassigned,
    });
    const start = d
      .with('conv', (w) =>
        w
          .updateTable('conversations as c')
          .from('inboxes as i')
          .set(conversationSet(v))
          .whereRef('i.id', '=', 'c.inbox_id')
          .where('c.uuid', '=', v.get('conversation.uuid') as string)
          .$if(options.withoutSla, (u) => u.where('c.applied_sla_id', 'is', null))
          // A first reply that would assign the conversation (the inbox's assign_on_first_reply) takes the locked path.
          .$if(options.withoutFirstReplyAssignment, (u) =>
            u.where(sql<SqlBool>`not (i.assign_on_first_reply and c.assigned_user_id is null and c.first_reply_at is null)`),
          )
          .where((eb) => readable(eb as unknown as ExpressionBuilder<Database & { c: Database['conversations'] }, 'c'>))
          .returning(['c.id', 'c.uuid', 'i.channel']),
      )
      .with('msg', (w) =>
        w
          .insertInto('messages')
          .columns([...(Object.keys(byPrefix(v, 'msg.')) as never[]), 'conversation_id'])
          .expression((eb) =>
            eb
              .selectFrom('conv')
              .select([
                ...Object.entries(byPrefix(v, 'msg.')).map(([name, value]) => sql`${value}`.as(name)),
                'conv.id as conversation_id',
              ]),
          )
          .returning(MESSAGE_COLUMNS),
      );
    return withFollowers(start, v, {
      from: ['msg', 'conv'],
      id: sql<number>`conv.id`,
      uuid: sql<string>`conv.uuid`,
      jobKind: deliveryJobSql(sql`conv.channel`),
    })
      .selectFrom(['msg', 'conv'])
      .select([
        ...MESSAGE_COLUMNS.map((c) => `msg.${c}` as const),
        'conv.uuid as conversation_uuid',
        'conv.channel as inbox_channel',
      ]) as never;
  });
  return row;
}
