import assert from 'node:assert/strict';
import { analyticsConfig } from '../../domain/analytics-config.js';
import { type FrictionTotals, frictionIndex, noFriction } from '../../domain/friction/index.js';
import { frictionAlert } from '../../domain/friction/alerts.js';

const NOW = Date.UTC(2026, 10, 20, 12);
const pageDay = { projectId: 'p1', page: '/checkout', day: '2026-11-20', receivedAt: NOW - 1000 };
/** 10 clicks of which `dead` were dead: a Friction Index of 0.25 × dead / 10 with the default weights. */
const totals = (dead: number): FrictionTotals => ({ ...noFriction(), views: 1, clicks: 10, dead_clicks: dead });

describe('friction alerts: when a page day raises one', () => {
  // Thresholds set on the exact index of 4 dead clicks out of 10, so the edge is not a rounding question.
  const atFour = frictionIndex(totals(4), analyticsConfig().weights);
  const config = analyticsConfig({ alerts: { frictionIndex: atFour, minUsersAffected: 3 } });
  const cases: [string, FrictionTotals, number, boolean][] = [
    ['index equal to the threshold, users equal to the minimum', totals(4), 3, true],
    ['index above, users above', totals(9), 50, true],
    ['index just below the threshold', totals(3), 3, false],
    ['one user fewer than the minimum', totals(4), 2, false],
    ['no friction at all', totals(0), 100, false],
  ];
  for (const [name, facts, users, fires] of cases) {
    it(name, () => {
      const alert = frictionAlert(pageDay, facts, users, config, NOW);
      assert.equal(alert !== null, fires);
      if (alert) {
        assert.equal(alert.index, frictionIndex(facts, config.weights));
        assert.equal(alert.users, users);
      }
    });
  }

  it('is news: events received more than alerts.maxReceiptAgeMs ago (a replay) raise none', () => {
    const day = 24 * 60 * 60_000;
    const fires = (receivedAt: number, maxReceiptAgeMs?: number) =>
      frictionAlert(
        { ...pageDay, receivedAt },
        totals(9),
        5,
        analyticsConfig({ alerts: { frictionIndex: 0.1, minUsersAffected: 1, maxReceiptAgeMs } }),
        NOW,
      ) !== null;
    assert.equal(fires(NOW - day), true, 'exactly the default 24 h ago');
    assert.equal(fires(NOW - day - 1), false, '1 ms more');
    assert.equal(fires(NOW - 3 * day, 7 * day), true, 'a project allowing a week');
    assert.equal(fires(NOW + 5000), true, 'received after "now" (clock skew)');
  });

  it('uses the project’s weights', () => {
    const deadHeavy = analyticsConfig({
      weights: { dead_click: 1, rage_click: 0, loop: 0, backtrack: 0, idle: 0 },
      alerts: { frictionIndex: 0.4, minUsersAffected: 1 },
    });
    assert.equal(frictionAlert(pageDay, totals(4), 1, deadHeavy, NOW)?.index, 0.4);
    assert.equal(frictionAlert(pageDay, totals(4), 1, analyticsConfig({ alerts: { minUsersAffected: 1 } }), NOW), null);
  });

  it('has one id per project, page and day', () => {
    const config1 = analyticsConfig({ alerts: { frictionIndex: 0, minUsersAffected: 0 } });
    const id = (pd: typeof pageDay) => frictionAlert(pd, totals(1), 1, config1, NOW)!.alertId;
    assert.equal(id(pageDay), id({ ...pageDay }));
    const others = [
      { ...pageDay, projectId: 'p2' },
      { ...pageDay, page: '/cart' },
      { ...pageDay, day: '2026-11-21' },
    ].map(id);
    assert.equal(new Set([id(pageDay), ...others]).size, 4);
    assert.match(id(pageDay), /^fa_[0-9a-f]{20}$/);
  });
});
