import assert from 'node:assert/strict';
import net from 'node:net';
import { STORED_ERROR_MAX, boundedError, isIPv6, withoutAddresses } from '../../domain/addresses.js';

describe('failure texts without internal addresses', () => {
  const cases: [string, string][] = [
    ['connect ECONNREFUSED 127.0.0.1:2525', 'connect ECONNREFUSED <address>'],
    ['connect ETIMEDOUT 10.0.3.7', 'connect ETIMEDOUT <address>'],
    ['connect ECONNREFUSED ::1:5432', 'connect ECONNREFUSED <address>'],
    ['connect ECONNREFUSED [::1]:5432', 'connect ECONNREFUSED <address>'],
    ['connect EHOSTUNREACH fe80::1c2:3ff:fe4d:5', 'connect EHOSTUNREACH <address>'],
    ['getaddrinfo ENOTFOUND smtp.internal.example', 'getaddrinfo ENOTFOUND smtp.internal.example'],
    ['connect to smtp.internal:25 failed', 'connect to <address> failed'],
    ['connection to localhost:5433 refused', 'connection to <address> refused'],
    [
      "ENOENT: no such file or directory, open '/srv/pi/data/duckdb/p1/x.duckdb'",
      "ENOENT: no such file or directory, open '<path>'",
    ],
    ['Invalid login: 535 5.7.8 Authentication failed', 'Invalid login: 535 5.7.8 Authentication failed'],
    ['timed out after 10:15:30', 'timed out after 10:15:30'],
    ['relation "warehouse_events" does not exist', 'relation "warehouse_events" does not exist'],
    ['connect EHOSTUNREACH fe80::1c2:3ff:fe4d:5.', 'connect EHOSTUNREACH <address>.'],
    [
      'api.example.com resolves to 10.1.2.3, a private or loopback address',
      'api.example.com resolves to <address>, a private or loopback address',
    ],
    [
      'internal.example resolves to fd00::5, a private or loopback address',
      'internal.example resolves to <address>, a private or loopback address',
    ],
    ['connect to .db.internal:5432 failed', 'connect to .<address> failed'],
    ['', ''],
  ];
  for (const [text, expected] of cases) {
    it(JSON.stringify(text), () => assert.equal(withoutAddresses(text), expected));
  }
});

describe('failure texts: linear in their length, and bounded when stored', () => {
  // Each of these took seconds at 20,000 characters with the patterns of before (quadratic).
  const hostile: [string, string][] = [
    ['dotted labels', `${'a.'.repeat(50_000)}!`],
    ['a bracket of colons', `[${':'.repeat(50_000)}`],
    ['hyphenated labels before a colon', `${'a-'.repeat(50_000)}:`],
    ['labels and hyphens before a port', `${'a.b-'.repeat(25_000)}:1`],
    ['hex groups', `${'0:'.repeat(50_000)}x`],
    ['path segments', `${'/a'.repeat(50_000)} `],
  ];
  for (const [name, text] of hostile) {
    it(`${name}: ${text.length} characters in under a second`, () => {
      const start = performance.now();
      withoutAddresses(text);
      const ms = performance.now() - start;
      assert.ok(ms < 1000, `${Math.round(ms)} ms`);
    });
  }

  it('tells IPv6 addresses as node:net does', () => {
    const texts = [
      '::',
      '::1',
      'fe80::1c2:3ff:fe4d:5',
      '1:2:3:4:5:6:7:8',
      '1:2:3:4:5:6:7:8:9',
      '1::2::3',
      ':::',
      '::ffff:10.1.2.3',
      '1::',
      '1:2:3:4:5:6:7::',
      '1::2:',
      'abcde::1',
      '10:15:30',
      'dead',
      'cafe::beef',
      '::1.2.3',
    ];
    for (const text of texts) assert.equal(isIPv6(text), net.isIPv6(text), text);
  });

  it('cuts a stored text to the bound and says so', () => {
    assert.equal(boundedError('short'), 'short');
    const cut = boundedError('x'.repeat(100_000));
    assert.equal(cut.length, STORED_ERROR_MAX);
    assert.ok(cut.endsWith('…'));
  });
});
