import { type AdditiveTable, AdditiveDeltas, big, dbl, int } from './additive-deltas.js';
import type { FrictionSignal, SessionContribution } from '../domain/contribution/types.js';
import { addFriction, noFriction } from '../domain/friction/index.js';
import type { PoolClient } from '../lib/db.js';
import { FRICTION_FACT_COLUMNS } from './friction-facts.js';

/** An additive daily table and the rows one session contributes to it. */
interface ContributionTable extends AdditiveTable {
  rows(c: SessionContribution): Record<string, unknown>[];
}

/** The summed facts of a feature's day, per user (feature_user_daily) or over users (feature_daily, segments). */
export const FEATURE_FACTS: [string, string][] = [
  ['sessions_visible', int],
  ['impressions', int],
  ['uses', int],
  ['empty_state_impressions', int],
  ['data_volume_sum', dbl],
  ['data_volume_n', int],
];

/** The session's signals counted per key (`keyOf` null: not counted), as rows of its user and day. */
function signalsPer(
  c: SessionContribution,
  keyOf: (s: FrictionSignal) => Record<string, string> | null,
): Record<string, unknown>[] {
  const counts = new Map<string, { key: Record<string, string>; signals: number }>();
  for (const s of c.signals) {
    const key = keyOf(s);
    if (key === null) continue;
    const id = JSON.stringify(key);
    const entry = counts.get(id) ?? { key, signals: 0 };
    entry.signals++;
    counts.set(id, entry);
  }
  return [...counts.values()].map(({ key, signals }) => ({ ...key, day: c.day, user_id: c.user_id, signals }));
}

const TABLES: ContributionTable[] = [
  {
    table: 'friction_page_daily',
    keys: [
      ['page', 'text'],
      ['day', 'date'],
    ],
    values: [...FRICTION_FACT_COLUMNS, ['rage_episodes', int], ['loops', int], ['idle_gaps', int]],
    rows: (c) => c.pages.map((p) => ({ ...p, day: c.day })),
  },
  {
    table: 'friction_element_daily',
    keys: [
      ['page', 'text'],
      ['element', 'text'],
      ['day', 'date'],
    ],
    values: [
      ['clicks', int],
      ['dead_clicks', int],
      ['rage_clicks', int],
      ['rage_episodes', int],
    ],
    rows: (c) => c.elements.map((e) => ({ ...e, day: c.day })),
  },
  {
    table: 'friction_page_users',
    keys: [
      ['page', 'text'],
      ['day', 'date'],
      ['user_id', 'text'],
    ],
    values: [['signals', int]],
    rows: (c) => signalsPer(c, (s) => (s.page === null ? null : { page: s.page })),
  },
  {
    table: 'friction_element_users',
    keys: [
      ['page', 'text'],
      ['element', 'text'],
      ['day', 'date'],
      ['user_id', 'text'],
    ],
    values: [['signals', int]],
    rows: (c) =>
      signalsPer(c, (s) => (s.page === null || s.element === null ? null : { page: s.page, element: s.element })),
  },
  {
    table: 'user_daily',
    keys: [
      ['user_id', 'text'],
      ['day', 'date'],
    ],
    values: [
      ['sessions', int],
      ['events', int],
      ['duration_ms', big],
    ],
    rows: (c) => [
      { user_id: c.user_id, day: c.day, sessions: 1, events: c.events, duration_ms: c.ended_at - c.started_at },
    ],
  },
  {
    table: 'user_friction',
    keys: [['user_id', 'text']],
    values: FRICTION_FACT_COLUMNS,
    rows: (c) =>
      c.pages.length > 0
        ? [{ user_id: c.user_id, ...c.pages.reduce((sum, p) => addFriction(sum, p), noFriction()) }]
        : [],
  },
  {
    table: 'feature_user_daily',
    keys: [
      ['feature', 'text'],
      ['day', 'date'],
      ['user_id', 'text'],
    ],
    values: FEATURE_FACTS,
    rows: (c) => c.features.map((f) => ({ ...f, day: c.day, user_id: c.user_id, sessions_visible: 1 })),
  },
  {
    table: 'feature_daily',
    keys: [
      ['feature', 'text'],
      ['day', 'date'],
    ],
    values: FEATURE_FACTS,
    rows: (c) => c.features.map((f) => ({ ...f, day: c.day, sessions_visible: 1 })),
  },
  {
    table: 'project_daily',
    keys: [['day', 'date']],
    values: [['sessions', int]],
    rows: (c) => [{ day: c.day, sessions: 1 }],
  },
  {
    table: 'event_context_daily',
    keys: [
      ['event', 'text'],
      ['context', 'text'],
      ['day', 'date'],
    ],
    values: [
      ['count', int],
      ['successes', int],
      ['dead_click', int],
      ['rage_click', int],
      ['confusion_loop', int],
      ['backtrack', int],
    ],
    rows: (c) => c.contexts.map((x) => ({ ...x, day: c.day })),
  },
];

/**
 * Signed sums of session contributions per row of every daily table: a batch subtracts the old
 * contributions of the sessions it changed and adds the new ones, and only the net change is
 * written (AdditiveDeltas). The tables therefore equal the sum over the current sessions exactly
 * (live, replayed or recovered after a crash).
 */
export class ContributionDeltas {
  private readonly deltas = new AdditiveDeltas();

  add(projectId: string, contribution: SessionContribution, sign: 1 | -1): void {
    for (const spec of TABLES) {
      for (const row of spec.rows(contribution)) this.deltas.add(spec, projectId, row, sign);
    }
  }

  /** `only`: the tables to write now (all by default; see perUserTable, sharedTable). */
  apply(client: PoolClient, only?: (spec: AdditiveTable) => boolean): Promise<void> {
    return this.deltas.apply(client, only);
  }
}
