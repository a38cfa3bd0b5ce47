import { type AdditiveTable, AdditiveDeltas, type RowWatch, big, dbl, int } from './additive-deltas.js';
import type { GrownSession } from '../domain/contribution/growth.js';
import type { FrictionSignal, SessionContribution } from '../domain/contribution/types.js';
import { addFriction, noFriction } from '../domain/friction/index.js';
import type { PoolClient } from '../lib/db.js';
import { FRICTION_FACT_COLUMNS } from './friction-facts.js';

/** An additive daily table and the rows one session contributes to it. */
interface ContributionTable extends AdditiveTable {
  rows(c: SessionContribution): Record<string, unknown>[];
  /**
   * Whether a grown session's old and fresh contribution give this table the same rows (they
   * share the session's day and user), given the list items they hold alike; absent: they may not.
   */
  unmoved?(old: SessionContribution, fresh: SessionContribution, same: Set<Item>): boolean;
}

/** The lists of a contribution whose items each give one row of a table, and what names an item in them. */
const ITEM_LISTS = {
  pages: (p: SessionContribution['pages'][number]) => p.page,
  elements: (e: SessionContribution['elements'][number]) => `${e.page}\u0000${e.element}`,
  features: (f: SessionContribution['features'][number]) => f.feature,
  contexts: (x: SessionContribution['contexts'][number]) => `${x.event}\u0000${x.context}`,
};
type ItemList = keyof typeof ITEM_LISTS;
type Item = SessionContribution[ItemList][number];

/** A table whose rows are the items of one list, each with the session's day (and user). */
interface ItemTable extends AdditiveTable {
  list: ItemList;
  row(c: SessionContribution, item: Item): Record<string, unknown>;
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

/** Whether two contributions' signals lie on the same pages and elements, in the same order. */
const sameSignalPlaces = (old: SessionContribution, fresh: SessionContribution) =>
  old.signals.length === fresh.signals.length &&
  old.signals.every((s, i) => s.page === fresh.signals[i]!.page && s.element === fresh.signals[i]!.element);

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

const TABLES: (ContributionTable | ItemTable)[] = [
  {
    table: 'friction_page_daily',
    keys: [
      ['page', 'text'],
      ['day', 'date'],
    ],
    values: [...FRICTION_FACT_COLUMNS, ['rage_episodes', int], ['loops', int], ['idle_gaps', int]],
    list: 'pages',
    row: (c, p) => ({ ...p, day: c.day }),
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
    list: 'elements',
    row: (c, e) => ({ ...e, day: c.day }),
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
    unmoved: sameSignalPlaces,
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
    unmoved: sameSignalPlaces,
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
    unmoved: (old, fresh, same) => old.pages.length === fresh.pages.length && fresh.pages.every((p) => same.has(p)),
  },
  {
    table: 'feature_user_daily',
    keys: [
      ['feature', 'text'],
      ['day', 'date'],
      ['user_id', 'text'],
    ],
    values: FEATURE_FACTS,
    list: 'features',
    row: (c, f) => ({ ...f, day: c.day, user_id: c.user_id, sessions_visible: 1 }),
  },
  {
    table: 'feature_daily',
    keys: [
      ['feature', 'text'],
      ['day', 'date'],
    ],
    values: FEATURE_FACTS,
    list: 'features',
    row: (c, f) => ({ ...f, day: c.day, sessions_visible: 1 }),
  },
  {
    table: 'project_daily',
    keys: [['day', 'date']],
    values: [['sessions', int]],
    rows: (c) => [{ day: c.day, sessions: 1 }],
    unmoved: () => true,
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
    list: 'contexts',
    row: (c, x) => ({ ...x, day: c.day }),
  },
];

const isItemTable = (spec: ContributionTable | ItemTable): spec is ItemTable => 'list' in spec;

/** Items of two flat records (numbers, strings, null) alike in every field. */
function alike(a: object, b: object): boolean {
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  return keys.length === Object.keys(y).length && keys.every((k) => x[k] === y[k]);
}

/**
 * The items of the lists a grown session's old and fresh contribution hold alike, from both, in
 * pairs of one old and one fresh item (names are unique within a list; a pair cancels exactly).
 */
function unchangedItems(old: SessionContribution, fresh: SessionContribution): Set<Item> {
  const same = new Set<Item>();
  for (const [list, nameOf] of Object.entries(ITEM_LISTS) as [ItemList, (item: Item) => string][]) {
    const before = new Map<string, Item>(old[list].map((item) => [nameOf(item), item]));
    for (const item of fresh[list]) {
      const name = nameOf(item);
      const was = before.get(name);
      if (was === undefined || !alike(was, item)) continue;
      same.add(was).add(item);
      before.delete(name);
    }
  }
  return same;
}

/**
 * Signed sums of session contributions per row of every daily table: a batch subtracts the old
 * contributions of the sessions it changed and adds the new ones, and only the net change is
 * written (AdditiveDeltas). The tables therefore equal the sum over the current sessions exactly
 * (live, replayed or recovered after a crash).
 */
export class ContributionDeltas {
  private readonly deltas = new AdditiveDeltas();

  add(projectId: string, contribution: SessionContribution, sign: 1 | -1): void {
    for (const spec of TABLES) this.addRows(spec, projectId, contribution, sign);
  }

  /**
   * A grown session's change: the fresh contribution added and the old one taken away, but for
   * the rows both give alike, which would cancel (the pair shares its day and user): those of the
   * list items (pages, elements, features, contexts) both hold alike, and of the tables whose
   * rows they leave alone. A session that grew by an event holds mostly such: building and
   * cancelling their rows was a tenth of the processors' time (docs/performance.md).
   */
  addGrowth(projectId: string, [old, fresh]: GrownSession): void {
    const same = unchangedItems(old, fresh);
    for (const spec of TABLES) {
      if (!isItemTable(spec) && spec.unmoved?.(old, fresh, same)) continue;
      this.addRows(spec, projectId, fresh, 1, same);
      this.addRows(spec, projectId, old, -1, same);
    }
  }

  /** `only`: the tables to write now (all by default; see perUserTable, sharedTable); `watch`: see RowWatch. */
  apply(client: PoolClient, only?: (spec: AdditiveTable) => boolean, watch?: RowWatch): Promise<void> {
    return this.deltas.apply(client, only, watch);
  }

  private addRows(
    spec: ContributionTable | ItemTable,
    projectId: string,
    c: SessionContribution,
    sign: 1 | -1,
    skip?: Set<Item>,
  ): void {
    if (!isItemTable(spec)) {
      for (const row of spec.rows(c)) this.deltas.add(spec, projectId, row, sign);
      return;
    }
    for (const item of c[spec.list]) {
      if (!skip?.has(item)) this.deltas.add(spec, projectId, spec.row(c, item), sign);
    }
  }
}
