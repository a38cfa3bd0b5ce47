import { RETENTION_DEFAULTS } from '../domain/retention.js';
import { type PoolClient, toColumns } from '../lib/db.js';

/** Statements on `raw_events`, the raw store the raw sink writes (exports, erasure and replays read it). */

export interface RawEventRow {
  project_id: string;
  message_id: string;
  user_id: string;
  event: string;
  properties: string;
  occurred_at: string;
  received_at: string;
  kafka_partition: number;
  kafka_offset: number;
}

const COLUMNS: (keyof RawEventRow)[] = [
  'project_id',
  'message_id',
  'user_id',
  'event',
  'properties',
  'occurred_at',
  'received_at',
  'kafka_partition',
  'kafka_offset',
];

/**
 * Stores the rows, but repeats, events of a user erased after they were received (live or
 * replayed) and events older than the project keeps raw events (the retention worker deleted
 * them).
 */
export async function insertRawEvents(client: PoolClient, rows: RawEventRow[]): Promise<void> {
  await client.query(
    `insert into raw_events (${COLUMNS.join(', ')})
     select u.* from rows from (unnest($1::uuid[]), unnest($2::text[]), unnest($3::text[]), unnest($4::text[]),
                                jsonb_array_elements($5::jsonb), unnest($6::timestamptz[]), unnest($7::timestamptz[]),
                                unnest($8::int[]), unnest($9::bigint[])) as u(${COLUMNS.join(', ')})
     where not exists (select 1 from deleted_users d
                       where d.project_id = u.project_id and d.user_hash = sha256(convert_to(u.user_id, 'UTF8'))
                         and d.deleted_at >= u.received_at)
       -- Nor do events older than the project keeps raw events (the retention worker deleted them).
       and u.occurred_at >= now() - coalesce((select (p.settings->'retention'->>'rawEventsDays')::int
                                              from projects p where p.project_id = u.project_id), $10) * interval '1 day'
     on conflict (project_id, message_id) do nothing`,
    [...toColumns(rows, COLUMNS, ['properties']), RETENTION_DEFAULTS.rawEventsDays],
  );
}
