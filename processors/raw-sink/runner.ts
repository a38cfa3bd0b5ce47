import { RETENTION_DEFAULTS } from '../../domain/retention.js';
import type { EventOnWire } from '../../domain/sealed-user.js';
import { openEvents } from '../../store/user-keys.js';
import type { PostgresSink } from '../runtime/postgres-sink.js';
import { guardUsersAgainstErasure } from '../../store/locks.js';
import { rebuiltBy } from '../../store/tables.js';
import { type RawEventRow, rawRowsOf, toColumns } from './core.js';

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
 * pi.events.v1 → raw_events; a message id already stored in the project is a duplicate and is
 * ignored.
 */
export const rawSink: PostgresSink<EventOnWire> = {
  name: 'raw-sink',
  topic: 'events',
  tables: rebuiltBy('raw-sink'),
  chunk: 1000,
  async write(client, messages) {
    const sent = messages.flatMap((m) => (m.value ? [{ ...m, value: m.value }] : []));
    const opened = await openEvents(
      client,
      sent.map((m) => m.value),
    );
    const { rows, refused } = rawRowsOf(sent, opened);
    if (rows.length === 0) return { refused };
    // Only an erasure of the batch's users is waited for (other sinks' user locks are not).
    await guardUsersAgainstErasure(
      client,
      rows.map((r) => ({ projectId: r.project_id, userId: r.user_id })),
    );
    // Events of a user erased after they were received never come back (live or replayed).
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
    return { refused };
  },
};
