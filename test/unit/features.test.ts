import assert from 'node:assert/strict';
import { DEFAULT_ANALYTICS, analyticsConfig } from '../../domain/analytics-config.js';
import type { AnalyticsEvent } from '../../domain/event.js';
import { classifyDiscovery, sessionFeatures } from '../../domain/features/facts.js';
import { splitSessions } from '../../domain/session.js';

let offset = 0;
const ev = (t: number, event: string, properties: Record<string, unknown>): AnalyticsEvent => ({
  message_id: `m${offset}`,
  user_id: 'u',
  event,
  timestamp: t,
  received_at: t,
  offset: offset++,
  properties,
});

const facts = (events: AnalyticsEvent[]) => {
  const [session] = splitSessions(events, DEFAULT_ANALYTICS.session.gapMs, DEFAULT_ANALYTICS.session.maxMs);
  return sessionFeatures(session!, analyticsConfig());
};

describe('feature usage facts of a session', () => {
  it('counts impressions, uses, empty states (either flag) and data volume', () => {
    const [f] = facts([
      ev(0, 'feature_impression', { feature: 'export', ui_context: { empty_state: true } }),
      ev(1, 'feature_impression', { feature: 'export', ui_context: { data_present: false } }),
      ev(2, 'feature_impression', { feature: 'export', ui_context: { data_present: true } }),
      ev(3, 'feature_used', { feature: 'export', ui_context: { data_volume: 4 } }),
      ev(4, 'feature_used', { feature: 'export', ui_context: { data_volume: 6 } }),
      ev(5, 'feature_used', { feature: 'export' }),
    ]);
    assert.deepEqual(f, {
      feature: 'export',
      impressions: 3,
      uses: 3,
      empty_state_impressions: 2,
      data_volume_sum: 10,
      data_volume_n: 2,
      first_seen_at: 0,
      first_used_at: 3,
      first_use_source: 'browsing',
    });
  });

  it('a feature used without an impression was seen at its first use; events without a feature are ignored', () => {
    const out = facts([ev(0, 'feature_used', { feature: 'share' }), ev(1, 'feature_used', {})]);
    assert.deepEqual(
      out.map((f) => [f.feature, f.first_seen_at, f.first_used_at]),
      [['share', 0, 0]],
    );
  });

  it('classifies how a feature was discovered', () => {
    const use = (source?: string) => ev(0, 'feature_used', source ? { feature: 'x', source } : { feature: 'x' });
    assert.equal(classifyDiscovery(use('hint'), 0), 'recommendation');
    assert.equal(classifyDiscovery(use('Docs'), 0), 'documentation');
    assert.equal(classifyDiscovery(use('command_palette'), 0), 'power_user_exploration');
    assert.equal(classifyDiscovery(use(), 5), 'power_user_exploration');
    assert.equal(classifyDiscovery(use(), 4), 'browsing');
  });
});
