// Which conversation an incoming mail belongs to (docs/email.md, "Threading"), in this order,
// the first that answers winning: In-Reply-To then References (newest first) against mail_ids;
// a plus address of this inbox among the recipients; the subject's [#reference], only from the
// conversation's contact or an address that took part in it; else a new conversation. A
// conversation resolved longer ago than the inbox's reopen window is not reopened: the mail
// starts a new one linked to it. A subject alone never joins a conversation.
import { sql } from 'kysely';
import { type LockedConversation, lockConversationForChannel } from '../conversations/conversations.append.ts';
import type { DB } from '../db/database.ts';
import { conversationOfPlusAddress, referenceOfSubject } from './email.addresses.ts';
import type { EmailInbox } from './email.inbox.ts';
import { conversationsOfMailIds } from './email.mail-ids.ts';
import type { InboundMail } from './email.parse.ts';

export type ThreadVia = 'in_reply_to' | 'references' | 'plus_address' | 'subject_reference';

export type Thread =
  /** Append to this conversation (locked for the caller's transaction). */
  | { kind: 'existing'; conversation: LockedConversation; via: ThreadVia }
  /** Start a conversation; `previous` is the one resolved beyond the reopen window that the mail answered. */
  | { kind: 'new'; previous: { uuid: string; via: ThreadVia } | null };

interface Candidate {
  uuid: string;
  via: ThreadVia;
}

const DAY_MS = 86_400_000;

/** The conversation of this inbox with this uuid, or undefined. */
async function conversationOfInbox(trx: DB, inboxId: number, uuid: string) {
  return trx.selectFrom('conversations').where('inbox_id', '=', inboxId).where('uuid', '=', uuid).select(['id', 'uuid']).executeTakeFirst();
}

/** 1. In-Reply-To, then References newest first, against every Message-ID the inbox stored or sent. */
async function byHeaders(trx: DB, inbox: EmailInbox, mail: InboundMail): Promise<Candidate | null> {
  const ordered: Array<{ id: string; via: ThreadVia }> = mail.inReplyTo.map((id) => ({ id, via: 'in_reply_to' }));
  for (const id of [...mail.references].reverse()) ordered.push({ id, via: 'references' });
  // conversationsOfMailIds looks up the last 100: keep In-Reply-To and the newest references.
  const wanted = ordered.slice(0, 100);
  if (wanted.length === 0) return null;
  const known = await conversationsOfMailIds(
    trx,
    inbox.id,
    wanted.map((w) => w.id),
  );
  for (const { id, via } of wanted) {
    const uuid = known.get(id);
    if (uuid !== undefined) return { uuid, via };
  }
  return null;
}

/** 2. A plus address of this inbox among To, Cc, Delivered-To, X-Original-To: unguessable, trusted from anyone. */
async function byPlusAddress(trx: DB, inbox: EmailInbox, mail: InboundMail): Promise<Candidate | null> {
  const recipients = [...mail.to.map((p) => p.address), ...mail.cc.map((p) => p.address), ...mail.deliveredTo];
  for (const recipient of recipients) {
    const uuid = conversationOfPlusAddress(inbox.address, recipient);
    if (uuid === null) continue;
    const conversation = await conversationOfInbox(trx, inbox.id, uuid);
    if (conversation) return { uuid: conversation.uuid, via: 'plus_address' };
  }
  return null;
}

/**
 * 3. The subject's `[#reference]`, when the sender is the conversation's contact or an address
 * that already took part in it (the sender or a recipient of one of its mails): reference numbers
 * are sequential, so a stranger must not write into someone else's conversation with one.
 */
async function bySubjectReference(trx: DB, inbox: EmailInbox, mail: InboundMail): Promise<Candidate | null> {
  const reference = referenceOfSubject(mail.subject);
  if (reference === null || mail.from === null) return null;
  const sender = mail.from.address.toLowerCase();
  const bracketed = `<${sender}>`;
  const addresses = (key: string) => sql`case when jsonb_typeof(m.meta->${key}) = 'array' then m.meta->${key} else '[]'::jsonb end`;
  const { rows } = await sql<{ uuid: string }>`
    select c.uuid from conversations c
    join users u on u.id = c.contact_id
    where c.reference_number = ${reference} and c.inbox_id = ${inbox.id}
      and (lower(u.email) = ${sender} or exists (
        select 1 from messages m
        cross join lateral jsonb_array_elements_text(${addresses('from')} || ${addresses('to')} || ${addresses('cc')}) as a(address)
        where m.conversation_id = c.id
          and (lower(a.address) = ${sender} or right(lower(a.address), ${bracketed.length}) = ${bracketed})
      ))`.execute(trx);
  const found = rows[0];
  return found ? { uuid: found.uuid, via: 'subject_reference' } : null;
}

/** The conversation a mail answers, by the rules above in order, or null. Reads only. */
export async function findThread(trx: DB, inbox: EmailInbox, mail: InboundMail): Promise<Candidate | null> {
  return (await byHeaders(trx, inbox, mail)) ?? (await byPlusAddress(trx, inbox, mail)) ?? (await bySubjectReference(trx, inbox, mail));
}

/** The newest conversation of the inbox that continues `uuid` (meta.previous_conversation_uuid), or undefined. */
async function successorOf(trx: DB, inboxId: number, uuid: string) {
  return (
    trx
      .selectFrom('conversations')
      .where('inbox_id', '=', inboxId)
      // The key test lets the partial index of migration 0020 answer.
      .where(sql<boolean>`meta ? 'previous_conversation_uuid'`)
      .where(sql<string>`meta->>'previous_conversation_uuid'`, '=', uuid)
      .orderBy('id', 'desc')
      .select('uuid')
      .executeTakeFirst()
  );
}

/** Whether a locked conversation was resolved at least `reopen_window_days` ago. */
async function resolvedLongAgo(trx: DB, inbox: EmailInbox, conversation: LockedConversation, now: Date): Promise<boolean> {
  if (conversation.status_category !== 'resolved') return false;
  const row = await trx.selectFrom('conversations').where('id', '=', conversation.id).select('resolved_at').executeTakeFirst();
  const resolvedAt = row?.resolved_at ?? null;
  return resolvedAt !== null && now.getTime() - new Date(resolvedAt).getTime() >= inbox.settings.reopen_window_days * DAY_MS;
}

/** How many conversations continuing one another a mail follows before it starts yet another. */
const MAX_SUCCESSORS = 5;

/**
 * The thread of a mail, its conversation locked. A conversation resolved more than
 * `reopen_window_days` ago is not reopened: the mail goes to the conversation that already
 * continues it, or starts a new one linked to it (`previous`). An automatic mail (an
 * auto-reply) reopens nothing and starts nothing: it is filed in the conversation as it stands.
 */
export async function decideThread(trx: DB, inbox: EmailInbox, mail: InboundMail, now: Date): Promise<Thread> {
  const found = await findThread(trx, inbox, mail);
  if (found === null) return { kind: 'new', previous: null };
  const first = await lockConversationForChannel(trx, found.uuid);
  if (!first) return { kind: 'new', previous: null };
  let conversation: LockedConversation = first;
  if (mail.automatic !== null) return { kind: 'existing', conversation, via: found.via };
  for (let hop = 0; await resolvedLongAgo(trx, inbox, conversation, now); hop += 1) {
    const successor: { uuid: string } | undefined = hop < MAX_SUCCESSORS ? await successorOf(trx, inbox.id, conversation.uuid) : undefined;
    const next: LockedConversation | undefined = successor ? await lockConversationForChannel(trx, successor.uuid) : undefined;
    if (!next) return { kind: 'new', previous: { uuid: conversation.uuid, via: found.via } };
    conversation = next;
  }
  return { kind: 'existing', conversation, via: found.via };
}
