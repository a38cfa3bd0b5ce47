import assert from 'node:assert/strict';
import { DEFAULT_ANALYTICS, analyticsConfig } from '../../domain/analytics-config.js';
import { frictionIndex } from '../../domain/friction/index.js';
import type { FrictionSignal, PageFacts, SessionContribution, SignalKind } from '../../domain/contribution/types.js';
import type { AnalyticsEvent } from '../../domain/event.js';
import { sessionContribution } from '../../domain/contribution/session.js';
import { userEvent } from './user-events.js';
import { type FrictionEpisode, frictionEpisodes } from '../../domain/friction/episodes.js';

const weights = DEFAULT_ANALYTICS.weights;

const facts = (over: Partial<PageFacts>): PageFacts => ({
  views: 0,
  clicks: 0,
  dead_clicks: 0,
  rage_clicks: 0,
  rage_episodes: 0,
  loops: 0,
  loop_views: 0,
  backtracks: 0,
  active_ms: 0,
  idle_ms: 0,
  idle_gaps: 0,
  ...over,
});

/**
 * Rates dead 2/10, rage 3/10, loop 2/4, backtrack 1/4, idle 15 s/60 s; with the default weights
 * (.25 .25 .2 .15 .15): .05 + .075 + .1 + .0375 + .0375 = 0.3.
 */
const checkout = facts({
  views: 4,
  clicks: 10,
  dead_clicks: 2,
  rage_clicks: 3,
  rage_episodes: 1,
  loops: 1,
  loop_views: 2,
  backtracks: 1,
  active_ms: 60_000,
  idle_ms: 15_000,
  idle_gaps: 1,
});
/** Only dead clicks, all of them: 0.25 · 1 = 0.25. */
const settings = facts({ views: 2, clicks: 4, dead_clicks: 4, active_ms: 20_000 });

let n = 0;
function signal(kind: SignalKind, over: Partial<FrictionSignal> = {}): FrictionSignal {
  n++;
  return {
    signal_id: `f_${n}`,
    kind,
    page: '/checkout',
    element: 'pay',
    at: 1_700_000_000_000,
    timings_ms: [],
    count: 1,
    message_ids: [`m_${n}`],
    ...over,
  };
}

function contribution(signals: FrictionSignal[], sessionId = 's_1'): SessionContribution {
  return {
    session_id: sessionId,
    user_id: 'u1',
    day: '2023-11-14',
    started_at: 1_700_000_000_000,
    ended_at: 1_700_000_600_000,
    events: 40,
    pages: [
      { page: '/checkout', ...checkout },
      { page: '/settings', ...settings },
    ],
    elements: [],
    features: [],
    contexts: [],
    signals,
  };
}

const rage = signal('rage_click', {
  at: 1_700_000_100_000,
  timings_ms: [300, 250, 400],
  count: 4,
  message_ids: ['c1', 'c2', 'c3', 'c4'],
});
const loop = signal('confusion_loop', {
  page: '/settings',
  element: null,
  at: 1_700_000_200_000,
  timings_ms: [5000, 4000, 3000],
  count: 4,
  message_ids: ['v1', 'v2', 'v3', 'v4'],
});

describe('friction episodes', () => {
  it('the hand-computed index agrees with domain/friction/index.ts', () => {
    assert.ok(Math.abs(frictionIndex(checkout, weights) - 0.3) < 1e-12);
    assert.ok(Math.abs(frictionIndex(settings, weights) - 0.25) < 1e-12);
  });

  describe('which signals become episodes', () => {
    const cases: [string, FrictionSignal[], SignalKind[]][] = [
      ['no signals', [], []],
      ['a rage click', [rage], ['rage_click']],
      ['a confusion loop', [loop], ['confusion_loop']],
      ['a dead click', [signal('dead_click', { timings_ms: [2500] })], []],
      ['a backtrack', [signal('backtrack', { timings_ms: [4000] })], []],
      ['an idle gap', [signal('idle', { timings_ms: [30_000] })], []],
      [
        'a mix, in the session’s order',
        [signal('idle'), loop, signal('dead_click'), rage, signal('backtrack')],
        ['confusion_loop', 'rage_click'],
      ],
    ];
    for (const [name, signals, kinds] of cases) {
      it(name, () =>
        assert.deepEqual(
          frictionEpisodes('u1', contribution(signals), weights).map((e) => e.signal),
          kinds,
        ),
      );
    }
  });

  describe('episode fields', () => {
    const brief = (e: FrictionEpisode) => ({ ...e, friction_index: Math.round(e.friction_index * 1e9) / 1e9 });
    const cases: [string, FrictionSignal, Omit<FrictionEpisode, 'episode_id'>][] = [
      [
        'a rage burst: index of its page, detected at its last click',
        rage,
        {
          user_id: 'u1',
          session_id: 's_1',
          signal: 'rage_click',
          page: '/checkout',
          element: 'pay',
          friction_index: 0.3,
          detected_at: 1_700_000_100_000 + 950,
        },
      ],
      [
        'a loop: index of its own page, detected at its last view',
        loop,
        {
          user_id: 'u1',
          session_id: 's_1',
          signal: 'confusion_loop',
          page: '/settings',
          element: null,
          friction_index: 0.25,
          detected_at: 1_700_000_200_000 + 12_000,
        },
      ],
      [
        'a signal whose page is not in the session’s pages has index 0',
        signal('rage_click', { page: '/gone', at: 5000, timings_ms: [100, 100] }),
        {
          user_id: 'u1',
          session_id: 's_1',
          signal: 'rage_click',
          page: '/gone',
          element: 'pay',
          friction_index: 0,
          detected_at: 5200,
        },
      ],
      [
        'a signal without a page has index 0',
        signal('rage_click', { page: null, element: 'x', at: 5000, timings_ms: [100] }),
        {
          user_id: 'u1',
          session_id: 's_1',
          signal: 'rage_click',
          page: null,
          element: 'x',
          friction_index: 0,
          detected_at: 5100,
        },
      ],
      [
        'no timings: detected at its start',
        signal('confusion_loop', { page: '/settings', at: 7000, timings_ms: [] }),
        {
          user_id: 'u1',
          session_id: 's_1',
          signal: 'confusion_loop',
          page: '/settings',
          element: 'pay',
          friction_index: 0.25,
          detected_at: 7000,
        },
      ],
    ];
    for (const [name, s, expected] of cases) {
      it(name, () => {
        const [episode, ...rest] = frictionEpisodes('u1', contribution([s]), weights);
        assert.deepEqual(rest, []);
        const { episode_id, ...fields } = brief(episode!);
        assert.match(episode_id, /^fe_[0-9a-f]{24}$/);
        assert.deepEqual(fields, expected);
      });
    }

    it('uses the weights it is given', () => {
      const rageOnly = analyticsConfig({
        weights: { dead_click: 0, rage_click: 1, loop: 0, backtrack: 0, idle: 0 },
      }).weights;
      const [episode] = frictionEpisodes('u1', contribution([rage]), rageOnly);
      assert.ok(Math.abs(episode!.friction_index - 0.3) < 1e-12); // rage rate 3/10
      const [onSettings] = frictionEpisodes('u1', contribution([loop]), rageOnly);
      assert.equal(onSettings!.friction_index, 0);
    });
  });

  describe('episode_id', () => {
    const idOf = (userId: string, s: FrictionSignal, sessionId = 's_1') =>
      frictionEpisodes(userId, contribution([s], sessionId), weights)[0]!.episode_id;
    const base = idOf('u1', rage);

    const same: [string, string][] = [
      ['another session id (a re-cut session) and signal id', idOf('u1', { ...rage, signal_id: 'f_recut' }, 's_2')],
      ['more clicks joining the burst', idOf('u1', { ...rage, message_ids: [...rage.message_ids, 'c5'], count: 5 })],
      ['other timings, page and element', idOf('u1', { ...rage, timings_ms: [1], page: '/x', element: 'y' })],
    ];
    for (const [name, id] of same) it(`stays with ${name}`, () => assert.equal(id, base));

    const different: [string, string][] = [
      ['another user', idOf('u2', rage)],
      ['another kind on the same first event', idOf('u1', { ...rage, kind: 'confusion_loop' })],
      ['another first event', idOf('u1', { ...rage, message_ids: ['c0', ...rage.message_ids] })],
    ];
    for (const [name, id] of different) it(`changes with ${name}`, () => assert.notEqual(id, base));

    it('falls back to the signal id when the signal lists no events', () => {
      const a = idOf('u1', { ...rage, message_ids: [], signal_id: 'f_a' });
      assert.match(a, /^fe_[0-9a-f]{24}$/);
      assert.equal(idOf('u1', { ...rage, message_ids: [], signal_id: 'f_a' }, 's_2'), a);
      assert.notEqual(idOf('u1', { ...rage, message_ids: [], signal_id: 'f_b' }), a);
    });

    it('the user of the episode is the one passed in, not read from the contribution', () => {
      const [episode] = frictionEpisodes('u9', contribution([rage]), weights);
      assert.equal(episode!.user_id, 'u9');
      assert.equal(episode!.episode_id, idOf('u9', rage));
    });
  });

  describe('over a contribution computed from a session', () => {
    const T = 1_700_000_000_000;
    const ev = (id: string, at: number, event: string, properties: Record<string, unknown>) =>
      userEvent(id, T + at, event, properties);
    const burst = [
      ev('pv', 0, 'page_view', { page: '/checkout' }),
      ev('c1', 5000, 'click', { element: 'pay' }),
      ev('c2', 5300, 'click', { element: 'pay' }),
      ev('c3', 5600, 'click', { element: 'pay' }),
      ev('after', 9000, 'scroll', {}),
    ];
    const episodesOf = (sessionId: string, events: AnalyticsEvent[]) => {
      const c = sessionContribution(
        { session_id: sessionId, user_id: 'u1', started_at: events[0]!.timestamp, ended_at: T + 9000, events },
        analyticsConfig(),
      );
      return { c, episodes: frictionEpisodes('u1', c, weights) };
    };

    it('announces the rage burst, detected at its last click, with its page’s index', () => {
      const { c, episodes } = episodesOf('s_a', burst);
      const page = c.pages.find((p) => p.page === '/checkout')!;
      assert.deepEqual(
        episodes.map(({ signal, page, element, detected_at }) => ({ signal, page, element, detected_at })),
        [{ signal: 'rage_click', page: '/checkout', element: 'pay', detected_at: T + 5600 }],
      );
      assert.ok(episodes[0]!.friction_index > 0);
      assert.equal(episodes[0]!.friction_index, frictionIndex(page, weights));
    });

    it('gives the same episode id when the session is cut differently', () => {
      const earlier = [ev('early', -60_000, 'scroll', {}), ...burst];
      const a = episodesOf('s_a', burst).episodes;
      const b = episodesOf('s_b', earlier).episodes;
      assert.equal(b.length, 1);
      assert.notEqual(b[0]!.session_id, a[0]!.session_id);
      assert.equal(b[0]!.episode_id, a[0]!.episode_id);
    });
  });
});
