import assert from 'node:assert/strict';
import { withoutAddresses } from '../../domain/addresses.js';

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
    ['', ''],
  ];
  for (const [text, expected] of cases) {
    it(JSON.stringify(text), () => assert.equal(withoutAddresses(text), expected));
  }
});
