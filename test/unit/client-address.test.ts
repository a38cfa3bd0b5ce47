import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { clientAddress, proxyTrust } from '../../api/client-address.js';
import { loadConfig } from '../../lib/config.js';

const request = (forwarded: string | undefined, peer: string) =>
  ({
    headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
    socket: { remoteAddress: peer },
  }) as unknown as IncomingMessage;

describe('the client address per-address limits count (PI_TRUSTED_PROXIES)', () => {
  // [setting, X-Forwarded-For, socket peer, client address]
  const cases: [string, string | undefined, string, string][] = [
    // Default none: whatever a client writes in the header, its own socket address counts.
    ['', '203.0.113.7', '198.51.100.9', '198.51.100.9'],
    ['', '1.1.1.1, 203.0.113.7', '198.51.100.9', '198.51.100.9'],
    ['', undefined, '::ffff:198.51.100.9', '198.51.100.9'],
    // A hop count: the n-th hop from the API, the first entry when there are fewer.
    ['1', '1.1.1.1, 203.0.113.7', '10.0.0.2', '203.0.113.7'],
    ['2', '1.1.1.1, 203.0.113.7, 10.0.0.3', '10.0.0.2', '203.0.113.7'],
    ['3', '203.0.113.7', '10.0.0.2', '203.0.113.7'],
    ['1', undefined, '10.0.0.2', '10.0.0.2'],
    // A list: entries are read while the hop that wrote them is a trusted proxy.
    ['10.0.0.0/8', '1.1.1.1, 203.0.113.7', '10.0.0.2', '203.0.113.7'],
    ['10.0.0.0/8', '1.1.1.1, 203.0.113.7, 10.0.0.3', '10.0.0.2', '203.0.113.7'],
    ['10.0.0.0/8', '10.9.9.9', '10.0.0.2', '10.9.9.9'],
    // A peer outside the list is the client, even when it sends the header.
    ['10.0.0.0/8', '10.0.0.5', '198.51.100.9', '198.51.100.9'],
    ['::1, 127.0.0.1', '203.0.113.7', '::1', '203.0.113.7'],
    ['::1, 127.0.0.1', '203.0.113.7', '::ffff:127.0.0.1', '203.0.113.7'],
    ['fd00::/8', '2001:db8::1', 'fd00::2', '2001:db8::1'],
  ];
  for (const [setting, forwarded, peer, expected] of cases) {
    it(`${JSON.stringify(setting)}: ${JSON.stringify(forwarded)} from ${peer} → ${expected}`, () => {
      const trust = proxyTrust(loadConfig({ PI_TRUSTED_PROXIES: setting }).trustedProxies);
      assert.equal(clientAddress(request(forwarded, peer), trust), expected);
    });
  }

  it('refuses a setting that is neither addresses, ranges nor a hop count', () => {
    assert.throws(
      () => loadConfig({ PI_TRUSTED_PROXIES: '10.0.0.0/33, proxy.internal, 17' }),
      (err: Error) => /10\.0\.0\.0\/33/.test(err.message) && /proxy\.internal/.test(err.message),
    );
    assert.throws(() => loadConfig({ PI_TRUSTED_PROXIES: '99' }), /hop count is at most 16/);
  });
});
