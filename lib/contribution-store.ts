import type { SessionContribution } from './session-contribution.js';
import type { PoolClient } from './db.js';

/** An additive daily table: key columns, summed value columns and their SQL types. */
interface AdditiveTable {
  table: string;
  keys: [string, string][];
  values: [string, string][];
  rows(c: SessionContribution): Record<string, unknown>[];
}

const int = 'int';
const big = 'bigint';
const dbl = 'double precision';

const TABLES: AdditiveTable[] = [
  {
    table: 'friction_page_daily',
    keys: [
      ['page', 'text'],
      ['day', 'date'],
    ],
    values: [
      ['views', int],
      ['clicks', int],
      ['dead_clicks', int],
      ['rage_clicks', int],
      ['rage_episodes', int],
      ['loops', int],
      ['loop_views', int],
      ['backtracks', int],
      ['active_ms', big],
      ['idle_ms', big],
      ['idle_gaps', int],
    ],
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
    rows: (c) => {
      const counts = new Map<string, number>();
      for (const s of c.signals) if (s.page !== null) counts.set(s.page, (counts.get(s.page) ?? 0) + 1);
      return [...counts].map(([page, signals]) => ({ page, day: c.day, user_id: c.user_id, signals }));
    },
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
    values: [
      ['views', int],
      ['clicks', int],
      ['dead_clicks', int],
      ['rage_clicks', int],
      ['loop_views', int],
      ['backtracks', int],
      ['active_ms', big],
      ['idle_ms', big],
    ],
    rows: (c) => {
      const sum = {
        user_id: c.user_id,
        views: 0,
        clicks: 0,
        dead_clicks: 0,
        rage_clicks: 0,
        loop_views: 0,
        backtracks: 0,
        active_ms: 0,
        idle_ms: 0,
      };
      for (const p of c.pages) {
        for (const k of [
          'views',
          'clicks',
          'dead_clicks',
          'rage_clicks',
          'loop_views',
          'backtracks',
          'active_ms',
          'idle_ms',
        ] as const)
          sum[k] += p[k];
      }
      return c.pages.length > 0 ? [sum] : [];
    },
  },
  {
    table: 'feature_user_daily',
    keys: [
      ['feature', 'text'],
      ['day', 'date'],
      ['user_id', 'text'],
    ],
    values: [
      ['sessions_visible', int],
      ['impressions', int],
      ['uses', int],
      ['empty_state_impressions', int],
      ['data_volume_sum', dbl],
      ['data_volume_n', int],
    ],
    rows: (c) => c.features.map((f) => ({ ...f, day: c.day, user_id: c.user_id, sessions_visible: 1 })),
  },
  {
    table: 'feature_daily',
    keys: [
      ['feature', 'text'],
      ['day', 'date'],
    ],
    values: [
      ['sessions_visible', int],
      ['impressions', int],
      ['uses', int],
      ['empty_state_impressions', int],
      ['data_volume_sum', dbl],
      ['data_volume_n', int],
    ],
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
 * written — one upsert per table for the whole batch, then rows whose values all fell to zero
 * are removed. The tables therefore equal the sum over the current sessions exactly (live,
 * replayed or recovered after a crash).
 */
export class ContributionDeltas {
  private readonly rows = new Map<AdditiveTable, Map<string, Record<string, unknown>>>();

  add(projectId: string, contribution: SessionContribution, sign: 1 | -1): void {
    for (const spec of TABLES) {
      let table = this.rows.get(spec);
      if (!table) this.rows.set(spec, (table = new Map<string, Record<string, unknown>>()));
      for (const row of spec.rows(contribution)) {
        const key = JSON.stringify([projectId, ...spec.keys.map(([name]) => row[name])]);
        let sum = table.get(key);
        if (!sum) {
          sum = { project_id: projectId, ...Object.fromEntries(spec.keys.map(([name]) => [name, row[name]])) };
          for (const [name] of spec.values) sum[name] = 0;
          table.set(key, sum);
        }
        for (const [name] of spec.values) sum[name] = (sum[name] as number) + sign * (row[name] as number);
      }
    }
  }

  async apply(client: PoolClient): Promise<void> {
    for (const [spec, table] of this.rows) {
      // Identical old and new contributions cancel out: nothing to write.
      const rows = [...table.values()].filter((r) => spec.values.some(([name]) => Math.abs(r[name] as number) > 1e-12));
      if (rows.length === 0) continue;
      const columns: [string, string][] = [['project_id', 'uuid'], ...spec.keys, ...spec.values];
      const names = columns.map(([name]) => name);
      const keyNames = ['project_id', ...spec.keys.map(([name]) => name)];
      const isZero = (alias: string) =>
        spec.values
          .map(([n, type]) => (type === dbl ? `abs(${alias}.${n}) < 1e-9` : `${alias}.${n} = 0`))
          .join(' and ');
      // The upsert says which rows it left at zero (rarely any): only those are looked up to delete.
      const { rows: emptied } = await client.query<Record<string, string>>(
        `with upserted as (
           insert into ${spec.table} as t (${names.join(', ')})
           select ${names.map((n) => `u.${n}`).join(', ')}
           from unnest(${columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')}) as u(${names.join(', ')})
           on conflict (${keyNames.join(', ')}) do update set
             ${spec.values.map(([n]) => `${n} = t.${n} + excluded.${n}`).join(', ')}
           returning t.*
         )
         select ${keyNames.map((n) => `t.${n}::text`).join(', ')} from upserted t where ${isZero('t')}`,
        columns.map(([name]) => rows.map((r) => r[name])),
      );
      if (emptied.length === 0) continue;
      const keyColumns: [string, string][] = [['project_id', 'uuid'], ...spec.keys];
      await client.query(
        `delete from ${spec.table} t
         using unnest(${keyColumns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')}) as u(${keyNames.join(', ')})
         where ${keyNames.map((n) => `t.${n} = u.${n}`).join(' and ')} and ${isZero('t')}`,
        keyColumns.map(([name]) => emptied.map((r) => r[name])),
      );
    }
  }
}
