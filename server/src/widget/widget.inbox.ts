// The live-chat inbox a widget request or socket names (docs/api.md, "Live chat"): selected by
// its uuid; a malformed, unknown, deleted or disabled uuid, or one of another channel, is the
// same "not found" for the caller. The client address is refused when the inbox blocks it
// (exact addresses and CIDR ranges, IPv4 and IPv6).
import { BlockList, isIP } from 'node:net';
import type { Static } from 'typebox';
import type { AppDeps } from '../deps.ts';
import { channelHas } from '../inboxes/channels.ts';
import { getInboxByUuid } from '../inboxes/inboxes.service.ts';
import type { LivechatConfig } from '../inboxes/inboxes.schema.ts';

export type LivechatSettings = Static<typeof LivechatConfig>;

export interface WidgetInbox {
  id: number;
  uuid: string;
  name: string;
  /** The stored config, secrets decrypted: never send it to a client as it is. */
  config: LivechatSettings;
}

/** The enabled live-chat inbox with this uuid, or null (malformed, unknown, deleted, disabled, email). */
export async function findWidgetInbox(deps: AppDeps, uuid: string): Promise<WidgetInbox | null> {
  const inbox = await getInboxByUuid(deps, uuid);
  if (!inbox || !inbox.enabled || !channelHas(inbox.channel, 'widget')) return null;
  return { id: inbox.id, uuid: inbox.uuid, name: inbox.name, config: inbox.config as LivechatSettings };
}

function familyOf(address: string): 'ipv4' | 'ipv6' | null {
  const version = isIP(address);
  return version === 4 ? 'ipv4' : version === 6 ? 'ipv6' : null;
}

/** An IPv4-mapped IPv6 address (::ffff:1.2.3.4) is the IPv4 address it carries. */
function plain(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped?.[1] ?? address;
}

/** Whether `address` is one of `blocked` (addresses or CIDR ranges; entries that are neither are ignored). */
export function isAddressBlocked(blocked: readonly string[], address: string): boolean {
  if (blocked.length === 0) return false;
  const client = plain(address);
  const clientFamily = familyOf(client);
  if (!clientFamily) return false;
  const list = new BlockList();
  for (const entry of blocked) {
    const [base = '', bits] = entry.trim().split('/');
    const family = familyOf(plain(base));
    if (!family) continue;
    if (bits === undefined) list.addAddress(plain(base), family);
    else if (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 'ipv4' ? 32 : 128)) list.addSubnet(plain(base), Number(bits), family);
  }
  return list.check(client, clientFamily);
}
