import type { FrictionSignal, PageFacts } from '../../domain/contribution/types.js';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fc from 'fast-check';
import { type AnalyticsEvent, isPageView, prop } from '../../domain/event.js';
import { DEFAULT_ANALYTICS, analyticsConfig } from '../../domain/analytics-config.js';
import { analyseSessionFriction } from '../../domain/friction/session.js';
import { detectBacktracks } from '../../domain/friction/detectors/backtrack.js';
import { detectDeadClicks } from '../../domain/friction/detectors/dead.js';
import { detectIdle } from '../../domain/friction/detectors/idle.js';
import { detectLoops } from '../../domain/friction/detectors/loop.js';
import { detectRageClicks } from '../../domain/friction/detectors/rage.js';
import { commonIssues, frictionIndex, frictionRates, type FrictionTotals } from '../../domain/friction/index.js';
import { navigation, pagesOf } from '../../domain/friction/signal.js';
import type { Session } from '../../domain/session.js';

const config = analyticsConfig();
const SID = 's_test';

let arrival = 0;
function ev(id: string, timestamp: number, event: string, properties: Record<string, unknown> = {}): AnalyticsEvent {
  return {
    message_id: id,
    user_id: 'u1',
    event,
    timestamp,
    received_at: timestamp + 25,
    offset: arrival++,
    properties,
  };
}
const click = (id: string, t: number, props: Record<string, unknown> = {}) =>
  ev(id, t, 'click', { element: 'btn', ...props });
const view = (id: string, t: number, page: string) => ev(id, t, 'page_view', { page });
const other = (id: string, t: number, event = 'scroll', props: Record<string, unknown> = {}) => ev(id, t, event, props);

/** The parts of a signal a test pins down (signal_id is checked separately). */
const brief = (s: FrictionSignal) => ({
  kind: s.kind,
  page: s.page,
  element: s.element,
  at: s.at,
  count: s.count,
  timings_ms: s.timings_ms,
  message_ids: s.message_ids,
});
const signalId = (session: string, kind: string, first: string) =>
  `f_${crypto.createHash('sha256').update(`${session}\u0000${kind}\u0000${first}`).digest('hex').slice(0, 24)}`;

const rage = (events: AnalyticsEvent[]) =>
  detectRageClicks(SID, events, pagesOf(events, prop.page), config.rage).map(brief);
const dead = (events: AnalyticsEvent[], final: boolean) =>
  detectDeadClicks(SID, events, pagesOf(events, prop.page), config.dead, final).map(brief);
const views = (events: AnalyticsEvent[]) => navigation(events, isPageView, prop.page);
const loops = (events: AnalyticsEvent[]) => detectLoops(SID, views(events), config.loop).map(brief);
const backtracks = (events: AnalyticsEvent[]) => detectBacktracks(SID, views(events), config.backtrack).map(brief);
const idle = (events: AnalyticsEvent[]) => detectIdle(SID, events, pagesOf(events, prop.page), config.idle).map(brief);

/** Expected rage episode on /p, element btn. */
const rageEp = (ids: string[], at: number, timings: number[], element = 'btn', page: string | null = '/p') => ({
  kind: 'rage_click' as const,
  page,
  element,
  at,
  count: ids.length,
  timings_ms: timings,
  message_ids: ids,
});

describe('friction: rage clicks', () => {
  const at = (x: number, y: number) => ({ x, y });
  const onP = view('pv', -5000, '/p');
  const cases: [string, AnalyticsEvent[], ReturnType<typeof rageEp>[]][] = [
    [
      '3 clicks < 1 s apart and < 30 px fire once',
      [click('c1', 0, at(10, 10)), click('c2', 300, at(12, 11)), click('c3', 600, at(15, 9))],
      [rageEp(['c1', 'c2', 'c3'], 0, [300, 300])],
    ],
    [
      'a 4th and 5th click in the same burst stay one episode, count grows',
      [
        click('c1', 0, at(10, 10)),
        click('c2', 200, at(10, 10)),
        click('c3', 400, at(10, 10)),
        click('c4', 600, at(10, 10)),
        click('c5', 800, at(10, 10)),
      ],
      [rageEp(['c1', 'c2', 'c3', 'c4', 'c5'], 0, [200, 200, 200, 200])],
    ],
    [
      'clicks exactly 1000 ms apart count',
      [click('c1', 0), click('c2', 1000), click('c3', 2000)],
      [rageEp(['c1', 'c2', 'c3'], 0, [1000, 1000])],
    ],
    ['clicks 1001 ms apart do not', [click('c1', 0), click('c2', 1001), click('c3', 2002)], []],
    ['one 1001 ms interval breaks a burst of 3', [click('c1', 0), click('c2', 500), click('c3', 1501)], []],
    [
      'a break starts a new burst',
      [click('c1', 0), click('c2', 500), click('c3', 1501), click('c4', 1900), click('c5', 2300)],
      [rageEp(['c3', 'c4', 'c5'], 1501, [399, 400])],
    ],
    [
      'distance exactly 30 px counts (horizontal)',
      [click('c1', 0, at(100, 100)), click('c2', 100, at(130, 100)), click('c3', 200, at(160, 100))],
      [rageEp(['c1', 'c2', 'c3'], 0, [100, 100])],
    ],
    [
      'distance exactly 30 px counts (Euclidean 18/24)',
      [click('c1', 0, at(100, 100)), click('c2', 100, at(118, 124)), click('c3', 200, at(100, 100))],
      [rageEp(['c1', 'c2', 'c3'], 0, [100, 100])],
    ],
    [
      '31 px breaks the burst',
      [click('c1', 0, at(100, 100)), click('c2', 100, at(131, 100)), click('c3', 200, at(162, 100))],
      [],
    ],
    [
      '31 px on the last click breaks a burst of 3',
      [click('c1', 0, at(100, 100)), click('c2', 100, at(130, 100)), click('c3', 200, at(161, 100))],
      [],
    ],
    [
      'different elements break the burst',
      [
        click('c1', 0, { element: 'a' }),
        click('c2', 100, { element: 'a' }),
        click('c3', 200, { element: 'b' }),
        click('c4', 300, { element: 'a' }),
        click('c5', 400, { element: 'a' }),
      ],
      [],
    ],
    [
      'bursts on two elements are two episodes',
      [
        click('c1', 0, { element: 'a' }),
        click('c2', 100, { element: 'a' }),
        click('c3', 200, { element: 'a' }),
        click('c4', 300, { element: 'b' }),
        click('c5', 400, { element: 'b' }),
        click('c6', 500, { element: 'b' }),
      ],
      [rageEp(['c1', 'c2', 'c3'], 0, [100, 100], 'a'), rageEp(['c4', 'c5', 'c6'], 300, [100, 100], 'b')],
    ],
    ['2 clicks never fire', [click('c1', 0), click('c2', 100)], []],
    ['2 clicks never fire, even at the same instant', [click('c1', 0), click('c2', 0)], []],
    [
      'clicks without coordinates are judged by time and element',
      [click('c1', 0), click('c2', 900), click('c3', 1800)],
      [rageEp(['c1', 'c2', 'c3'], 0, [900, 900])],
    ],
    [
      'a click without coordinates amid clicks with them',
      [click('c1', 0, at(0, 0)), click('c2', 100), click('c3', 200, at(5, 5))],
      [rageEp(['c1', 'c2', 'c3'], 0, [100, 100])],
    ],
    [
      'clicks without coordinates on different elements do not fire',
      [click('c1', 0, { element: 'a' }), click('c2', 100, { element: 'b' }), click('c3', 200, { element: 'c' })],
      [],
    ],
    [
      'clicks without an element never fire',
      [
        click('c1', 0, { element: undefined }),
        click('c2', 100, { element: undefined }),
        click('c3', 200, { element: undefined }),
      ],
      [],
    ],
    ...['text', 'paragraph', 'heading', 'label'].map(
      (type): [string, AnalyticsEvent[], ReturnType<typeof rageEp>[]] => [
        `element_type '${type}' (selection) never fires`,
        [
          click('c1', 0, { element_type: type }),
          click('c2', 100, { element_type: type }),
          click('c3', 200, { element_type: type }),
          click('c4', 300, { element_type: type }),
        ],
        [],
      ],
    ),
    [
      "element_type 'button' fires",
      [
        click('c1', 0, { element_type: 'button' }),
        click('c2', 100, { element_type: 'button' }),
        click('c3', 200, { element_type: 'button' }),
      ],
      [rageEp(['c1', 'c2', 'c3'], 0, [100, 100])],
    ],
    [
      'a selection click between clicks breaks the burst',
      [click('c1', 0), click('c2', 100), click('t', 150, { element_type: 'text' }), click('c3', 200)],
      [],
    ],
    [
      "intervening non-click events don't break a burst",
      [
        click('c1', 0),
        other('s1', 100, 'scroll'),
        click('c2', 300),
        other('h1', 400, 'hover', { interaction: 'hover' }),
        other('x1', 500, 'custom_thing', { element: 'other' }),
        click('c3', 600),
      ],
      [rageEp(['c1', 'c2', 'c3'], 0, [300, 300])],
    ],
    [
      "interaction 'click' counts as a click whatever the event name",
      [
        ev('c1', 0, 'button_pressed', { element: 'btn', interaction: 'click' }),
        ev('c2', 100, 'button_pressed', { element: 'btn', interaction: 'click' }),
        click('c3', 200),
      ],
      [rageEp(['c1', 'c2', 'c3'], 0, [100, 100])],
    ],
    // posthog-js's RageClick tests (packages/browser/src/__tests__/extensions/rageclick.test.ts), as click
    // sequences: where posthog-js answers "triggered" on a click, here a burst becomes one episode.
    [
      'posthog-js: (0,0) (10,10) (5,5) (5,5) within 40 ms fire once',
      [click('c1', 10, at(0, 0)), click('c2', 20, at(10, 10)), click('c3', 40, at(5, 5)), click('c4', 50, at(5, 5))],
      [rageEp(['c1', 'c2', 'c3', 'c4'], 10, [10, 20, 10])],
    ],
    [
      'posthog-js: a pause over 1 s ends the burst; three more clicks fire again',
      [
        click('c1', 10, at(0, 0)),
        click('c2', 20, at(10, 10)),
        click('c3', 40, at(5, 5)),
        click('c4', 80, at(5, 5)),
        click('c5', 100, at(5, 5)),
        click('c6', 110, at(5, 5)),
        click('c7', 1120, at(5, 5)),
        click('c8', 1121, at(5, 5)),
        click('c9', 1122, at(5, 5)),
      ],
      [
        rageEp(['c1', 'c2', 'c3', 'c4', 'c5', 'c6'], 10, [10, 20, 40, 20, 10]),
        rageEp(['c7', 'c8', 'c9'], 1120, [1, 1]),
      ],
    ],
    [
      'posthog-js: a jump of 31 px ends the burst; three more clicks there fire again',
      [
        click('c1', 10, at(0, 0)),
        click('c2', 20, at(10, 10)),
        click('c3', 40, at(5, 5)),
        click('c4', 80, at(5, 5)),
        click('c5', 100, at(5, 5)),
        click('c6', 110, at(5, 5)),
        click('c7', 120, at(36, 5)),
        click('c8', 130, at(36, 5)),
        click('c9', 140, at(36, 5)),
      ],
      [
        rageEp(['c1', 'c2', 'c3', 'c4', 'c5', 'c6'], 10, [10, 20, 40, 20, 10]),
        rageEp(['c7', 'c8', 'c9'], 120, [10, 10]),
      ],
    ],
    [
      'posthog-js: a third click 3,980 ms later does not fire',
      [click('c1', 10, at(5, 5)), click('c2', 20, at(5, 5)), click('c3', 4000, at(5, 5))],
      [],
    ],
    [
      'posthog-js: a third click 40 px away does not fire',
      [click('c1', 10, at(0, 0)), click('c2', 20, at(10, 10)), click('c3', 40, at(50, 10))],
      [],
    ],
    [
      'timings_ms are the intervals between consecutive clicks',
      [click('c1', 0), click('c2', 250), click('c3', 900), click('c4', 1000)],
      [rageEp(['c1', 'c2', 'c3', 'c4'], 0, [250, 650, 100])],
    ],
  ];
  for (const [name, events, expected] of cases) {
    it(name, () => {
      assert.deepEqual(rage([onP, ...events]), expected);
    });
  }

  it('attributes the episode to the page of its first click', () => {
    const events = [view('a', 0, '/a'), click('c1', 100), click('c2', 200), click('c3', 300, { page: '/b' })];
    assert.deepEqual(rage(events), [rageEp(['c1', 'c2', 'c3'], 100, [100, 100], 'btn', '/a')]);
  });

  it('has no page before any page is known', () => {
    const events = [click('c1', 0), click('c2', 100), click('c3', 200)];
    assert.deepEqual(rage(events), [rageEp(['c1', 'c2', 'c3'], 0, [100, 100], 'btn', null)]);
  });
});

describe('friction: dead clicks', () => {
  const deadEp = (id: string, t: number, timing: number, page = '/p', element: string | null = 'btn') => ({
    kind: 'dead_click' as const,
    page,
    element,
    at: t,
    count: 1,
    timings_ms: [timing],
    message_ids: [id],
  });
  const onP = view('pv', -100_000, '/p');
  const cases: [string, AnalyticsEvent[], boolean, ReturnType<typeof deadEp>[]][] = [
    [
      'ui_response false fires with ui_response_ms as timing',
      [click('c', 0, { ui_response: false, ui_response_ms: 4200 }), other('n', 100)],
      false,
      [deadEp('c', 0, 4200)],
    ],
    [
      'ui_response false with a fast ui_response_ms still fires (the client judged it)',
      [click('c', 0, { ui_response: false, ui_response_ms: 300 }), other('n', 100)],
      true,
      [deadEp('c', 0, 300)],
    ],
    [
      'ui_response false without ui_response_ms uses the window',
      [click('c', 0, { ui_response: false }), other('n', 100)],
      false,
      [deadEp('c', 0, 2500)],
    ],
    [
      'ui_response false with a non-numeric ui_response_ms uses the window',
      [click('c', 0, { ui_response: false, ui_response_ms: '4200' })],
      false,
      [deadEp('c', 0, 2500)],
    ],
    ['ui_response true never fires, even at session end', [click('c', 0, { ui_response: true })], true, []],
    [
      'ui_response true never fires, even with a late next event',
      [click('c', 0, { ui_response: true, ui_response_ms: 9000 }), other('n', 60_000)],
      true,
      [],
    ],
    ['no flag: next non-click within the window → not dead', [click('c', 0), other('n', 2000)], true, []],
    ['no flag: next non-click at exactly 2500 ms → not dead', [click('c', 0), other('n', 2500)], true, []],
    [
      'no flag: next non-click at 2501 ms → dead, timing = gap',
      [click('c', 0), other('n', 2501)],
      false,
      [deadEp('c', 0, 2501)],
    ],
    ['a string "false" is not a flag', [click('c', 0, { ui_response: 'false' }), other('n', 100)], true, []],
    [
      'a following click does not count as a response',
      [click('c1', 0), click('c2', 1000, { ui_response: true }), other('n', 3000)],
      false,
      [deadEp('c1', 0, 3000)],
    ],
    [
      'each flagless click is judged against the next non-click',
      [click('c1', 0, { element: 'a' }), click('c2', 1000, { element: 'b' }), other('n', 3400)],
      false,
      [deadEp('c1', 0, 3400, '/p', 'a')],
    ],
    ['no later event, not final → not judged yet', [click('c', 0)], false, []],
    ['no later event, final → dead with the window as timing', [click('c', 0)], true, [deadEp('c', 0, 2500)]],
    ['only later clicks, not final → not judged yet', [click('c1', 0), click('c2', 5000)], false, []],
    [
      'only later clicks, final → both dead with the window',
      [click('c1', 0, { element: 'a' }), click('c2', 5000, { element: 'b' })],
      true,
      [deadEp('c1', 0, 2500, '/p', 'a'), deadEp('c2', 5000, 2500, '/p', 'b')],
    ],
    ['a page view is a response', [click('c', 0), view('v', 100, '/q')], true, []],
    [
      'the click keeps its own page and element',
      [click('c', 0, { page: '/own', element: 'save' }), other('n', 2600)],
      true,
      [deadEp('c', 0, 2600, '/own', 'save')],
    ],
    [
      'a click without element is dead with element null',
      [click('c', 0, { element: undefined }), other('n', 3000)],
      true,
      [deadEp('c', 0, 3000, '/p', null)],
    ],
  ];
  for (const [name, events, final, expected] of cases) {
    it(`${name}${final ? ' (final)' : ''}`, () => {
      assert.deepEqual(dead([onP, ...events], final), expected);
    });
  }
});

describe('friction: confusion loops', () => {
  /** Page views 1 s apart, named v<index>, merged where consecutive. */
  const walk = (pages: string) => [...pages].map((p, i) => view(`v${i}`, i * 1000, p));
  const loopEp = (page: string, idx: number[]) => ({
    kind: 'confusion_loop' as const,
    page,
    element: null,
    at: idx[0]! * 1000,
    count: idx.length,
    timings_ms: idx.slice(1).map((v, k) => (v - idx[k]!) * 1000),
    message_ids: idx.map((i) => `v${i}`),
  });
  const cases: [string, ReturnType<typeof loopEp>[]][] = [
    ['ABAB', [loopEp('A', [0, 1, 2, 3])]],
    ['ABABA', [loopEp('A', [0, 1, 2, 3, 4])]],
    ['ABABAB', [loopEp('A', [0, 1, 2, 3, 4, 5])]],
    ['ABA', []],
    ['ABAC', []],
    ['AB', []],
    ['A', []],
    ['', []],
    ['ABCABC', []],
    ['ABABCBCB', [loopEp('A', [0, 1, 2, 3]), loopEp('B', [3, 4, 5, 6, 7])]],
    ['CABAB', [loopEp('A', [1, 2, 3, 4])]],
    ['ABCBC', [loopEp('B', [1, 2, 3, 4])]],
    ['ABACAC', [loopEp('A', [2, 3, 4, 5])]],
    ['ABABCDCD', [loopEp('A', [0, 1, 2, 3]), loopEp('C', [4, 5, 6, 7])]],
    // consecutive repeats (reloads) are merged before detection
    ['AABBAB', [loopEp('A', [0, 2, 4, 5])]],
    ['ABBA', []],
    ['ABAAB', [loopEp('A', [0, 1, 2, 4])]],
  ];
  for (const [pages, expected] of cases) {
    it(`${pages || '(no views)'} → ${expected.map((e) => `${e.page}×${e.count}`).join(', ') || 'none'}`, () => {
      assert.deepEqual(loops(walk(pages)), expected);
    });
  }

  it('navigation merges reloads and ignores non-views and views without page', () => {
    const events = [
      view('a1', 0, '/a'),
      view('a2', 100, '/a'),
      click('c', 200, { page: '/b' }),
      ev('np', 300, 'page_view', {}),
      ev('nav', 400, 'route_change', { page: '/b', interaction: 'navigate' }),
      view('b2', 500, '/b'),
      view('a3', 600, '/a'),
    ];
    assert.deepEqual(
      views(events).map((v) => [v.page, v.event.message_id]),
      [
        ['/a', 'a1'],
        ['/b', 'nav'],
        ['/a', 'a3'],
      ],
    );
  });

  describe('loop page facts: the loop and its views of the starting page count there', () => {
    const cases: [string, Record<string, [views: number, loops: number, loopViews: number]>][] = [
      ['ABAB', { A: [2, 1, 2], B: [2, 0, 0] }],
      ['ABABA', { A: [3, 1, 3], B: [2, 0, 0] }],
      ['ABABAB', { A: [3, 1, 3], B: [3, 0, 0] }],
      ['BABAB', { A: [2, 0, 0], B: [3, 1, 3] }],
      ['ABA', { A: [2, 0, 0], B: [1, 0, 0] }],
    ];
    for (const [pages, expected] of cases) {
      it(pages, () => {
        const events = walk(pages);
        const session: Session = { session_id: SID, user_id: 'u1', started_at: 0, ended_at: 0, events };
        const { pages: facts } = analyseSessionFriction(session, config, true);
        assert.deepEqual(
          Object.fromEntries([...facts].map(([page, f]) => [page, [f.views, f.loops, f.loop_views]])),
          expected,
        );
      });
    }
  });

  it('through analyseSessionFriction, reloads do not hide a loop', () => {
    const events = [
      view('a1', 0, '/a'),
      view('a1r', 500, '/a'),
      view('b1', 1000, '/b'),
      view('b1r', 1200, '/b'),
      view('a2', 2000, '/a'),
      view('b2', 3000, '/b'),
    ];
    const session: Session = { session_id: SID, user_id: 'u1', started_at: 0, ended_at: 3000, events };
    const loopsFound = analyseSessionFriction(session, config, true)
      .signals.filter((s) => s.kind === 'confusion_loop')
      .map(brief);
    assert.deepEqual(loopsFound, [
      {
        kind: 'confusion_loop',
        page: '/a',
        element: null,
        at: 0,
        count: 4,
        timings_ms: [1000, 1000, 1000],
        message_ids: ['a1', 'b1', 'a2', 'b2'],
      },
    ]);
  });
});

describe('friction: backtracking', () => {
  const backEp = (left: string, back: string, at: number, page: string, dwell: number) => ({
    kind: 'backtrack' as const,
    page,
    element: null,
    at,
    count: 2,
    timings_ms: [dwell],
    message_ids: [left, back],
  });
  const cases: [string, AnalyticsEvent[], ReturnType<typeof backEp>[]][] = [
    [
      'A→B→A within 10 s fires on B with the dwell on B',
      [view('a1', 0, 'A'), view('b', 1000, 'B'), view('a2', 5000, 'A')],
      [backEp('b', 'a2', 1000, 'B', 4000)],
    ],
    [
      'exactly 10000 ms fires',
      [view('a1', 0, 'A'), view('b', 1000, 'B'), view('a2', 11_000, 'A')],
      [backEp('b', 'a2', 1000, 'B', 10_000)],
    ],
    ['10001 ms does not', [view('a1', 0, 'A'), view('b', 1000, 'B'), view('a2', 11_001, 'A')], []],
    ['A→B→C does not', [view('a', 0, 'A'), view('b', 1000, 'B'), view('c', 2000, 'C')], []],
    ['A→B alone does not', [view('a', 0, 'A'), view('b', 1000, 'B')], []],
    [
      'time spent on A before leaving is irrelevant',
      [view('a1', 0, 'A'), view('b', 60_000, 'B'), view('a2', 61_000, 'A')],
      [backEp('b', 'a2', 60_000, 'B', 1000)],
    ],
    [
      'a reload of B is merged: dwell counts from the first view of B',
      [view('a1', 0, 'A'), view('b', 1000, 'B'), view('br', 9000, 'B'), view('a2', 12_000, 'A')],
      [],
    ],
    [
      'a reload of B within the window still fires',
      [view('a1', 0, 'A'), view('b', 1000, 'B'), view('br', 5000, 'B'), view('a2', 8000, 'A')],
      [backEp('b', 'a2', 1000, 'B', 7000)],
    ],
    [
      'non-view events between do not matter',
      [view('a1', 0, 'A'), view('b', 1000, 'B'), click('c', 2000), other('s', 3000), view('a2', 4000, 'A')],
      [backEp('b', 'a2', 1000, 'B', 3000)],
    ],
    [
      'A→B→A→B is two backtracks, on B then on A',
      [view('a1', 0, 'A'), view('b1', 1000, 'B'), view('a2', 3000, 'A'), view('b2', 6000, 'B')],
      [backEp('b1', 'a2', 1000, 'B', 2000), backEp('a2', 'b2', 3000, 'A', 3000)],
    ],
  ];
  for (const [name, events, expected] of cases) {
    it(name, () => {
      assert.deepEqual(backtracks(events), expected);
    });
  }
});

describe('friction: idle', () => {
  const idleEp = (id: string, at: number, gap: number, page: string | null) => ({
    kind: 'idle' as const,
    page,
    element: null,
    at,
    count: 1,
    timings_ms: [gap],
    message_ids: [id],
  });
  const cases: [string, AnalyticsEvent[], ReturnType<typeof idleEp>[]][] = [
    ['gap 10000 is not idle', [view('a', 0, '/a'), other('b', 10_000)], []],
    [
      'gap 10001 is idle, with the gap as timing',
      [view('a', 0, '/a'), other('b', 10_001)],
      [idleEp('a', 0, 10_001, '/a')],
    ],
    [
      'long gaps are not capped in the signal',
      [view('a', 0, '/a'), other('b', 3_600_000)],
      [idleEp('a', 0, 3_600_000, '/a')],
    ],
    [
      'attributed to the page of the earlier event, not the next page',
      [view('a', 0, '/a'), view('b', 30_000, '/b')],
      [idleEp('a', 0, 30_000, '/a')],
    ],
    [
      'an earlier event without page inherits the last viewed page',
      [view('a', 0, '/a'), click('c', 1000), view('b', 20_000, '/b')],
      [idleEp('c', 1000, 19_000, '/a')],
    ],
    ['no page known → page null', [other('x', 0), other('y', 15_000)], [idleEp('x', 0, 15_000, null)]],
    [
      'each long gap is its own signal',
      [view('a', 0, '/a'), other('b', 20_000), other('c', 25_000), view('d', 40_000, '/d'), other('e', 40_500)],
      [idleEp('a', 0, 20_000, '/a'), idleEp('c', 25_000, 15_000, '/a')],
    ],
    ['a single event has no gap', [view('a', 0, '/a')], []],
  ];
  for (const [name, events, expected] of cases) {
    it(name, () => {
      assert.deepEqual(idle(events), expected);
    });
  }
});

describe('friction: analyseSessionFriction', () => {
  // A hand-made session; the comments give each event's page.
  const events = [
    view('p1', 0, '/a'), //                                   /a
    click('c1', 1000, { element: 'save', ui_response: true }), // /a  rage 1
    click('c2', 1500, { element: 'save', ui_response: true }), // /a  rage 2
    click('c3', 2000, { element: 'save', ui_response: true }), // /a  rage 3
    view('p2', 5000, '/b'), //                                /b
    click('c4', 6000, { element: 'go' }), //                  /b  dead: next non-click 3000 ms later
    view('p3', 9000, '/a'), //                                /a  backtrack A→B→A (on /b, dwell 4000)
    view('p4', 12_000, '/b'), //                              /b  backtrack B→A→B (on /a, 3000); loop ABAB
    view('p5', 12_500, '/b'), //                              /b  reload, merged
    other('s1', 100_000, 'scroll'), //                        /b  idle gap of 87500 before it, on /b
    view('p6', 101_000, '/c'), //                             /c
    click('c5', 102_000, { element: 'x' }), //                /c  dead only when final
  ];
  const session: Session = { session_id: 's_hand', user_id: 'u1', started_at: 0, ended_at: 102_000, events };

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

  for (const final of [true, false]) {
    describe(final ? 'final' : 'not final', () => {
      const result = analyseSessionFriction(session, config, final);

      it('gives exact page facts', () => {
        assert.deepEqual(Object.fromEntries(result.pages), {
          '/a': facts({
            views: 2,
            clicks: 3,
            rage_clicks: 3,
            rage_episodes: 1,
            loops: 1,
            loop_views: 2,
            backtracks: 1,
            // 1000 + 500 + 500 + 3000 (p1..p2) + 3000 (p3..p4)
            active_ms: 8000,
          }),
          '/b': facts({
            views: 2,
            clicks: 1,
            dead_clicks: 1,
            backtracks: 1,
            // 1000 + 3000 + 500 + min(87500, 60000) + 1000
            active_ms: 65_500,
            idle_ms: 60_000,
            idle_gaps: 1,
          }),
          '/c': facts({ views: 1, clicks: 1, dead_clicks: final ? 1 : 0, active_ms: 1000 }),
        });
      });

      it('gives exact element facts', () => {
        assert.deepEqual(
          Object.fromEntries([...result.elements].map(([page, byEl]) => [page, Object.fromEntries(byEl)])),
          {
            '/a': { save: { clicks: 3, dead_clicks: 0, rage_clicks: 3, rage_episodes: 1 } },
            '/b': { go: { clicks: 1, dead_clicks: 1, rage_clicks: 0, rage_episodes: 0 } },
            '/c': { x: { clicks: 1, dead_clicks: final ? 1 : 0, rage_clicks: 0, rage_episodes: 0 } },
          },
        );
      });

      it('gives the signals in time order, then kind', () => {
        const expected = [
          ['confusion_loop', '/a', null, 0, 4, [5000, 4000, 3000], ['p1', 'p2', 'p3', 'p4']],
          ['rage_click', '/a', 'save', 1000, 3, [500, 500], ['c1', 'c2', 'c3']],
          ['backtrack', '/b', null, 5000, 2, [4000], ['p2', 'p3']],
          ['dead_click', '/b', 'go', 6000, 1, [3000], ['c4']],
          ['backtrack', '/a', null, 9000, 2, [3000], ['p3', 'p4']],
          ['idle', '/b', null, 12_500, 1, [87_500], ['p5']],
          ...(final ? [['dead_click', '/c', 'x', 102_000, 1, [2500], ['c5']]] : []),
        ];
        assert.deepEqual(
          result.signals.map((s) => [s.kind, s.page, s.element, s.at, s.count, s.timings_ms, s.message_ids]),
          expected,
        );
      });

      it('gives deterministic signal ids across calls and input copies', () => {
        const again = analyseSessionFriction({ ...session, events: events.map((e) => ({ ...e })) }, config, final);
        assert.deepEqual(
          again.signals.map((s) => s.signal_id),
          result.signals.map((s) => s.signal_id),
        );
        assert.deepEqual(
          result.signals.map((s) => s.signal_id),
          result.signals.map((s) => signalId('s_hand', s.kind, s.message_ids[0]!)),
        );
        assert.equal(new Set(result.signals.map((s) => s.signal_id)).size, result.signals.length);
        for (const s of result.signals) assert.match(s.signal_id, /^f_[0-9a-f]{24}$/);
      });
    });
  }

  it('signals at the same instant are ordered by kind', () => {
    const evs = [
      view('v', 0, '/a'),
      click('c1', 1000, { ui_response: false, ui_response_ms: 2600 }),
      click('c2', 1100, { ui_response: true }),
      click('c3', 1200, { ui_response: true }),
      other('s', 30_000),
    ];
    const result = analyseSessionFriction(
      { session_id: 's_tie', user_id: 'u1', started_at: 0, ended_at: 30_000, events: evs },
      config,
      true,
    );
    assert.deepEqual(
      result.signals.map((s) => [s.kind, s.at, s.message_ids[0]]),
      [
        ['dead_click', 1000, 'c1'],
        ['rage_click', 1000, 'c1'],
        ['idle', 1200, 'c3'],
      ],
    );
    assert.notEqual(result.signals[0]!.signal_id, result.signals[1]!.signal_id);
  });

  it('a dead click keeps its id when the session becomes final', () => {
    const open = analyseSessionFriction(session, config, false).signals;
    const closed = analyseSessionFriction(session, config, true).signals;
    const openIds = open.map((s) => s.signal_id);
    assert.ok(openIds.every((id) => closed.some((s) => s.signal_id === id)));
    assert.equal(closed.length, open.length + 1);
  });

  it('signal ids differ between sessions with the same events', () => {
    const a = analyseSessionFriction(session, config, true).signals.map((s) => s.signal_id);
    const b = analyseSessionFriction({ ...session, session_id: 's_other' }, config, true).signals.map(
      (s) => s.signal_id,
    );
    assert.equal(a.length, b.length);
    assert.ok(a.every((id, i) => id !== b[i]));
  });

  it('an empty session has no signals and no facts', () => {
    const result = analyseSessionFriction(
      { session_id: 's_empty', user_id: 'u1', started_at: 0, ended_at: 0, events: [] },
      config,
      true,
    );
    assert.deepEqual(result.signals, []);
    assert.equal(result.pages.size, 0);
    assert.equal(result.elements.size, 0);
  });

  it('uses the configured idle thresholds', () => {
    const custom = analyticsConfig({ idle: { minGapMs: 1000, capMs: 2000 } });
    const evs = [view('a', 0, '/a'), other('b', 1000), other('c', 2001), other('d', 7001)];
    const result = analyseSessionFriction(
      { session_id: 's_idle', user_id: 'u1', started_at: 0, ended_at: 7001, events: evs },
      custom,
      true,
    );
    // gaps 1000 (not idle), 1001 (idle), 5000 (idle, capped to 2000)
    assert.deepEqual(
      result.pages.get('/a'),
      facts({ views: 1, active_ms: 1000 + 1001 + 2000, idle_ms: 1001 + 2000, idle_gaps: 2 }),
    );
    assert.deepEqual(
      result.signals.map((s) => [s.kind, s.timings_ms]),
      [
        ['idle', [1001]],
        ['idle', [5000]],
      ],
    );
  });
});

describe('friction: rates and index', () => {
  const zero: FrictionTotals = {
    views: 0,
    clicks: 0,
    dead_clicks: 0,
    rage_clicks: 0,
    loop_views: 0,
    backtracks: 0,
    active_ms: 0,
    idle_ms: 0,
  };
  const typical: FrictionTotals = {
    views: 10,
    clicks: 20,
    dead_clicks: 5,
    rage_clicks: 6,
    loop_views: 3,
    backtracks: 2,
    active_ms: 100_000,
    idle_ms: 25_000,
  };
  const rateCases: [string, FrictionTotals, ReturnType<typeof frictionRates>][] = [
    ['all zero', zero, { dead_click: 0, rage_click: 0, loop: 0, backtrack: 0, idle: 0 }],
    [
      'zero denominators give 0 whatever the numerators',
      { ...zero, dead_clicks: 3, rage_clicks: 4, loop_views: 2, backtracks: 1, idle_ms: 5000 },
      { dead_click: 0, rage_click: 0, loop: 0, backtrack: 0, idle: 0 },
    ],
    ['typical', typical, { dead_click: 0.25, rage_click: 0.3, loop: 0.3, backtrack: 0.2, idle: 0.25 }],
    [
      'rates clamp to 1',
      { views: 2, clicks: 2, dead_clicks: 5, rage_clicks: 3, loop_views: 4, backtracks: 9, active_ms: 10, idle_ms: 11 },
      { dead_click: 1, rage_click: 1, loop: 1, backtrack: 1, idle: 1 },
    ],
    [
      'exactly equal is 1',
      { views: 3, clicks: 4, dead_clicks: 4, rage_clicks: 4, loop_views: 3, backtracks: 3, active_ms: 7, idle_ms: 7 },
      { dead_click: 1, rage_click: 1, loop: 1, backtrack: 1, idle: 1 },
    ],
  ];
  for (const [name, totals, expected] of rateCases) {
    it(`rates: ${name}`, () => {
      assert.deepEqual(frictionRates(totals), expected);
    });
  }

  const close = (actual: number, expected: number) =>
    assert.ok(Math.abs(actual - expected) < 1e-12, `${actual} ≠ ${expected}`);

  const indexCases: [string, FrictionTotals, number][] = [
    ['all zero → 0', zero, 0],
    ['zero denominators → 0', { ...zero, dead_clicks: 3, idle_ms: 5 }, 0],
    // 0.25·0.25 + 0.25·0.3 + 0.2·0.3 + 0.15·0.2 + 0.15·0.25
    ['typical', typical, 0.0625 + 0.075 + 0.06 + 0.03 + 0.0375],
    ['only dead clicks, all dead', { ...zero, clicks: 4, dead_clicks: 4 }, 0.25],
    ['only idle, half idle', { ...zero, active_ms: 1000, idle_ms: 500 }, 0.075],
    [
      'everything saturated → 1',
      { views: 1, clicks: 1, dead_clicks: 9, rage_clicks: 9, loop_views: 9, backtracks: 9, active_ms: 1, idle_ms: 9 },
      1,
    ],
  ];
  for (const [name, totals, expected] of indexCases) {
    it(`index with default weights: ${name}`, () => {
      close(frictionIndex(totals, DEFAULT_ANALYTICS.weights), expected);
    });
  }
  it('index of the typical page is 0.265', () => {
    close(frictionIndex(typical, DEFAULT_ANALYTICS.weights), 0.265);
  });

  const weightCases: [string, (typeof config)['weights'], number][] = [
    ['equal weights → mean of the rates', { dead_click: 1, rage_click: 1, loop: 1, backtrack: 1, idle: 1 }, 1.3 / 5],
    ['one weight → that rate', { dead_click: 2, rage_click: 0, loop: 0, backtrack: 0, idle: 0 }, 0.25],
    ['defaults ×40 → same as defaults', { dead_click: 10, rage_click: 10, loop: 8, backtrack: 6, idle: 6 }, 0.265],
    ['all zero → 0', { dead_click: 0, rage_click: 0, loop: 0, backtrack: 0, idle: 0 }, 0],
    [
      'a partial override via analyticsConfig is normalised over all five',
      analyticsConfig({ weights: { dead_click: 1 } }).weights,
      (1 * 0.25 + 0.25 * 0.3 + 0.2 * 0.3 + 0.15 * 0.2 + 0.15 * 0.25) / 1.75,
    ],
  ];
  for (const [name, weights, expected] of weightCases) {
    it(`custom weights: ${name}`, () => {
      close(frictionIndex(typical, weights), expected);
    });
  }

  it('index stays within [0, 1] for any totals and non-negative weights (property)', () => {
    const count = fc.nat({ max: 1000 });
    const weight = fc.double({ min: 0, max: 10, noNaN: true });
    fc.assert(
      fc.property(
        fc.record({
          views: count,
          clicks: count,
          dead_clicks: count,
          rage_clicks: count,
          loop_views: count,
          backtracks: count,
          active_ms: count,
          idle_ms: count,
        }),
        fc.record({ dead_click: weight, rage_click: weight, loop: weight, backtrack: weight, idle: weight }),
        (totals, weights) => {
          const i = frictionIndex(totals, weights);
          assert.ok(i >= 0 && i <= 1 + 1e-12, `index ${i}`);
          const d = frictionIndex(totals, DEFAULT_ANALYTICS.weights);
          assert.ok(d >= 0 && d <= 1 + 1e-12, `default index ${d}`);
        },
      ),
    );
  });
});

describe('friction: common issues (domain/friction/index.ts, commonIssues)', () => {
  it('names each kind once, as every answer spells it, most signals first and ties in one order', () => {
    assert.deepEqual(commonIssues({ dead_click: 2, rage_click: 2, confusion_loop: 5, backtrack: 0, idle: 1 }), [
      'confusion',
      'dead_clicks',
      'rage_clicks',
      'idle',
    ]);
    assert.deepEqual(commonIssues({ backtrack: 1, dead_click: 1 }), ['dead_clicks', 'backtracking']);
    assert.deepEqual(commonIssues({}), []);
  });
});
