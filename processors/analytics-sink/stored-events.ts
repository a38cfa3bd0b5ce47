import { type TrackedEventRecord } from '../../domain/tracked-event.js';
import { type PoolClient, jsonArrayParam } from '../../lib/db.js';
import { lockUsers } from '../../store/locks.js';
import { projectAnalyticsConfigs } from '../../store/project-config.js';
import type { SessionChainRecord } from '../sessionize/record.js';

/** The events a batch stores: reads and writes of session_events for the analytics sink. */

export interface Touched {
  projectId: string;
  userId: string;
  min: number;
  max: number;
}

export type StorableEvent = TrackedEventRecord & { offset: number };

export interface StoredEvent {
  project_id: string;
  user_id: string;
  ms: number;
  rx: number;
  kafka_offset: number;
  event: string;
  message_id: string;
  intervention: Record<string, unknown> | null;
}

/** A key of a user or of an event within its project (ids are unique per project only). */
export const keyOf = (projectId: string, id: string) => `${projectId}\u0000${id}`;

export function eventsOf(chain: SessionChainRecord): StorableEvent[] {
  return chain.sessions.flatMap((s) =>
    s.events.map((e) => ({
      project_id: chain.project_id,
      user_id: chain.user_id,
      message_id: e.message_id,
      event: e.event,
      timestamp: Number(e.timestamp),
      received_at: Number(e.received_at),
      offset: Number(e.offset),
      properties: e.properties,
    })),
  );
}

export const configsOf = (client: PoolClient, records: StorableEvent[]) =>
  projectAnalyticsConfigs(client, [...new Set(records.map((r) => r.project_id))].sort());

/**
 * Locks the users and stores their events, except repeats (chains written again after a restart
 * of the sessionizer) and those of a user erased after they were received; returns the events
 * stored now. The properties go as one JSON array (`jsonArrayParam`): chains carry only events
 * new to them, so nearly all are stored.
 */
export async function storeEvents(client: PoolClient, records: StorableEvent[]): Promise<StoredEvent[]> {
  await lockUsers(
    client,
    records.map((r) => ({ projectId: r.project_id, userId: r.user_id })),
  );
  const { rows } = await client.query<StoredEvent>(
    `insert into session_events (project_id, user_id, message_id, occurred_at, received_at, kafka_offset, event, properties)
     select u.project_id, u.user_id, u.message_id, to_timestamp(u.ts / 1000.0), to_timestamp(u.rx / 1000.0), u.off,
            u.event, u.properties
     from rows from (unnest($1::uuid[]), unnest($2::text[]), unnest($3::text[]), unnest($4::bigint[]),
                     unnest($5::bigint[]), unnest($6::bigint[]), unnest($7::text[]), jsonb_array_elements($8::jsonb))
       as u(project_id, user_id, message_id, ts, rx, off, event, properties)
     where not exists (select 1 from deleted_users d
                       where d.project_id = u.project_id and d.user_hash = sha256(convert_to(u.user_id, 'UTF8'))
                         and d.deleted_at >= to_timestamp(u.rx / 1000.0))
     on conflict (project_id, message_id) do nothing
     returning project_id, user_id, (extract(epoch from occurred_at) * 1000)::bigint as ms,
               (extract(epoch from received_at) * 1000)::bigint as rx, kafka_offset, event, message_id,
               case when event in ('intervention_shown', 'intervention_accepted') then properties end as intervention`,
    [
      records.map((r) => r.project_id),
      records.map((r) => r.user_id),
      records.map((r) => r.message_id),
      records.map((r) => r.timestamp),
      records.map((r) => r.received_at),
      records.map((r) => r.offset),
      records.map((r) => r.event),
      jsonArrayParam(records.map((r) => r.properties)),
    ],
  );
  return rows.map((row) => ({
    ...row,
    ms: Number(row.ms),
    rx: Number(row.rx),
    kafka_offset: Number(row.kafka_offset),
  }));
}

/** The users with events stored now, each with the time span of those events. */
export function touchedBy(rows: StoredEvent[]): Touched[] {
  const touched = new Map<string, Touched>();
  for (const row of rows) {
    const key = keyOf(row.project_id, row.user_id);
    const t = touched.get(key);
    if (t) {
      t.min = Math.min(t.min, row.ms);
      t.max = Math.max(t.max, row.ms);
    } else touched.set(key, { projectId: row.project_id, userId: row.user_id, min: row.ms, max: row.ms });
  }
  return [...touched.values()].sort(
    (a, b) => a.projectId.localeCompare(b.projectId) || a.userId.localeCompare(b.userId),
  );
}

/**
 * What a held chain must be checked against, read under the users' locks: the users with an erasure
 * on record (their chains may hold events that must not count) and the `moved` stamps of users with
 * identity links (an anonymous id's rows moved into them by another partition: processors/analytics-sink/stitch.ts).
 */
export async function userMarks(
  client: PoolClient,
  users: { projectId: string; userId: string }[],
): Promise<{ erased: Set<string>; moved: Map<string, number> }> {
  if (users.length === 0) return { erased: new Set(), moved: new Map() };
  const { rows } = await client.query<{ project_id: string; user_id: string; erased: boolean; moved: number | null }>(
    `select * from (
       select u.project_id, u.user_id,
              exists (select 1 from deleted_users d
                      where d.project_id = u.project_id and d.user_hash = sha256(convert_to(u.user_id, 'UTF8'))) as erased,
              (select max(l.moved) from identity_links l where l.project_id = u.project_id and l.user_id = u.user_id) as moved
       from unnest($1::uuid[], $2::text[]) as u(project_id, user_id)) m
     where erased or moved is not null`,
    [users.map((u) => u.projectId), users.map((u) => u.userId)],
  );
  return {
    erased: new Set(rows.filter((r) => r.erased).map((r) => keyOf(r.project_id, r.user_id))),
    moved: new Map(rows.flatMap((r) => (r.moved === null ? [] : [[keyOf(r.project_id, r.user_id), r.moved]]))),
  };
}
