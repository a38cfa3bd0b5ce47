import assert from 'node:assert/strict';
import { DEFAULT_ANALYTICS, analyticsConfig } from '../../domain/analytics-config.js';
import type { FrictionSignal, SignalKind } from '../../domain/contribution/types.js';
import type { AnalyticsEvent } from '../../domain/event.js';
import { contextOf, sessionOccurrences } from '../../domain/context/occurrences.js';
import type { Session } from '../../domain/session.js';
import { userEvent } from './user-events.js';

const config = analyticsConfig();
const WINDOW = DEFAULT_ANALYTICS.contextSuccessWindowMs;

const ev = userEvent;
const session = (events: AnalyticsEvent[]): Session => ({
  session_id: 's1',
  user_id: 'u1',
  started_at: events[0]!.timestamp,
  ended_at: events.at(-1)!.timestamp,
  events,
});
const sig = (kind: SignalKind, at: number, page: string | null, messageIds: string[] = ['other']): FrictionSignal => ({
  signal_id: `f_${kind}_${at}`,
  kind,
  page,
  element: null,
  at,
  count: messageIds.length,
  timings_ms: [],
  message_ids: messageIds,
});

/** The occurrence of `export_clicked` (message e1, at t = 1000 on /reports) judged against `signals`. */
const judge = (signals: FrictionSignal[], properties: Record<string, unknown> = {}) =>
  sessionOccurrences(
    session([ev('pv', 0, 'page_view', { page: '/reports' }), ev('e1', 1000, 'export_clicked', properties)]),
    signals,
    config,
  )[1]!;

describe('event context: success of an occurrence', () => {
  const cases: [string, FrictionSignal[], Record<string, unknown>, boolean, SignalKind[]][] = [
    ['no friction after it: success', [], {}, true, []],
    [
      'a dead click on its page right after it: failure',
      [sig('dead_click', 1500, '/reports')],
      {},
      false,
      ['dead_click'],
    ],
    [
      `a signal exactly ${WINDOW} ms after it still counts`,
      [sig('rage_click', 1000 + WINDOW, '/reports')],
      {},
      false,
      ['rage_click'],
    ],
    [`a signal ${WINDOW + 1} ms after it does not`, [sig('rage_click', 1001 + WINDOW, '/reports')], {}, true, []],
    ['a signal at the same instant counts', [sig('backtrack', 1000, '/reports')], {}, false, ['backtrack']],
    ['a signal before it does not', [sig('dead_click', 999, '/reports')], {}, true, []],
    ['a signal on another page does not', [sig('dead_click', 1500, '/settings')], {}, true, []],
    ['idle time alone is not a failure', [sig('idle', 1500, '/reports')], {}, true, []],
    [
      'a signal the occurrence itself belongs to fails it (its own click in a rage burst)',
      [sig('rage_click', 1000, '/reports', ['e1', 'e2', 'e3'])],
      {},
      false,
      ['rage_click'],
    ],
    [
      'a signal it belongs to fails it on any page and whenever it starts (a dead click is a failed click)',
      [sig('dead_click', 0, '/elsewhere', ['e1'])],
      {},
      false,
      ['dead_click'],
    ],
    [
      'issues are the distinct kinds, sorted',
      [
        sig('rage_click', 1200, '/reports'),
        sig('dead_click', 1300, '/reports'),
        sig('rage_click', 1400, '/reports'),
        sig('confusion_loop', 1500, '/reports'),
      ],
      {},
      false,
      ['confusion_loop', 'dead_click', 'rage_click'],
    ],
    [
      'the client’s success: true wins over friction',
      [sig('dead_click', 1500, '/reports')],
      { success: true },
      true,
      ['dead_click'],
    ],
    ['the client’s success: false wins over no friction', [], { success: false }, false, []],
    [
      'a success flag that is not a boolean is ignored',
      [sig('dead_click', 1500, '/reports')],
      { success: 'yes' },
      false,
      ['dead_click'],
    ],
  ];
  for (const [name, signals, properties, success, issues] of cases) {
    it(name, () => {
      const occurrence = judge(signals, properties);
      assert.equal(occurrence.success, success);
      assert.deepEqual(occurrence.issues, issues);
    });
  }

  it('judges an event without a page on the page viewed before it', () => {
    const [, , noPage] = sessionOccurrences(
      session([ev('pv', 0, 'page_view', { page: '/a' }), ev('x', 10, 'scroll'), ev('e', 20, 'saved')]),
      [sig('dead_click', 30, '/a')],
      config,
    );
    assert.equal(noPage!.success, false);
  });

  it('honours a project’s own success window', () => {
    const narrow = analyticsConfig({ contextSuccessWindowMs: 100 });
    const [, occurrence] = sessionOccurrences(
      session([ev('pv', 0, 'page_view', { page: '/reports' }), ev('e1', 1000, 'export_clicked')]),
      [sig('dead_click', 1101, '/reports')],
      narrow,
    );
    assert.equal(occurrence!.success, true);
  });
});

describe('event context: the UI context of an occurrence', () => {
  const cases: [string, Record<string, unknown> | undefined, 'empty_state' | 'with_data_present'][] = [
    ['empty_state: true', { empty_state: true }, 'empty_state'],
    ['data_present: false', { data_present: false }, 'empty_state'],
    ['both flags saying empty', { empty_state: true, data_present: false }, 'empty_state'],
    ['empty_state: true wins over data_present: true', { empty_state: true, data_present: true }, 'empty_state'],
    ['data_present: true', { data_present: true }, 'with_data_present'],
    ['empty_state: false', { empty_state: false }, 'with_data_present'],
    ['no flags', {}, 'with_data_present'],
    ['no ui_context at all', undefined, 'with_data_present'],
    ['flags that are not booleans are ignored', { empty_state: 'true', data_present: 0 }, 'with_data_present'],
  ];
  for (const [name, uiContext, expected] of cases) {
    it(name, () => {
      const properties = uiContext === undefined ? {} : { ui_context: uiContext };
      assert.equal(contextOf(ev('e', 0, 'saved', properties)), expected);
    });
  }
});
