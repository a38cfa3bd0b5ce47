import type { PoolClient } from '../lib/db.js';

/** An additive table: key columns, summed value columns and their SQL types (project_id leads every key). */
export interface AdditiveTable {
  table: string;
  keys: [string, string][];
  values: [string, string][];
}

export const int = 'int';
export const big = 'bigint';
export const dbl = 'double precision';

/** A table of per-user rows (`user_id` in its key): written under the user's lock, never shared. */
export const perUserTable = (spec: AdditiveTable): boolean => spec.keys.some(([name]) => name === 'user_id');
export const sharedTable = (spec: AdditiveTable): boolean => !perUserTable(spec);

/**
 * A row's key as one string, each part tagged by its type after a NUL (text Postgres stores holds
 * none), so distinct keys give distinct strings. Built for every row of every contribution a batch
 * adds or takes away: JSON of an array cost ~8× as much.
 */
function rowKey(spec: AdditiveTable, projectId: string, row: Record<string, unknown>): string {
  let key = projectId;
  for (const [name] of spec.keys) {
    const value = row[name];
    key += typeof value === 'string' ? `\u0000s${value}` : `\u0000${typeof value}${String(value)}`;
  }
  return key;
}

/**
 * What a writer learns of the rows of some tables as `AdditiveDeltas.apply` writes them: each row
 * that appeared (absent before: a table holds no row whose sums are all zero), moved, or emptied
 * (and so deleted), with its key and its sums after the change.
 */
export interface RowWatch {
  tables: ReadonlySet<string>;
  row(spec: AdditiveTable, row: Record<string, unknown>, outcome: 'appeared' | 'moved' | 'emptied'): void;
}

/** Tells `watch` of each row an upsert returned; `deltas` are the rows it was given, in the same key order. */
function watchRows(
  spec: AdditiveTable,
  deltas: Record<string, unknown>[],
  returned: Record<string, unknown>[],
  watch: RowWatch,
): void {
  const keyNames = ['project_id', ...spec.keys.map(([name]) => name)];
  const given = new Map(deltas.map((d) => [keyNames.map((n) => String(d[n])).join('\u0000'), d]));
  for (const row of returned) {
    const delta = given.get(keyNames.map((n) => String(row[n])).join('\u0000'));
    // Sums equal to the delta: they were zero, so the row was not there.
    const appeared = delta !== undefined && spec.values.every(([n]) => Number(row[n]) === Number(delta[n]));
    watch.row(spec, row, row.emptied ? 'emptied' : appeared ? 'appeared' : 'moved');
  }
}

/**
 * Signed sums per row of additive tables, written as net changes: one upsert per table, then the
 * rows whose values all fell to zero are removed, so a table holds exactly its non-zero sums.
 */
export class AdditiveDeltas {
  private readonly rows = new Map<AdditiveTable, Map<string, Record<string, unknown>>>();

  add(spec: AdditiveTable, projectId: string, row: Record<string, unknown>, sign: 1 | -1): void {
    let table = this.rows.get(spec);
    if (!table) this.rows.set(spec, (table = new Map<string, Record<string, unknown>>()));
    const key = rowKey(spec, projectId, row);
    let sum = table.get(key);
    if (!sum) {
      sum = { project_id: projectId, ...Object.fromEntries(spec.keys.map(([name]) => [name, row[name]])) };
      for (const [name] of spec.values) sum[name] = 0;
      table.set(key, sum);
    }
    for (const [name] of spec.values) sum[name] = (sum[name] as number) + sign * Number(row[name]);
  }

  /**
   * Tables in name order and rows in key order: every transaction locks shared rows in the same
   * order, so concurrent writers (partitions, erasure, replay) wait for each other but never deadlock.
   */
  async apply(
    client: PoolClient,
    only: (spec: AdditiveTable) => boolean = () => true,
    watch?: RowWatch,
  ): Promise<void> {
    const tables = [...this.rows]
      .filter(([spec]) => only(spec))
      .sort(([a], [b]) => (a.table < b.table ? -1 : a.table > b.table ? 1 : 0));
    for (const [spec, table] of tables) {
      // Equal subtractions and additions cancel out: nothing to write.
      const rows = [...table]
        .filter(([, r]) => spec.values.some(([name]) => Math.abs(r[name] as number) > 1e-12))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([, r]) => r);
      if (rows.length === 0) continue;
      const columns: [string, string][] = [['project_id', 'uuid'], ...spec.keys, ...spec.values];
      const names = columns.map(([name]) => name);
      const keyNames = ['project_id', ...spec.keys.map(([name]) => name)];
      const isZero = (alias: string) =>
        spec.values
          .map(([n, type]) => (type === dbl ? `abs(${alias}.${n}) < 1e-9` : `${alias}.${n} = 0`))
          .join(' and ');
      // The upsert says which rows it left at zero (rarely any): only those are looked up to delete.
      // A watched table's rows all come back, each with its sums after the change.
      const watched = watch?.tables.has(spec.table) ?? false;
      const { rows: returned } = await client.query<Record<string, string>>(
        `with upserted as (
           insert into ${spec.table} as t (${names.join(', ')})
           select ${names.map((n) => `u.${n}`).join(', ')}
           from unnest(${columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ')}) as u(${names.join(', ')})
           on conflict (${keyNames.join(', ')}) do update set
             ${spec.values.map(([n]) => `${n} = t.${n} + excluded.${n}`).join(', ')}
           returning t.*
         )
         select ${keyNames.map((n) => `t.${n}::text`).join(', ')}${watched ? `, ${spec.values.map(([n]) => `t.${n}`).join(', ')}, ${isZero('t')} as emptied` : ''}
         from upserted t${watched ? '' : ` where ${isZero('t')}`}`,
        columns.map(([name]) => rows.map((r) => r[name])),
      );
      if (watched) watchRows(spec, rows, returned, watch!);
      const emptied = watched ? returned.filter((r) => r.emptied) : returned;
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
