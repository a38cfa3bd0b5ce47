import type { IncomingMessage } from 'node:http';
import net from 'node:net';
import type { TrustedProxies } from '../lib/config.js';

/**
 * Who may say, in `X-Forwarded-For`, which address a request came from (PI_TRUSTED_PROXIES).
 * Default none: the socket's peer is the client, whatever the header says, so that a client
 * cannot choose the address that per-address limits (auth throttle, console sign-in) count.
 */
export type ProxyTrust = { hops: number } | { proxies: net.BlockList };

export function proxyTrust(setting: TrustedProxies): ProxyTrust {
  if ('hops' in setting) return { hops: setting.hops };
  const proxies = new net.BlockList();
  for (const entry of setting.addresses) {
    const [ip = '', bits] = entry.split('/');
    const family = net.isIPv6(ip) ? 'ipv6' : 'ipv4';
    if (bits === undefined) proxies.addAddress(ip, family);
    else proxies.addSubnet(ip, Number(bits), family);
  }
  return { proxies };
}

export const NO_PROXIES: ProxyTrust = { hops: 0 };

/** An IPv4 client of a dual-stack socket is reported as ::ffff:a.b.c.d; limits count a.b.c.d. */
function bare(address: string): string {
  return /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address;
}

function trusted(proxies: net.BlockList, address: string): boolean {
  const family = net.isIP(address);
  return family !== 0 && proxies.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

/**
 * The address of the request's client. The hops from the API outwards are the socket's peer, then
 * the `X-Forwarded-For` entries from last to first (each appended by the proxy that saw it). With a
 * hop count n, the n-th hop is the client (the first entry when there are fewer). With a list, the
 * walk stops at the first hop that is not a trusted proxy: every entry it reads was written by a
 * trusted one, and what a client wrote itself, in front of the entries, is never reached.
 */
export function clientAddress(req: IncomingMessage, trust: ProxyTrust): string {
  const peer = bare(req.socket.remoteAddress ?? '');
  if ('hops' in trust && trust.hops === 0) return peer;
  const header = req.headers['x-forwarded-for'];
  const forwarded = (Array.isArray(header) ? header.join(',') : (header ?? ''))
    .split(',')
    .map((a) => bare(a.trim()))
    .filter(Boolean);
  const hops = [peer, ...forwarded.reverse()];
  if ('hops' in trust) return hops[Math.min(trust.hops, hops.length - 1)]!;
  let i = 0;
  while (i < hops.length - 1 && trusted(trust.proxies, hops[i]!)) i++;
  return hops[i]!;
}
