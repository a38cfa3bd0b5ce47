import type { PoolClient } from '../../lib/db.js';
import { type StorableEvent, type StoredEvent, insertSessionEvents } from '../../store/session-events.js';
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
 * stored now.
 */
export async function storeEvents(client: PoolClient, records: StorableEvent[]): Promise<StoredEvent[]> {
  await lockUsers(
    client,
    records.map((r) => ({ projectId: r.project_id, userId: r.user_id })),
  );
  const rows = await insertSessionEvents(client, records);
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
