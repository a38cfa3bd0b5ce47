import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fc from 'fast-check';
import type { AnalyticsEvent } from '../../domain/event.js';
import { DEFAULT_ANALYTICS, analyticsConfig } from '../../domain/analytics-config.js';
import { sessionId, splitSessions } from '../../domain/session.js';

const MIN = 60_000;
const HOUR = 60 * MIN;

let arrival = 0;
/** An event of user u1; `offset` defaults to arrival order (the order the factory is called in). */
function ev(id: string, timestamp: number, over: Partial<AnalyticsEvent> = {}): AnalyticsEvent {
  return {
    message_id: id,
    user_id: 'u1',
    event: 'page_view',
    timestamp,
    received_at: timestamp + 50,
    offset: arrival++,
    properties: { page: '/home' },
    ...over,
  };
}

/** Events named e<index>, one per timestamp, in arrival order. */
const series = (times: number[]) => times.map((t, i) => ev(`e${i}`, t));
/** The message ids of each session. */
const groups = (sessions: { events: AnalyticsEvent[] }[]) => sessions.map((s) => s.events.map((e) => e.message_id));
const expectedId = (user: string, first: string) =>
  `s_${crypto.createHash('sha256').update(`${user}\u0000${first}`).digest('hex').slice(0, 24)}`;

describe('sessionize: splitSessions', () => {
  describe('gap and max thresholds (gapMs 1000, maxMs 5000)', () => {
    const cases: [string, number[], string[][]][] = [
      ['no events, no sessions', [], []],
      ['a single event is a session', [0], [['e0']]],
      ['gap gapMs-1 → same session', [0, 999], [['e0', 'e1']]],
      ['gap exactly gapMs → new session', [0, 1000], [['e0'], ['e1']]],
      ['gap gapMs+1 → new session', [0, 1001], [['e0'], ['e1']]],
      ['the gap is measured from the previous event, not the first', [0, 900, 1800, 2700], [['e0', 'e1', 'e2', 'e3']]],
      ['zero gap (same instant) → same session', [0, 0, 0], [['e0', 'e1', 'e2']]],
      [
        'span exactly maxMs → not cut',
        [0, 900, 1800, 2700, 3600, 4500, 5000],
        [['e0', 'e1', 'e2', 'e3', 'e4', 'e5', 'e6']],
      ],
      [
        'span maxMs+1 → cut before the event that would exceed it',
        [0, 900, 1800, 2700, 3600, 4500, 5001],
        [['e0', 'e1', 'e2', 'e3', 'e4', 'e5'], ['e6']],
      ],
      [
        'after a cut, maxMs counts from the new start',
        [0, 900, 1800, 2700, 3600, 4500, 5001, 5900, 6800, 7700, 8600, 9500, 10001, 10002],
        [['e0', 'e1', 'e2', 'e3', 'e4', 'e5'], ['e6', 'e7', 'e8', 'e9', 'e10', 'e11', 'e12'], ['e13']],
      ],
      [
        'gaps of gapMs-1 and gapMs mixed',
        [0, 999, 1998, 2998, 3997],
        [
          ['e0', 'e1', 'e2'],
          ['e3', 'e4'],
        ],
      ],
    ];
    for (const [name, times, expected] of cases) {
      it(name, () => {
        const sessions = splitSessions(series(times), 1000, 5000);
        assert.deepEqual(groups(sessions), expected);
      });
    }
  });

  describe('default thresholds (30 min gap, 24 h max)', () => {
    const { gapMs, maxMs } = DEFAULT_ANALYTICS.session;
    const steady = (stepMs: number, until: number) => {
      const times: number[] = [];
      for (let t = 0; t <= until; t += stepMs) times.push(t);
      return times;
    };
    const cases: [string, number[], number[]][] = [
      ['29:59.999 apart → one session', [0, 30 * MIN - 1], [2]],
      ['30:00.000 apart → two sessions', [0, 30 * MIN], [1, 1]],
      ['every 20 min for exactly 24 h → one session', steady(20 * MIN, 24 * HOUR), [73]],
      ['every 20 min for 24 h, then 1 ms later → cut', [...steady(20 * MIN, 24 * HOUR), 24 * HOUR + 1], [73, 1]],
      ['every 29 min for 25 h → cut once at the 24 h mark', steady(29 * MIN, 25 * HOUR), [50, 2]],
    ];
    for (const [name, times, sizes] of cases) {
      it(name, () => {
        const sessions = splitSessions(series(times), gapMs, maxMs);
        assert.deepEqual(
          sessions.map((s) => s.events.length),
          sizes,
        );
      });
    }
  });

  it('reports user, start and end of each session', () => {
    const events = series([1000, 2000, 3000, 4_000_000, 4_000_500]);
    const sessions = splitSessions(events, 30 * MIN, 24 * HOUR);
    assert.deepEqual(
      sessions.map((s) => [s.user_id, s.started_at, s.ended_at, s.session_id]),
      [
        ['u1', 1000, 3000, expectedId('u1', 'e0')],
        ['u1', 4_000_000, 4_000_500, expectedId('u1', 'e3')],
      ],
    );
  });

  describe('timestamp ties keep arrival (offset) order', () => {
    const cases: [string, AnalyticsEvent[], string[]][] = [
      [
        'given in offset order',
        [ev('a', 100, { offset: 1 }), ev('b', 100, { offset: 2 }), ev('c', 100, { offset: 3 })],
        ['a', 'b', 'c'],
      ],
      [
        'given in reverse offset order',
        [ev('c', 100, { offset: 3 }), ev('b', 100, { offset: 2 }), ev('a', 100, { offset: 1 })],
        ['a', 'b', 'c'],
      ],
      [
        'timestamp wins over offset',
        [ev('late-arrival', 50, { offset: 9 }), ev('x', 100, { offset: 1 }), ev('y', 100, { offset: 2 })],
        ['late-arrival', 'x', 'y'],
      ],
      [
        'ties amid other events',
        [
          ev('t2', 200, { offset: 7 }),
          ev('first', 0, { offset: 10 }),
          ev('t1', 200, { offset: 4 }),
          ev('last', 300, { offset: 1 }),
        ],
        ['first', 't1', 't2', 'last'],
      ],
    ];
    for (const [name, events, order] of cases) {
      it(name, () => {
        const sessions = splitSessions(events, 1000, 5000);
        assert.deepEqual(groups(sessions), [order]);
        assert.equal(sessions[0]!.session_id, expectedId('u1', order[0]!));
      });
    }
  });

  describe('out-of-order input gives the sessions of sorted input', () => {
    // 30 min gap; the late event arrives last (highest offset) but carries an earlier timestamp.
    const cases: [string, number[], number, string[][]][] = [
      [
        'a late event lands in the earlier of two sessions',
        [0, 10 * MIN, 60 * MIN, 70 * MIN],
        5 * MIN,
        [
          ['e0', 'late', 'e1'],
          ['e2', 'e3'],
        ],
      ],
      [
        'a late event lands in the later of two sessions',
        [0, 10 * MIN, 60 * MIN, 70 * MIN],
        65 * MIN,
        [
          ['e0', 'e1'],
          ['e2', 'late', 'e3'],
        ],
      ],
      [
        'a late event bridges two sessions into one',
        [0, 10 * MIN, 50 * MIN, 60 * MIN],
        30 * MIN,
        [['e0', 'e1', 'late', 'e2', 'e3']],
      ],
      ['a late event too far from both is a session of its own', [0, 100 * MIN], 50 * MIN, [['e0'], ['late'], ['e1']]],
      [
        'a late event before the first one becomes the session start',
        [40 * MIN, 50 * MIN],
        20 * MIN,
        [['late', 'e0', 'e1']],
      ],
    ];
    for (const [name, times, lateAt, expected] of cases) {
      it(name, () => {
        const onTime = series(times);
        const late = ev('late', lateAt, { offset: 1_000_000 });
        const arrived = splitSessions([...onTime, late], 30 * MIN, 24 * HOUR);
        const sorted = splitSessions(
          [...onTime, late].sort((a, b) => a.timestamp - b.timestamp),
          30 * MIN,
          24 * HOUR,
        );
        assert.deepEqual(groups(arrived), expected);
        assert.deepEqual(arrived, sorted);
        assert.deepEqual(
          arrived.map((s) => s.session_id),
          expected.map((g) => expectedId('u1', g[0]!)),
        );
      });
    }

    it('any permutation of the input gives identical sessions (property)', () => {
      const times = [0, 5, 5, 17, 40, 60, 80, 100, 100, 101, 150, 151, 151, 200];
      const events = times.map((t, i) => ev(`p${i}`, t, { offset: i }));
      const expected = splitSessions(events, 30, 100);
      assert.deepEqual(groups(expected), [
        ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6', 'p7', 'p8'],
        ['p9'],
        ['p10', 'p11', 'p12'],
        ['p13'],
      ]);
      fc.assert(
        fc.property(fc.shuffledSubarray(events, { minLength: events.length }), (shuffled) => {
          assert.deepEqual(splitSessions(shuffled, 30, 100), expected);
        }),
      );
    });
  });

  describe('session ids', () => {
    it('are sha256 of user and first message id, 24 hex chars after s_', () => {
      assert.equal(sessionId('u1', 'm1'), expectedId('u1', 'm1'));
      assert.match(sessionId('u1', 'm1'), /^s_[0-9a-f]{24}$/);
    });

    const cases: [string, string, string, string, string][] = [
      ['another user', 'u1', 'm1', 'u2', 'm1'],
      ['another first message', 'u1', 'm1', 'u1', 'm2'],
      ['no ambiguity from concatenation', 'u1', 'm1', 'u1m', '1'],
    ];
    for (const [name, u1, m1, u2, m2] of cases) {
      it(`differ for ${name}`, () => {
        assert.notEqual(sessionId(u1, m1), sessionId(u2, m2));
      });
    }

    it('are deterministic and independent of input order', () => {
      const events = series([0, 1000, 2 * HOUR, 2 * HOUR + 5]);
      const forward = splitSessions(events, 30 * MIN, 24 * HOUR).map((s) => s.session_id);
      const backward = splitSessions([...events].reverse(), 30 * MIN, 24 * HOUR).map((s) => s.session_id);
      const again = splitSessions(events, 30 * MIN, 24 * HOUR).map((s) => s.session_id);
      assert.deepEqual(forward, [expectedId('u1', 'e0'), expectedId('u1', 'e2')]);
      assert.deepEqual(backward, forward);
      assert.deepEqual(again, forward);
    });
  });

  describe('custom gap via analyticsConfig', () => {
    const config = analyticsConfig({ session: { gapMs: 5 * MIN } });

    it('overrides the gap and keeps the default max', () => {
      assert.equal(config.session.gapMs, 300_000);
      assert.equal(config.session.maxMs, DEFAULT_ANALYTICS.session.maxMs);
    });

    const cases: [string, number[], number, number[]][] = [
      ['5 min apart, custom gap → two sessions', [0, 5 * MIN], 5 * MIN, [1, 1]],
      ['5 min - 1 ms apart, custom gap → one session', [0, 5 * MIN - 1], 5 * MIN, [2]],
      ['5 min apart, default gap → one session', [0, 5 * MIN], 30 * MIN, [2]],
    ];
    for (const [name, times, gap, sizes] of cases) {
      it(name, () => {
        const cfg = gap === 30 * MIN ? analyticsConfig() : config;
        assert.equal(cfg.session.gapMs, gap);
        const sessions = splitSessions(series(times), cfg.session.gapMs, cfg.session.maxMs);
        assert.deepEqual(
          sessions.map((s) => s.events.length),
          sizes,
        );
      });
    }

    it('a custom max cuts sessions', () => {
      const cfg = analyticsConfig({ session: { maxMs: 10 * MIN } });
      assert.equal(cfg.session.gapMs, DEFAULT_ANALYTICS.session.gapMs);
      const sessions = splitSessions(
        series([0, 5 * MIN, 10 * MIN, 10 * MIN + 1]),
        cfg.session.gapMs,
        cfg.session.maxMs,
      );
      assert.deepEqual(groups(sessions), [['e0', 'e1', 'e2'], ['e3']]);
    });
  });
});
