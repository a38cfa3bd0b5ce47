/**
 * A failure text as a tenant may read it: network addresses (IPv4 and IPv6, host:port) and
 * absolute file paths of the service's machines replaced by placeholders. Driver and socket errors
 * ("connect ECONNREFUSED 10.0.3.7:2525", "ENOENT: …, open '/srv/pi/data/…'") name our internals;
 * the rest of the text (what failed, the error code) stays, and the full text stays in our logs.
 * A host:port needs a letter in the host, so that times (10:15:30) are left alone.
 */
export function withoutAddresses(text: string): string {
  return text
    .replace(/\[[0-9a-f:.]*:[0-9a-f:.]*\](?::\d{1,5})?/gi, '<address>')
    .replace(/\b(?:\d{1,3}\.){3}\d{1,3}(?::\d{1,5})?\b/g, '<address>')
    .replace(/(?<![\w:])(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}(?![\w:])/gi, '<address>')
    .replace(
      /(?<![\w:])(?:[0-9a-f]{1,4}(?::[0-9a-f]{1,4})*)?::(?:[0-9a-f]{1,4}(?::[0-9a-f]{1,4})*)?(?![\w:])/gi,
      '<address>',
    )
    .replace(
      /\b(?=[a-z0-9.-]*[a-z])[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*:\d{2,5}\b/gi,
      '<address>',
    )
    .replace(/(?<![\w.<>])(?:\/[\w.@+-]+){2,}\/?/g, '<path>');
}
