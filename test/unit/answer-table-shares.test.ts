import assert from 'node:assert/strict';
import { analyticsConfig } from '../../domain/analytics-config.js';
import { sessionContribution } from '../../domain/contribution/session.js';
import type { AnalyticsEvent } from '../../domain/event.js';
import { splitSessions } from '../../domain/session.js';
import { featuresWithNewFirsts, grownSessions } from '../../domain/contribution/growth.js';
import { sharesUnmoved } from '../../store/answer-tables.js';
import { userEvent } from './user-events.js';
import { ANSWER_TABLES } from '../../store/tables.js';

const T = Date.UTC(2026, 10, 2, 10);
const config = analyticsConfig();

const ev = (id: string, at: number, event: string, properties: Record<string, unknown> = {}) =>
  userEvent(id, T + at, event, properties);

/** The contributions of the sessions `events` form. */
const contributions = (events: AnalyticsEvent[]) =>
  splitSessions(events, config.session.gapMs, config.session.maxMs).map((s) => sessionContribution(s, config));

/** The sessions `before` form, grown by `added` (null: not only grown). */
const grown = (before: AnalyticsEvent[], added: AnalyticsEvent[]) =>
  grownSessions(contributions(before), contributions([...before, ...added]));

/** What growing a session from `before` to `before` + `added` leaves unmoved. */
const unmoved = (before: AnalyticsEvent[], added: AnalyticsEvent[]) => [...sharesUnmoved(grown(before, added))].sort();

const session = [
  ev('pv', 0, 'page_view', { page: '/reports' }),
  ev('imp', 2_000, 'feature_impression', { feature: 'export' }),
  ev('use', 4_000, 'feature_used', { feature: 'export', source: 'browsing' }),
];

describe('answer tables a growing session leaves alone (store/answer-tables.ts, sharesUnmoved)', () => {
  it('another impression of a feature already used moves only the segments’ sums of feature facts', () => {
    assert.deepEqual(
      unmoved(session, [ev('imp2', 6_000, 'feature_impression', { feature: 'export' })]),
      ANSWER_TABLES.filter((t) => t !== 'segment_feature_daily').sort(),
    );
  });

  it('a feature new to the session moves reach, tenure and discovery', () => {
    assert.deepEqual(unmoved(session, [ev('imp2', 6_000, 'feature_impression', { feature: 'share' })]), [
      'friction_element_reach',
      'friction_page_reach',
      'segment_daily',
      'user_reach',
    ]);
  });

  it('a first use of a feature the session only saw moves reach and discovery, not tenure', () => {
    const seen = session.slice(0, 2);
    assert.deepEqual(unmoved(seen, [ev('use2', 6_000, 'feature_used', { feature: 'export' })]), [
      'friction_element_reach',
      'friction_page_reach',
      'segment_daily',
      'tenure_sessions',
      'user_reach',
    ]);
  });

  it('a rage burst on an element moves the friction reach of its page and element', () => {
    const clicks = [0, 300, 600].map((at, i) => ev(`c${i}`, 6_000 + at, 'click', { element: '#pay' }));
    const left = unmoved(session, clicks);
    assert.ok(!left.includes('friction_page_reach') && !left.includes('friction_element_reach'), left.join());
    assert.ok(left.includes('feature_reach') && left.includes('user_reach'), left.join());
  });

  it('an event before the session’s start, a new session or a session gone moves every table', () => {
    assert.deepEqual(unmoved(session, [ev('early', -1_000, 'feature_impression', { feature: 'export' })]), []);
    assert.deepEqual(
      unmoved(session, [ev('later', config.session.gapMs + 10_000, 'page_view', { page: '/reports' })]),
      [],
    );
    assert.equal(grownSessions(contributions(session), []), null);
    assert.equal(grownSessions([], contributions(session)), null);
    assert.deepEqual([...sharesUnmoved(null)], []);
  });
});

describe('features whose firsts a grown session moves (domain/contribution/growth.ts)', () => {
  it('names the features new to the session or first used now, not those seen or used again', () => {
    const added = [
      ev('imp2', 6_000, 'feature_impression', { feature: 'export' }),
      ev('imp3', 7_000, 'feature_impression', { feature: 'share' }),
    ];
    assert.deepEqual([...featuresWithNewFirsts(grown(session, added)!)], ['share']);
    const seen = session.slice(0, 2);
    assert.deepEqual([...featuresWithNewFirsts(grown(seen, [session[2]!])!)], ['export']);
  });

  it('names a feature the session no longer has', () => {
    const c = contributions(session)[0]!;
    const without = { ...c, features: [] };
    assert.deepEqual([...featuresWithNewFirsts([[c, without]])], ['export']);
  });
});
