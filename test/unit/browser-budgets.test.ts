import assert from 'node:assert/strict';
import { LocalWindows, browserBudget } from '../../api/browser-budgets.js';
import { keyLimit } from '../../api/rate-limit.js';

describe('browser keys: budgets', () => {
  it('leaves the server keys at least two fifths of every tier, whatever the browser keys use', () => {
    for (const limit of [1, 3, 10, 1_000, 10_000, 123_457]) {
      const b = browserBudget(limit);
      const server = keyLimit(limit, ['events:write']);
      assert.ok(b.requests <= Math.max(1, limit / 2), `${limit}: ${b.requests}`);
      if (limit >= 10) assert.ok(server - b.requests >= 0.4 * limit, `${limit}: server keeps ${server - b.requests}`);
      assert.ok(b.requestsPerAddress <= b.requests && b.eventsPerAddress <= b.events && b.eventsPerId <= b.events);
    }
  });

  it('gives an address a quarter and an id a tenth, but never less than a visitor needs', () => {
    assert.deepEqual(browserBudget(1_000), {
      requests: 500,
      requestsPerAddress: 125,
      events: 25_000,
      eventsPerAddress: 6_250,
      eventsPerId: 2_500,
    });
    assert.equal(browserBudget(100).requestsPerAddress, 50, 'the whole share of a tiny project');
  });

  it('counts per key within the hour, refuses without counting, and starts again the next hour', () => {
    const hour = 3_600_000;
    const w = new LocalWindows(hour, 3);
    const a = [{ key: 'a', n: 4 }];
    assert.equal(w.over(0, a, 5), undefined);
    w.add(0, a);
    assert.equal(
      w.over(
        10,
        [
          { key: 'b', n: 1 },
          { key: 'a', n: 2 },
        ],
        5,
      ),
      'a',
    );
    assert.equal(w.over(10, [{ key: 'a', n: 1 }], 5), undefined, 'the refusal counted nothing');
    assert.equal(w.over(hour, [{ key: 'a', n: 5 }], 5), undefined, 'a new hour');
    // Bounded: the oldest key goes first.
    w.add(hour, [
      { key: 'x', n: 5 },
      { key: 'y', n: 5 },
      { key: 'z', n: 5 },
      { key: 'w', n: 5 },
    ]);
    assert.equal(w.over(hour, [{ key: 'x', n: 1 }], 5), undefined);
    assert.equal(w.over(hour, [{ key: 'w', n: 1 }], 5), 'w');
  });
});
