/**
 * What a warehouse export copies: one destination table per requested table, its columns and the
 * source query. Every destination table also carries project_id and export_id (the export that
 * wrote the row); a project's rows are replaced as a whole on every export.
 */
export type ColumnKind = 'uuid' | 'text' | 'json' | 'timestamptz' | 'date' | 'bigint' | 'double';

export interface WarehouseColumn {
  name: string;
  kind: ColumnKind;
}

export interface WarehouseTable {
  name: string;
  /** destination table name */
  target: string;
  /** data columns in the order the source query returns them */
  columns: WarehouseColumn[];
  /** primary key after project_id */
  key: string[];
  /** `$1` = project id; timestamps and JSON come as text so nothing is lost on the way */
  source: string;
}

const col = (name: string, kind: ColumnKind): WarehouseColumn => ({ name, kind });

export const WAREHOUSE_TABLES: Record<'events' | 'users' | 'features' | 'workflows', WarehouseTable> = {
  // Erased users' events are not in raw_events (erasure deletes them, the raw-sink refuses late ones).
  events: {
    name: 'events',
    target: 'pi_events',
    columns: [
      col('message_id', 'text'),
      col('user_id', 'text'),
      col('event', 'text'),
      col('occurred_at', 'timestamptz'),
      col('received_at', 'timestamptz'),
      col('properties', 'json'),
    ],
    key: ['message_id'],
    source: `select message_id, user_id, event, occurred_at::text, received_at::text, properties::text
             from raw_events where project_id = $1`,
  },
  users: {
    name: 'users',
    target: 'pi_users',
    columns: [
      col('user_id', 'text'),
      col('properties', 'json'),
      col('created_at', 'timestamptz'),
      col('updated_at', 'timestamptz'),
    ],
    key: ['user_id'],
    source: `select user_id, properties::text, created_at::text, updated_at::text from users where project_id = $1`,
  },
  // Per feature and UTC day, the sums the features endpoints are computed from (users_saw and
  // users_used as there: users with a row, users with a use), without the per-user rows.
  features: {
    name: 'features',
    target: 'pi_features',
    columns: [
      col('feature', 'text'),
      col('day', 'date'),
      col('users_saw', 'bigint'),
      col('users_used', 'bigint'),
      col('sessions_visible', 'bigint'),
      col('impressions', 'bigint'),
      col('uses', 'bigint'),
      col('empty_state_impressions', 'bigint'),
      col('data_volume_sum', 'double'),
      col('data_volume_n', 'bigint'),
    ],
    key: ['feature', 'day'],
    source: `select feature, day::text, count(*), count(*) filter (where uses > 0), sum(sessions_visible),
                    sum(impressions), sum(uses), sum(empty_state_impressions), sum(data_volume_sum)::float8,
                    sum(data_volume_n)
             from feature_user_daily where project_id = $1 group by feature, day`,
  },
  // One row per materialized workflow (docs/metrics.md, Workflows), its steps not included. The path
  // is a JSON array rather than text[]/VARCHAR[]: the Postgres writer inserts through unnest of one
  // array per column, and unnest flattens an array of arrays (which must also be rectangular).
  workflows: {
    name: 'workflows',
    target: 'pi_workflows',
    columns: [
      col('goal', 'text'),
      col('workflow_id', 'text'),
      col('rank', 'bigint'),
      col('path', 'json'),
      col('occurrences', 'bigint'),
      col('frequency', 'double'),
      col('users', 'bigint'),
      col('user_share', 'double'),
      col('completion_rate', 'double'),
      col('avg_time_seconds', 'double'),
      col('efficiency_score', 'double'),
      col('optimal_steps', 'bigint'),
      col('actual_avg_steps', 'double'),
    ],
    key: ['workflow_id'],
    source: `select goal, workflow_id, rank, to_jsonb(path)::text, occurrences, frequency, users, user_share,
                    completion_rate, avg_time_seconds, efficiency_score, optimal_steps, actual_avg_steps
             from workflows where project_id = $1`,
  },
};

export type WarehouseTableName = keyof typeof WAREHOUSE_TABLES;

export type Dialect = 'postgres' | 'duckdb';

const TYPES: Record<ColumnKind, Record<Dialect, string>> = {
  uuid: { postgres: 'uuid', duckdb: 'UUID' },
  text: { postgres: 'text', duckdb: 'VARCHAR' },
  json: { postgres: 'jsonb', duckdb: 'JSON' },
  timestamptz: { postgres: 'timestamptz', duckdb: 'TIMESTAMPTZ' },
  date: { postgres: 'date', duckdb: 'DATE' },
  bigint: { postgres: 'bigint', duckdb: 'BIGINT' },
  double: { postgres: 'double precision', duckdb: 'DOUBLE' },
};

export const columnType = (kind: ColumnKind, dialect: Dialect) => TYPES[kind][dialect];

/** Identifiers are double-quoted the same way in Postgres and DuckDB. */
export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** Every column of the destination table: project_id, export_id, then the data columns. */
export const destinationColumns = (table: WarehouseTable): WarehouseColumn[] => [
  col('project_id', 'uuid'),
  col('export_id', 'text'),
  ...table.columns,
];

export function createTableSql(table: WarehouseTable, schema: string, dialect: Dialect): string {
  // Every source column is non-null (sums over at least one row included).
  const columns = destinationColumns(table).map((c) => `${quoteIdent(c.name)} ${columnType(c.kind, dialect)} not null`);
  const key = ['project_id', ...table.key].map(quoteIdent).join(', ');
  return `create table if not exists ${quoteIdent(schema)}.${quoteIdent(table.target)} (${columns.join(', ')}, primary key (${key}))`;
}
