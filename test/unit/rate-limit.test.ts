import assert from 'node:assert/strict';
import { openApiPath } from '../../api/openapi.js';
import type { IncomingMessage } from 'node:http';
import { AuthThrottle, clientAddress } from '../../api/auth-throttle.js';
import { ApiError } from '../../api/errors.js';
import { keyLimit, windowOf, type Window } from '../../api/rate-limit.js';

describe('rate limit windows', () => {
  const cases: [string, string, number, number, Window][] = [
    [
      'mid-hour',
      '2026-03-10T10:30:00.000Z',
      1000,
      1,
      { limit: 1000, remaining: 999, reset: Date.parse('2026-03-10T11:00:00Z') / 1000 },
    ],
    [
      'exactly on the hour starts a new window',
      '2026-03-10T10:00:00.000Z',
      1000,
      1,
      { limit: 1000, remaining: 999, reset: Date.parse('2026-03-10T11:00:00Z') / 1000 },
    ],
    [
      'last millisecond of the hour',
      '2026-03-10T10:59:59.999Z',
      100,
      40,
      { limit: 100, remaining: 60, reset: Date.parse('2026-03-10T11:00:00Z') / 1000 },
    ],
    [
      'crosses midnight',
      '2026-12-31T23:15:00.000Z',
      10,
      3,
      { limit: 10, remaining: 7, reset: Date.parse('2027-01-01T00:00:00Z') / 1000 },
    ],
    [
      'used equals limit',
      '2026-03-10T10:30:00.000Z',
      5,
      5,
      { limit: 5, remaining: 0, reset: Date.parse('2026-03-10T11:00:00Z') / 1000 },
    ],
    [
      'used beyond limit never goes negative',
      '2026-03-10T10:30:00.000Z',
      5,
      9,
      { limit: 5, remaining: 0, reset: Date.parse('2026-03-10T11:00:00Z') / 1000 },
    ],
    [
      'nothing used yet',
      '2026-03-10T10:30:00.000Z',
      5,
      0,
      { limit: 5, remaining: 5, reset: Date.parse('2026-03-10T11:00:00Z') / 1000 },
    ],
    [
      'half-hour offset timezone is still aligned to the UTC clock hour',
      '2026-03-10T16:10:00.000+05:30',
      60,
      1,
      { limit: 60, remaining: 59, reset: Date.parse('2026-03-10T11:00:00Z') / 1000 },
    ],
  ];
  for (const [label, now, limit, used, expected] of cases) {
    it(`${label} (${now}, ${used}/${limit})`, () => {
      assert.deepEqual(windowOf(Date.parse(now), limit, used), expected);
    });
  }

  it('reports reset as whole Unix seconds', () => {
    const window = windowOf(Date.parse('2026-03-10T10:30:12.345Z'), 1, 0);
    assert.equal(window.reset, 1773140400);
    assert.ok(Number.isInteger(window.reset));
  });

  it('gives every instant of one hour the same reset, and the next hour the next one', () => {
    const start = Date.parse('2026-03-10T10:00:00Z');
    const resets = [0, 1, 59 * 60_000, 3_600_000 - 1].map((offset) => windowOf(start + offset, 1, 0).reset);
    assert.deepEqual(resets, [1773140400, 1773140400, 1773140400, 1773140400]);
    assert.equal(windowOf(start + 3_600_000, 1, 0).reset, 1773140400 + 3600);
  });
});

describe("a key's share of its project's hour", () => {
  const cases: [number, string[], number][] = [
    [1000, ['admin'], 1000],
    [1000, ['admin', 'events:write'], 1000],
    [1000, ['events:write'], 900],
    [1000, ['analytics:read'], 900],
    [10_000, ['events:write'], 9000],
    [10, ['events:write'], 9],
    [5, ['events:write'], 4],
    [2, ['events:write'], 1],
    [1, ['events:write'], 1],
  ];
  for (const [limit, scopes, expected] of cases) {
    it(`${limit}/h, ${scopes.join('+')} → ${expected}`, () => assert.equal(keyLimit(limit, scopes), expected));
  }
});

describe('failed authentication throttle', () => {
  const minute = Date.parse('2026-03-10T10:30:00.000Z');
  const refused = (throttle: AuthThrottle, address: string, now: number) => {
    try {
      throttle.check(address, now);
      return undefined;
    } catch (err) {
      assert.ok(err instanceof ApiError);
      return { status: err.status, retryAfter: err.headers['Retry-After'] };
    }
  };

  it('refuses an address after its failures of the minute, others not, and forgets them the next minute', () => {
    const throttle = new AuthThrottle(3);
    for (let i = 0; i < 3; i++) {
      assert.equal(refused(throttle, '203.0.113.7', minute + i), undefined);
      throttle.failed('203.0.113.7', minute + i);
    }
    assert.deepEqual(refused(throttle, '203.0.113.7', minute + 15_000), { status: 429, retryAfter: '45' });
    assert.equal(refused(throttle, '203.0.113.8', minute + 15_000), undefined);
    assert.equal(refused(throttle, '203.0.113.7', minute + 60_000), undefined);
  });
});

describe('the client address a throttle counts', () => {
  const request = (forwarded: string | undefined, peer = '10.1.2.3') =>
    ({
      headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
      socket: { remoteAddress: peer },
    }) as unknown as IncomingMessage;
  const cases: [string | undefined, string][] = [
    [undefined, '10.1.2.3'],
    ['203.0.113.7', '203.0.113.7'],
    // What the client wrote comes first; the nearest proxy appends what it saw.
    ['1.1.1.1, 203.0.113.7', '203.0.113.7'],
    ['1.1.1.1,203.0.113.7 ', '203.0.113.7'],
    ['', '10.1.2.3'],
  ];
  for (const [forwarded, expected] of cases) {
    it(`${JSON.stringify(forwarded)} → ${expected}`, () => assert.equal(clientAddress(request(forwarded)), expected));
  }
});

describe('openApiPath', () => {
  const cases: [string, string][] = [
    ['/jobs/:job_id', '/jobs/{job_id}'],
    ['/jobs', '/jobs'],
    ['/', '/'],
    ['/jobs/:job_id/runs/:run_id', '/jobs/{job_id}/runs/{run_id}'],
    ['/users/:userId/events', '/users/{userId}/events'],
    ['/cohorts/:id2', '/cohorts/{id2}'],
  ];
  for (const [koaPath, expected] of cases) {
    it(`${koaPath} → ${expected}`, () => {
      assert.equal(openApiPath(koaPath), expected);
    });
  }
});
