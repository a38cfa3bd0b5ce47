import dns from 'node:dns';
import net from 'node:net';

/**
 * SSRF guard: webhook URLs and warehouse hosts come from customers, so the service must never
 * connect to its own network (loopback, private, link-local, metadata addresses …) unless the
 * operator allow-listed the host or range (WEBHOOK_ALLOW_HOSTS, WAREHOUSE_ALLOW_HOSTS: host
 * names, IPs or CIDRs).
 */
const PRIVATE = new net.BlockList();
for (const [net4, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  PRIVATE.addSubnet(net4, prefix, 'ipv4');
for (const [net6, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['2002::', 16],
  ['fec0::', 10],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const)
  PRIVATE.addSubnet(net6, prefix, 'ipv6');

export interface TargetPolicy {
  hosts: Set<string>;
  ranges: net.BlockList;
}

export function targetPolicy(allow: string[]): TargetPolicy {
  const hosts = new Set<string>();
  const ranges = new net.BlockList();
  for (const entry of allow) {
    const [address, bits] = entry.split('/');
    const family = net.isIP(address ?? '');
    if (family === 0) hosts.add(entry.toLowerCase());
    else if (bits === undefined) ranges.addAddress(address!, family === 4 ? 'ipv4' : 'ipv6');
    else ranges.addSubnet(address!, Number(bits), family === 4 ? 'ipv4' : 'ipv6');
  }
  return { hosts, ranges };
}

/**
 * An IPv4 address written the IPv6 way (::ffff:10.0.0.1) is judged as the IPv4 address it is.
 * (BlockList also matches IPv4 addresses against IPv4-mapped IPv6 ranges, so ::ffff:0:0/96 must
 * not be listed: it would hold every IPv4 address.)
 */
function unmapped(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return mapped ? mapped[1]! : address;
}

export function isForbiddenAddress(address: string, policy: TargetPolicy): boolean {
  const ip = unmapped(address);
  const type = net.isIPv4(ip) ? 'ipv4' : 'ipv6';
  return PRIVATE.check(ip, type) && !policy.ranges.check(ip, type);
}

/** The host as compared: no IPv6 brackets, no trailing dot of a fully qualified name (localhost.). */
const bareHost = (url: URL) =>
  url.hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();

/**
 * Why this URL may not be a webhook target, judged on its text alone (the API answers 400 with
 * it); undefined when it may. Host names are judged again on every delivery, by address.
 */
export function urlProblem(url: URL, policy: TargetPolicy): { reason: string; message: string } | undefined {
  if (url.protocol !== 'https:') return { reason: 'https_required', message: 'url must be an https:// address.' };
  if (url.username || url.password) {
    return { reason: 'credentials_in_url', message: 'url must not carry credentials.' };
  }
  const host = bareHost(url);
  if (policy.hosts.has(host)) return undefined;
  const forbidden = net.isIP(host)
    ? isForbiddenAddress(host, policy)
    : host === 'localhost' || host.endsWith('.localhost');
  if (forbidden) {
    return {
      reason: 'forbidden_target',
      message: `${host} is a private or loopback address; webhooks go to public endpoints (an operator can allow-list it).`,
    };
  }
  return undefined;
}

export class ForbiddenTargetError extends Error {
  readonly code = 'EFORBIDDENTARGET';
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

/**
 * A dns.lookup for the HTTP client that refuses names resolving to forbidden addresses. The
 * connection then goes to exactly the address checked, so DNS rebinding between check and
 * connect is impossible.
 */
export function guardedLookup(policy: TargetPolicy) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback): void => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, []);
      if (!policy.hosts.has(hostname.toLowerCase())) {
        const bad = addresses.find((a) => isForbiddenAddress(a.address, policy));
        if (bad) {
          return callback(
            new ForbiddenTargetError(`${hostname} resolves to ${bad.address}, a private or loopback address`),
            [],
          );
        }
      }
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

/** Literal IPs never reach a lookup function: the sender checks them with this before connecting. */
export function literalTargetProblem(url: URL, policy: TargetPolicy): string | undefined {
  const host = bareHost(url);
  if (policy.hosts.has(host)) return undefined;
  if (net.isIP(host) && isForbiddenAddress(host, policy)) return `${host} is a private or loopback address`;
  return undefined;
}

/**
 * The address to connect to for `host`: a literal IP as it is, a name resolved once; refused
 * (ForbiddenTargetError) when private or loopback and not allow-listed. Connecting to the
 * returned address, not the name, keeps DNS rebinding out.
 */
export async function resolveTarget(host: string, policy: TargetPolicy): Promise<string> {
  const bare = host
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (net.isIP(bare)) {
    if (!policy.hosts.has(bare) && isForbiddenAddress(bare, policy)) {
      throw new ForbiddenTargetError(`${bare} is a private or loopback address`);
    }
    return bare;
  }
  return new Promise((resolve, reject) =>
    guardedLookup(policy)(bare, { all: false }, (err, address) => (err ? reject(err) : resolve(address as string))),
  );
}
