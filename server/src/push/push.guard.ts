// The address guard of Web Push: the webhooks' (webhooks/webhooks.send.ts, docs/api.md "Address
// guard") with PUSH_ALLOW_HOSTS in place of WEBHOOK_ALLOW_HOSTS. A push endpoint is given by any
// agent, so it must never make the server reach a loopback, private or metadata address:
// checked when the subscription is recorded (after DNS) and again on every connection (DNS can
// change). Hosts in PUSH_ALLOW_HOSTS may also use http (a loopback push service in tests).
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import type { Config } from '../config.ts';
import { type AddressPolicy, createWebhookAgents, type WebhookAgents, webhookAddressPolicy } from '../webhooks/webhooks.send.ts';

export interface PushGuard {
  readonly policy: AddressPolicy;
  /** Keep-alive agents whose connections pass the policy (one set per configuration). */
  readonly agents: WebhookAgents;
  /** Is the host named in PUSH_ALLOW_HOSTS (by name, address or block)? Such hosts may use http. */
  isListed(host: string): boolean;
}

const guards = new WeakMap<Config, PushGuard>();

export function pushGuard(config: Config): PushGuard {
  let guard = guards.get(config);
  if (!guard) {
    const policy = webhookAddressPolicy(config.pushAllowList);
    guard = { policy, agents: createWebhookAgents(policy), isListed: listed(config.pushAllowList) };
    guards.set(config, guard);
  }
  return guard;
}

function listed(allowList: readonly string[]): (host: string) => boolean {
  const names = new Set<string>();
  const addresses = new BlockList();
  for (const entry of allowList) {
    const value = entry.replace(/^\[(.*)\]$/, '$1');
    const [network = '', prefix] = value.split('/');
    const family = isIP(network);
    if (family === 0) names.add(value.replace(/\.$/, ''));
    else addresses.addSubnet(network, prefix === undefined ? (family === 4 ? 32 : 128) : Number(prefix), family === 4 ? 'ipv4' : 'ipv6');
  }
  return (host) => {
    const bare = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
    const family = isIP(bare);
    if (family === 0) return names.has(bare.replace(/\.$/, ''));
    return addresses.check(bare, family === 4 ? 'ipv4' : 'ipv6');
  };
}

/** The host of a URL without IPv6 brackets. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1');
}

/**
 * Why the server may not reach this URL's host, or null. A name is resolved: refused when every
 * address it has is refused. A name that does not resolve now passes (a passing DNS failure must
 * not refuse a real push service): every connection is checked again when a push is sent.
 */
export async function refusedAddress(guard: PushGuard, url: URL): Promise<string | null> {
  const host = bareHost(url);
  if (isIP(host) !== 0) return guard.policy.isAllowed(host) ? null : host;
  let addresses: Array<{ address: string }>;
  try {
    addresses = await lookup(host, { all: true });
  } catch {
    return null;
  }
  if (addresses.length === 0 || addresses.some((entry) => guard.policy.isAllowed(entry.address, host))) return null;
  return addresses.map((entry) => entry.address).join(', ');
}
