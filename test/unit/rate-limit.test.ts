import assert from 'node:assert/strict';
import { openApiPath } from '../../api/openapi.js';
import { AuthThrottle } from '../../api/auth-throttle.js';
import { ApiError } from '../../api/errors.js';
import {
  type Count,
  RequestTallies,
  SETTLE_MS,
  UNSETTLED_MAX_MS,
  keyLimit,
  windowOf,
  type Window,
} from '../../api/rate-limit.js';

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

/** The shared table of counts, as processes settle with it; `down` makes its settles fail. */
function sharedCounts() {
  const rows = new Map<string, number>();
  const shared = {
    down: false,
    statements: 0,
    row: (projectId: string, windowStart: Date) => rows.get(`${projectId}/${windowStart.getTime()}`) ?? 0,
    settle: (counts: Count[]) => {
      shared.statements++;
      if (shared.down) return Promise.reject(new Error('postgres is down'));
      return Promise.resolve(
        counts.map((c) => {
          const key = `${c.projectId}/${c.windowStart.getTime()}`;
          rows.set(key, (rows.get(key) ?? 0) + c.requests);
          return rows.get(key)!;
        }),
      );
    },
  };
  return shared;
}

describe('hourly counts admitted in the process, settled in the background', () => {
  const hour = new Date('2026-03-10T10:00:00Z');
  const clock = () => {
    const c = { now: 0, read: () => c.now };
    return c;
  };

  it('numbers and refuses in the process, without waiting for a settle', () => {
    const shared = sharedCounts();
    const tallies = new RequestTallies(shared.settle, clock().read);
    const counted = Array.from({ length: 5 }, () => tallies.admit('p', hour, 3));
    assert.deepEqual(counted, [1, 2, 3, 'over_limit', 'over_limit']);
    assert.equal(shared.statements, 0);
    // Another cap on the same count (an admin key's): the refused ones did not count.
    assert.equal(tallies.admit('p', hour, 10), 4);
  });

  it("settles every project's requests in one statement and counts on from the shared total", async () => {
    const shared = sharedCounts();
    const [a, b] = [new RequestTallies(shared.settle, clock().read), new RequestTallies(shared.settle, clock().read)];
    for (let i = 0; i < 3; i++) a.admit('p', hour, 100);
    a.admit('q', hour, 100);
    b.admit('p', hour, 100);
    await a.settle();
    assert.equal(shared.statements, 1);
    assert.deepEqual([shared.row('p', hour), shared.row('q', hour)], [3, 1]);
    await b.settle();
    assert.equal(shared.row('p', hour), 4);
    assert.equal(b.admit('p', hour, 100), 5, "the other process's requests count");
    assert.equal(a.admit('p', hour, 100), 4, 'until its next settle, a process knows only its own');
    assert.equal(a.pending, true);
    await b.settle();
    await a.settle();
    assert.equal(shared.row('p', hour), 6);
    assert.equal(a.pending, false);
    assert.equal(a.admit('p', hour, 100), 7);
  });

  it('counts requests admitted during a settle with those in it, and sends them with the next', async () => {
    const shared = sharedCounts();
    let answer!: () => void;
    const tallies = new RequestTallies(
      (counts) => new Promise((resolve) => (answer = () => resolve(shared.settle(counts)))),
      clock().read,
    );
    tallies.admit('p', hour, 100);
    tallies.admit('p', hour, 100);
    const settling = tallies.settle();
    assert.equal(tallies.admit('p', hour, 100), 3);
    answer();
    await settling;
    assert.equal(tallies.admit('p', hour, 100), 4);
    const next = tallies.settle();
    answer();
    await next;
    assert.equal(shared.row('p', hour), 4);
  });

  it('keeps the requests of a failed settle for the next one, and refuses (503) once they wait too long', async () => {
    const shared = sharedCounts();
    const time = clock();
    const tallies = new RequestTallies(shared.settle, time.read);
    shared.down = true;
    assert.equal(tallies.admit('p', hour, 100), 1);
    for (let t = SETTLE_MS; t <= UNSETTLED_MAX_MS; t += SETTLE_MS) {
      time.now = t;
      assert.equal(tallies.admit('p', hour, 100), t / SETTLE_MS + 1, `admitted at ${t} ms`);
      await tallies.settle();
    }
    time.now = UNSETTLED_MAX_MS + 1;
    assert.equal(tallies.admit('p', hour, 100), 'unsettled');
    assert.equal(tallies.admit('q', hour, 100), 1, 'a project with nothing unsettled is admitted');
    shared.down = false;
    await tallies.settle();
    assert.equal(shared.row('p', hour), UNSETTLED_MAX_MS / SETTLE_MS + 1, 'none lost, none twice');
    assert.equal(tallies.admit('p', hour, 100), UNSETTLED_MAX_MS / SETTLE_MS + 2);
  });

  it('starts a new hour from nothing, whatever the last one left unsettled', async () => {
    const shared = sharedCounts();
    const tallies = new RequestTallies(shared.settle, clock().read);
    tallies.admit('p', hour, 2);
    tallies.admit('p', hour, 2);
    assert.equal(tallies.admit('p', hour, 2), 'over_limit');
    const next = new Date(hour.getTime() + 3_600_000);
    assert.equal(tallies.admit('p', next, 2), 1);
    await tallies.settle();
    assert.deepEqual([shared.row('p', hour), shared.row('p', next)], [0, 1]);
  });

  it('lets processes together past the cap by at most what each admits between two settles', async () => {
    const shared = sharedCounts();
    const processes = Array.from({ length: 3 }, () => new RequestTallies(shared.settle, clock().read));
    const cap = 50;
    const perInterval = 7;
    let admitted = 0;
    for (let interval = 0; interval < 20; interval++) {
      for (const p of processes) {
        for (let i = 0; i < perInterval; i++) if (typeof p.admit('p', hour, cap) === 'number') admitted++;
      }
      for (const p of processes) await p.settle();
    }
    assert.equal(shared.row('p', hour), admitted, 'the shared count holds every admitted request');
    assert.ok(admitted >= cap, `${admitted} admitted`);
    assert.ok(admitted <= cap + processes.length * perInterval, `${admitted} admitted for a cap of ${cap}`);
  });
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
