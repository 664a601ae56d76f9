// The one way Parley sends a webhook request: an HTTP(S) POST that refuses to connect to
// loopback, private, link-local, unique-local, multicast, reserved and cloud-metadata
// addresses unless WEBHOOK_ALLOW_HOSTS allows them. The check runs on the address actually
// connected to — inside the DNS lookup of every new connection, and on IP-literal hosts
// before the request — so a name that resolves (or rebinds) to a private address is refused
// too. Redirects are never followed: a 3xx is an answer like any other non-2xx.
// Admin-set addresses of other integrations (OIDC, AI) do not come through here.
import { type LookupAddress, type LookupAllOptions, lookup as dnsLookup } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';

/** At most this much of the receiver's answer is kept (contract §8: 2 KB). */
export const SNIPPET_BYTES = 2048;
/** A larger answer is not read to its end: the connection is dropped instead. */
const MAX_READ_BYTES = 64 * 1024;

export interface AddressPolicy {
  /** May a request connect to `address` (an IP)? `hostname` is the URL's host when it was a name. */
  isAllowed(address: string, hostname?: string): boolean;
}

export interface WebhookAgents {
  readonly http: http.Agent;
  readonly https: https.Agent;
  close(): void;
}

export interface SendResult {
  statusCode: number;
  latencyMs: number;
  /** The first ≤ 2 KB of the answer's body, as text (NUL removed, so it can be stored). */
  snippet: string;
}

/** The address connected to (after DNS) is not one webhooks may reach. */
export class AddressRefusedError extends Error {
  override name = 'AddressRefusedError';
  readonly code = 'EADDRREFUSED';
}

/** The request did not get an answer: it timed out or the connection failed. */
export class SendError extends Error {
  override name = 'SendError';
  readonly kind: 'timeout' | 'network';
  readonly latencyMs: number;
  constructor(message: string, kind: 'timeout' | 'network', latencyMs: number) {
    super(message);
    this.kind = kind;
    this.latencyMs = latencyMs;
  }
}

// Not reachable for webhooks unless allowed: every special-purpose range of the IANA
// registries (RFC 6890 and successors) that is not the public Internet.
const IPV4_BLOCKED = [
  '0.0.0.0/8', // "this network"
  '10.0.0.0/8', // private
  '100.64.0.0/10', // carrier-grade NAT (also Alibaba's metadata 100.100.100.200)
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local (AWS/GCP/Azure metadata 169.254.169.254)
  '172.16.0.0/12', // private
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // documentation
  '192.88.99.0/24', // 6to4 relay anycast
  '192.168.0.0/16', // private
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation
  '203.0.113.0/24', // documentation
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, broadcast
];
const IPV6_BLOCKED = [
  '::/96', // unspecified, loopback and the deprecated IPv4-compatible form (::7f00:1)
  '::ffff:0:0:0/96', // IPv4-translated (SIIT): an IPv4 address in another wrapper
  '64:ff9b:1::/48', // local-use NAT64: translates to whatever the local network chose
  '100::/64', // discard
  '2001::/23', // IETF protocol assignments (Teredo among them)
  '2001:db8::/32', // documentation
  '2002::/16', // 6to4: carries an IPv4 address we would have to trust
  'fc00::/7', // unique local (AWS metadata fd00:ec2::254)
  'fe80::/10', // link-local
  'fec0::/10', // site-local (deprecated)
  'ff00::/8', // multicast
];

const blocked = new BlockList();
for (const range of IPV4_BLOCKED) addRange(blocked, range);
for (const range of IPV6_BLOCKED) addRange(blocked, range);

function addRange(list: BlockList, range: string): void {
  const [network, prefix] = range.split('/') as [string, string];
  const family = isIP(network) === 6 ? 'ipv6' : 'ipv4';
  list.addSubnet(network, Number(prefix), family);
}

/**
 * An IPv6 address in one spelling: the URL standard's serialisation (lower case, the longest
 * run of zeros compressed, an embedded dotted quad turned into hex), or null when it has none
 * (a zone index, for one).
 */
function canonicalIpv6(address: string): string | null {
  try {
    return new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
}

/** The IPv4 address an IPv6 address carries (mapped ::ffff:0:0/96, or NAT64 64:ff9b::/96), if any. */
function embeddedIpv4(address: string): string | null {
  const canonical = canonicalIpv6(address);
  const hex = canonical === null ? null : /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(canonical);
  if (!hex) return null;
  const high = Number.parseInt(hex[1] ?? '0', 16);
  const low = Number.parseInt(hex[2] ?? '0', 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** Is this IP one of the addresses webhooks never reach by default? Non-IPs count as blocked. */
export function isBlockedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, 'ipv4');
  if (family !== 6 || canonicalIpv6(address) === null) return true;
  const inner = embeddedIpv4(address);
  if (inner !== null) return isBlockedAddress(inner);
  return blocked.check(address, 'ipv6');
}

/**
 * The policy of WEBHOOK_ALLOW_HOSTS: each entry is a host name (exact, case-insensitive: any
 * address it resolves to is allowed), an IP address, or a CIDR block (`10.0.0.0/8`, `fd00::/8`).
 * Entries that are none of these are ignored (config.ts refuses them at start).
 */
export function webhookAddressPolicy(allowList: readonly string[]): AddressPolicy {
  const allowedAddresses = new BlockList();
  const allowedHosts = new Set<string>();
  for (const entry of allowList) {
    const value = entry
      .trim()
      .toLowerCase()
      .replace(/^\[(.*)\]$/, '$1');
    if (value === '') continue;
    const slash = value.indexOf('/');
    if (slash > 0) {
      const network = value.slice(0, slash);
      const prefix = Number(value.slice(slash + 1));
      const family = isIP(network);
      if (family !== 0 && Number.isInteger(prefix) && prefix >= 0 && prefix <= (family === 4 ? 32 : 128)) {
        allowedAddresses.addSubnet(network, prefix, family === 4 ? 'ipv4' : 'ipv6');
      }
    } else if (isIP(value) === 4) {
      allowedAddresses.addAddress(value, 'ipv4');
    } else if (isIP(value) === 6) {
      allowedAddresses.addAddress(value, 'ipv6');
    } else {
      allowedHosts.add(value.replace(/\.$/, ''));
    }
  }
  const explicitlyAllowed = (address: string): boolean => {
    const family = isIP(address);
    if (family === 4) return allowedAddresses.check(address, 'ipv4');
    if (family !== 6) return false;
    const inner = embeddedIpv4(address);
    return allowedAddresses.check(address, 'ipv6') || (inner !== null && allowedAddresses.check(inner, 'ipv4'));
  };
  return {
    isAllowed(address, hostname) {
      if (hostname !== undefined && allowedHosts.has(hostname.toLowerCase().replace(/\.$/, ''))) return true;
      if (explicitlyAllowed(address)) return true;
      return !isBlockedAddress(address);
    },
  };
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A DNS lookup for net.connect that drops the addresses the policy refuses (and fails when none is left). */
function guardedLookup(policy: AddressPolicy) {
  return (hostname: string, options: { family?: number | string; all?: boolean; hints?: number }, callback: LookupCallback): void => {
    const family = options.family === 4 || options.family === 'IPv4' ? 4 : options.family === 6 || options.family === 'IPv6' ? 6 : 0;
    const lookupOptions: LookupAllOptions = { all: true, family, ...(options.hints !== undefined ? { hints: options.hints } : {}) };
    dnsLookup(hostname, lookupOptions, (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => {
      if (error) {
        callback(error, '');
        return;
      }
      const allowed = addresses.filter((entry) => policy.isAllowed(entry.address, hostname));
      const first = allowed[0];
      if (!first) {
        const shown = addresses.map((entry) => entry.address).join(', ');
        callback(
          new AddressRefusedError(`${hostname} resolves to ${shown || 'no address'}, which webhooks may not reach (WEBHOOK_ALLOW_HOSTS)`),
          '',
        );
        return;
      }
      if (options.all) callback(null, allowed);
      else callback(null, first.address, first.family);
    });
  };
}

/** Keep-alive agents whose new connections pass the address guard. One set per dispatcher. */
export function createWebhookAgents(policy: AddressPolicy): WebhookAgents {
  const lookup = guardedLookup(policy);
  const options = { keepAlive: true, keepAliveMsecs: 10_000, maxSockets: 16, maxFreeSockets: 8, timeout: 30_000, lookup };
  const httpAgent = new http.Agent(options);
  const httpsAgent = new https.Agent(options);
  return {
    http: httpAgent,
    https: httpsAgent,
    close() {
      httpAgent.destroy();
      httpsAgent.destroy();
    },
  };
}

export interface SendInput {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  agents: WebhookAgents;
  policy: AddressPolicy;
  signal?: AbortSignal;
}

/**
 * POSTs `body` to `url` and answers the status code, the time it took and the start of the
 * answer. Throws AddressRefusedError when the guard refuses the address, SendError on a
 * timeout (the whole exchange, connection included, within `timeoutMs`) or a network failure.
 */
export async function sendWebhookRequest(input: SendInput): Promise<SendResult> {
  const url = new URL(input.url);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SendError(`unsupported URL scheme ${url.protocol}`, 'network', 0);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host) !== 0 && !input.policy.isAllowed(host)) {
    throw new AddressRefusedError(`${host} is an address webhooks may not reach (WEBHOOK_ALLOW_HOSTS)`);
  }
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const timeout = AbortSignal.timeout(input.timeoutMs);
  const signal = input.signal ? AbortSignal.any([timeout, input.signal]) : timeout;
  const client = url.protocol === 'https:' ? https : http;
  const agent = url.protocol === 'https:' ? input.agents.https : input.agents.http;
  const body = Buffer.from(input.body, 'utf8');

  return new Promise<SendResult>((resolve, reject) => {
    let settled = false;
    const fail = (error: unknown) => {
      if (settled) return;
      settled = true;
      if (error instanceof AddressRefusedError) reject(error);
      else if (timeout.aborted) reject(new SendError(`no answer within ${input.timeoutMs} ms`, 'timeout', elapsed()));
      else if (signal.aborted) reject(new SendError('the request was cancelled', 'network', elapsed()));
      else reject(new SendError(describeNetworkError(error), 'network', elapsed()));
    };
    const request = client.request(
      url,
      {
        method: 'POST',
        agent,
        signal,
        headers: { ...input.headers, 'content-length': String(body.length) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let read = 0;
        const finish = () => {
          if (settled) return;
          settled = true;
          resolve({ statusCode: response.statusCode ?? 0, latencyMs: elapsed(), snippet: snippetOf(Buffer.concat(chunks)) });
        };
        response.on('data', (chunk: Buffer) => {
          if (read < SNIPPET_BYTES) chunks.push(chunk.subarray(0, SNIPPET_BYTES - read));
          read += chunk.length;
          if (read > MAX_READ_BYTES) {
            // Enough: the status is known and the snippet taken; do not read a large answer to its end.
            finish();
            response.destroy();
          }
        });
        response.on('end', finish);
        response.on('error', (error) => (read > 0 ? finish() : fail(error)));
        response.on('close', () => (settled ? undefined : finish()));
      },
    );
    request.on('error', fail);
    request.end(body);
  });
}

function snippetOf(bytes: Buffer): string {
  // A cut inside a multi-byte character decodes to U+FFFD; NUL cannot be stored in a text column.
  return new TextDecoder('utf-8', { fatal: false }).decode(bytes.subarray(0, SNIPPET_BYTES)).replaceAll('\u0000', '');
}

function describeNetworkError(error: unknown): string {
  if (error instanceof Error) {
    const code = 'code' in error && typeof error.code === 'string' ? error.code : null;
    const text = error.message.replaceAll('\u0000', '').slice(0, 500);
    return code && !text.includes(code) ? `${code}: ${text}` : text;
  }
  return 'the connection failed';
}
