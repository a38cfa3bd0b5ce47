/**
 * Longest failure text stored (export errors, webhook attempt errors) or shown: driver and socket
 * errors are a line; anything longer is cut, with a mark that it was.
 */
export const STORED_ERROR_MAX = 1000;

/** `text` cut to `max` characters, the cut said at its end. */
export function boundedError(text: string, max = STORED_ERROR_MAX): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

/** A stored failure text as a tenant reads it: bounded (rows written before the bound), then scrubbed. */
export function publicFailure(text: string): string {
  return withoutAddresses(boundedError(text));
}

// Every pattern below runs in time linear in the text (issue 46: stored texts were scanned by a
// quadratic one on every GET). Each either matches at most a few dozen characters from a start, or
// can start only where a run of its characters starts (a lookbehind refuses the middle of one) and
// then takes the run greedily with one character's lookahead; what a candidate is (an IPv6
// address, a host name) is decided in code on the candidate alone.

/** Bracketed IPv6, with a port or not: at most 47 characters from a `[`. */
const BRACKETED = /\[([0-9a-f:.]{2,45})\](?::\d{1,5})?/gi;
/** Dotted IPv4, with a port or not: bounded. */
const IPV4 = /\b(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?\b/g;
/** A whole run of hex digits, colons and dots (IPv4-mapped tails): an IPv6 address when isIPv6 says so. */
const HEX_RUN = /(?<![\w:.])[0-9a-f:.]+(?![\w:.])/gi;
/** A whole run of host characters followed by :port; a host name when it has a letter and proper labels. */
const HOST_PORT = /(?<![a-z0-9.-])([a-z0-9.-]+):(\d{2,5})(?!\w)/gi;
/** Two or more /segments starting outside a word. */
const PATH = /(?<![\w.<>])(?:\/[\w.@+-]+){2,}\/?/g;

/** Eight groups of 1–4 hex digits, or fewer around one `::`; the last two may be a dotted IPv4. */
export function isIPv6(text: string): boolean {
  if (text.length > 45) return false;
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const groups = halves.flatMap((h) => (h === '' ? [] : h.split(':')));
  let count = 0;
  for (const [i, group] of groups.entries()) {
    if (i === groups.length - 1 && /^(?:\d{1,3}\.){3}\d{1,3}$/.test(group)) count += 2;
    else if (/^[0-9a-f]{1,4}$/i.test(group)) count += 1;
    else return false;
  }
  return halves.length === 2 ? count <= 7 : count === 8;
}

/** An IPv6 run, a sentence's full stop after it left alone. */
function ipv6(match: string): string {
  let end = match.length;
  while (end > 0 && match[end - 1] === '.') end--;
  const candidate = match.slice(0, end);
  return isIPv6(candidate) ? `<address>${match.slice(end)}` : match;
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

function hostPort(match: string, host: string): string {
  // Leading dots and hyphens are not part of the name (".db.internal:5432" keeps its dot).
  const start = host.search(/[a-z0-9]/i);
  const name = start < 0 ? '' : host.slice(start);
  if (name.length > 253 || !/[a-z]/i.test(name) || !name.split('.').every((l) => LABEL.test(l))) return match;
  return `${host.slice(0, start)}<address>`;
}

/**
 * A failure text as a tenant may read it: network addresses (IPv4 and IPv6, host:port) and
 * absolute file paths of the service's machines replaced by placeholders. Driver and socket errors
 * ("connect ECONNREFUSED 10.0.3.7:2525", "ENOENT: …, open '/srv/pi/data/…'") name our internals;
 * the rest of the text (what failed, the error code) stays, and the full text stays in our logs.
 * A host:port needs a letter in the host, so that times (10:15:30) are left alone.
 */
export function withoutAddresses(text: string): string {
  return text
    .replace(BRACKETED, (match, inside: string) => (inside.includes(':') ? '<address>' : match))
    .replace(IPV4, '<address>')
    .replace(HEX_RUN, ipv6)
    .replace(HOST_PORT, hostPort)
    .replace(PATH, '<path>');
}
