// The channels an inbox can be of, declared once with what each one does (docs/code-map.md,
// "Adding a channel"). Code that behaves differently per channel asks this table for a trait
// rather than comparing the channel's name.
import { type RawBuilder, sql } from 'kysely';

export const CHANNEL_NAMES = ['email', 'livechat'] as const;
export type ChannelName = (typeof CHANNEL_NAMES)[number];

export interface ChannelTraits {
  /** The job that delivers an agent's public reply: each channel's sender handles its own. */
  deliveryJob: string;
  /** That job does bookkeeping only (no I/O of its own): it runs in the batched runner (workers.ts). */
  batchedDelivery: boolean;
  /**
   * The contact writes through the chat widget: the inbox has widget settings (their time zone,
   * the JWT secret shown once and rotated, a preview), the widget API serves it, and its CSAT
   * page wears the widget's brand.
   */
  widget: boolean;
  /** The contact's widget sockets hear the conversation: agent replies, typing, status and assignee changes. */
  liveSocket: boolean;
  /** Conversations thread by mail: the inbox has a `from` address and mail servers (the IMAP reader, the SMTP sender). */
  threadsByMail: boolean;
}

export const CHANNEL_TABLE: Readonly<Record<ChannelName, ChannelTraits>> = {
  email: { deliveryJob: 'email.deliver', batchedDelivery: false, widget: false, liveSocket: false, threadsByMail: true },
  livechat: { deliveryJob: 'livechat.deliver', batchedDelivery: true, widget: true, liveSocket: true, threadsByMail: false },
};

type Trait = { [K in keyof ChannelTraits]: ChannelTraits[K] extends boolean ? K : never }[keyof ChannelTraits];

const isChannel = (name: string | null): name is ChannelName => name !== null && (CHANNEL_NAMES as readonly string[]).includes(name);

/** Whether a channel (a stored inbox's, so any text, or none) has a trait; false for a name the table does not know. */
export function channelHas(name: string | null, trait: Trait): boolean {
  return isChannel(name) && CHANNEL_TABLE[name][trait];
}

/** The channels with a trait (for SQL filters: `where channel in (…)`). */
export function channelsWith(trait: Trait): ChannelName[] {
  return CHANNEL_NAMES.filter((name) => CHANNEL_TABLE[name][trait]);
}

/** The delivery job of a channel in SQL, from an expression giving the channel's name. */
export function deliveryJobSql(channel: RawBuilder<unknown>): RawBuilder<string> {
  const cases = CHANNEL_NAMES.map((name) => sql`when ${sql.lit(name)} then ${sql.lit(CHANNEL_TABLE[name].deliveryJob)}`);
  return sql<string>`case ${channel} ${sql.join(cases, sql` `)} end`;
}
