import assert from 'node:assert/strict';
import { DEFAULT_ANALYTICS } from '../../domain/analytics-config.js';
import {
  contextQualityFactor,
  contextualSuccessRate,
  discoveryGapScore,
  engagementConversion,
  frictionTrend,
  onTheWire,
  quadrant,
  visibilityRate,
} from '../../domain/metrics.js';

describe('metric formulas', () => {
  it('VR, EC and DGS as the spec defines them, as ratios', () => {
    assert.equal(visibilityRate(30, 120), 0.25);
    assert.equal(visibilityRate(3, 0), 0);
    assert.equal(engagementConversion(5, 20), 0.25);
    // (1 − 0.25) × 0.5 × (12 / 30) = 0.15
    assert.ok(Math.abs(discoveryGapScore(0.25, 0.5, 12) - 0.15) < 1e-12);
    assert.equal(discoveryGapScore(1, 1, 30), 0);
  });

  const q = DEFAULT_ANALYTICS.quadrant;
  const cases: [number, number, string][] = [
    [0.5, 0.5, 'high_visibility_high_usage'],
    [0.49, 0.5, 'low_visibility_high_usage'],
    [0.5, 0.49, 'high_visibility_low_usage'],
    [0, 0, 'low_visibility_low_usage'],
  ];
  for (const [vr, ec, expected] of cases) {
    it(`quadrant(${vr}, ${ec}) = ${expected}`, () => assert.equal(quadrant(vr, ec, q), expected));
  }

  it('CSR clamps the quality factor to [0, 1]', () => {
    assert.equal(contextualSuccessRate(0.8, 0.5), 0.4);
    assert.equal(contextualSuccessRate(0.8, 2), 0.8);
    assert.equal(contextualSuccessRate(0.8, -1), 0);
  });

  it('the context quality factor is 1 with data present, 1 − the Friction Index in an empty state', () => {
    assert.equal(contextQualityFactor('with_data_present', 0.7), 1);
    assert.equal(contextQualityFactor('empty_state', 0.25), 0.75);
    assert.equal(contextQualityFactor('empty_state', 0), 1);
    assert.equal(contextualSuccessRate(0.8, contextQualityFactor('empty_state', 0.5)), 0.4);
  });
});

describe('friction trends', () => {
  const series = (before: number, after: number) =>
    Array.from({ length: 14 }, (_, i) => ({
      date: `2026-11-${String(i + 1).padStart(2, '0')}`,
      friction_index: i < 7 ? before : after,
    }));
  const table: [number, number, { trend: string; percent_change: number; alert_level: string }][] = [
    [0.1, 0.1, { trend: 'stable', percent_change: 0, alert_level: 'none' }],
    [0.1, 0.109, { trend: 'stable', percent_change: 9, alert_level: 'none' }],
    [0.1, 0.11, { trend: 'increasing', percent_change: 10, alert_level: 'info' }],
    [0.1, 0.125, { trend: 'increasing', percent_change: 25, alert_level: 'warning' }],
    [0.4, 0.5, { trend: 'increasing', percent_change: 25, alert_level: 'critical' }],
    [0.2, 0.1, { trend: 'decreasing', percent_change: -50, alert_level: 'none' }],
    [0.5, 0.35, { trend: 'decreasing', percent_change: -30, alert_level: 'warning' }],
    [0, 0.2, { trend: 'increasing', percent_change: 100, alert_level: 'warning' }],
  ];
  for (const [before, after, expected] of table) {
    it(`${before} → ${after}: ${expected.trend}, ${expected.alert_level}`, () => {
      const result = frictionTrend(series(before, after).reverse());
      assert.equal(result.trend, expected.trend);
      assert.equal(result.alert_level, expected.alert_level);
      assert.ok(Math.abs(result.percent_change - expected.percent_change) < 1e-9, String(result.percent_change));
    });
  }

  it('a single week has no trend', () => {
    assert.deepEqual(frictionTrend(series(0.3, 0.3).slice(7)), {
      trend: 'stable',
      percent_change: 0,
      alert_level: 'warning',
    });
    assert.deepEqual(frictionTrend([]), { trend: 'stable', percent_change: 0, alert_level: 'none' });
  });
});

describe('figures on the wire (domain/metrics.ts, onTheWire)', () => {
  it('rounds every figure that is not whole to 9 decimals, at any depth, and leaves customer properties as sent', () => {
    const answer = {
      friction_index: 0.6583333333333333,
      users: 12,
      members: [{ friction_index: 0.1 + 0.2, properties: { mrr: 0.1 + 0.2, nested: { x: 1 / 3 } } }],
      at: '2026-12-05T00:00:00Z',
      none: null,
    };
    assert.deepEqual(onTheWire(answer), {
      friction_index: 0.658333333,
      users: 12,
      members: [{ friction_index: 0.3, properties: { mrr: 0.1 + 0.2, nested: { x: 1 / 3 } } }],
      at: '2026-12-05T00:00:00Z',
      none: null,
    });
    const date = new Date(0);
    assert.equal(onTheWire(date), date, 'what is not a plain object passes as it is');
  });
});
