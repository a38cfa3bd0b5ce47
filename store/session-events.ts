import type { AnalyticsEvent } from '../domain/event.js';
import type { TrackedEventRecord } from '../domain/tracked-event.js';
import { type Pool, type PoolClient, jsonArrayParam } from '../lib/db.js';
import { type IdentityLink, LINKED, linkParams } from './identity-links.js';
import type { UserWindow } from './sessions.js';

/** Statements on `session_events`, the analytics step's events (one row per event and project). */

export type StorableEvent = TrackedEventRecord & { offset: number };

/** An event as a batch stored it, with what the moments it may raise need. */
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

/**
 * Stores the events, except repeats and those of a user erased after they were received; returns
 * the events stored now. The caller holds the users' locks. The properties go as one JSON array
 * (`jsonArrayParam`): chains carry only events new to them, so nearly all are stored.
 */
export async function insertSessionEvents(client: PoolClient, records: StorableEvent[]): Promise<StoredEvent[]> {
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
  return rows;
}

/** Every stored event of the anonymous ids of the links, as the analytics cores see them. */
export async function anonymousEvents(
  client: PoolClient,
  links: IdentityLink[],
): Promise<(AnalyticsEvent & { project_id: string })[]> {
  const { rows } = await client.query<AnalyticsEvent & { project_id: string }>(
    `select e.project_id, e.message_id, e.user_id, e.event, (extract(epoch from e.occurred_at) * 1000)::bigint as timestamp,
            (extract(epoch from e.received_at) * 1000)::bigint as received_at, e.kafka_offset as "offset", e.properties
     from ${LINKED} join session_events e on e.project_id = l.project_id and e.user_id = l.anonymous_id`,
    linkParams(links),
  );
  return rows;
}

/**
 * Moves the anonymous ids' events to their users; returns them as stored under the users. Deleted
 * and inserted rather than updated: the jobs' change log hears of both users from the triggers.
 */
export async function moveSessionEvents(client: PoolClient, links: IdentityLink[]): Promise<StoredEvent[]> {
  const { rows } = await client.query<StoredEvent>(
    `with gone as (
       delete from session_events e using ${LINKED}
       where e.project_id = l.project_id and e.user_id = l.anonymous_id
       returning e.*, l.user_id as to_user)
     insert into session_events (project_id, user_id, message_id, occurred_at, received_at, kafka_offset, event, properties)
     select project_id, to_user, message_id, occurred_at, received_at, kafka_offset, event, properties from gone
     returning project_id, user_id, (extract(epoch from occurred_at) * 1000)::bigint as ms,
               (extract(epoch from received_at) * 1000)::bigint as rx, kafka_offset, event, message_id, null as intervention`,
    linkParams(links),
  );
  return rows;
}

/** The stored events within each window, as the analytics cores see them, by window (in their order). */
export async function eventsInWindows(client: PoolClient, windows: UserWindow[]): Promise<AnalyticsEvent[][]> {
  const { rows } = await client.query<{
    i: number;
    message_id: string;
    ts: number;
    rx: number;
    kafka_offset: number;
    event: string;
    properties: Record<string, unknown>;
  }>(
    `select u.i, e.message_id, (extract(epoch from e.occurred_at) * 1000)::bigint as ts,
            (extract(epoch from e.received_at) * 1000)::bigint as rx, e.kafka_offset, e.event, e.properties
     from unnest($1::uuid[], $2::text[], $3::bigint[], $4::bigint[]) with ordinality as u(project_id, user_id, lo, hi, i)
     join session_events e on e.project_id = u.project_id and e.user_id = u.user_id
       and e.occurred_at between to_timestamp(u.lo / 1000.0) and to_timestamp(u.hi / 1000.0)`,
    [windows.map((w) => w.projectId), windows.map((w) => w.userId), windows.map((w) => w.lo), windows.map((w) => w.hi)],
  );
  const events = windows.map((): AnalyticsEvent[] => []);
  for (const e of rows) {
    events[e.i - 1]!.push({
      message_id: e.message_id,
      user_id: windows[e.i - 1]!.userId,
      event: e.event,
      timestamp: e.ts,
      received_at: e.rx,
      offset: e.kafka_offset,
      properties: e.properties,
    });
  }
  return events;
}

type UserRef = { projectId: string; userId: string };
const userParams = (users: UserRef[]) => [users.map((u) => u.projectId), users.map((u) => u.userId)];

/** The users with events received at or after `from` (a replay from that instant resets them). */
export async function usersReceivedSince(
  db: Pool | PoolClient,
  from: Date,
): Promise<{ project_id: string; user_id: string }[]> {
  const { rows } = await db.query<{ project_id: string; user_id: string }>(
    'select distinct project_id, user_id from session_events where received_at >= $1 order by 1, 2',
    [from],
  );
  return rows;
}

/** Per user, when their events received at or after `from` happened (epoch ms). */
export async function receivedTimesSince(
  client: PoolClient,
  users: UserRef[],
  from: Date,
): Promise<{ project_id: string; user_id: string; times: number[] }[]> {
  const { rows } = await client.query<{ project_id: string; user_id: string; times: number[] }>(
    `select e.project_id, e.user_id, array_agg((extract(epoch from e.occurred_at) * 1000)::bigint) as times
     from session_events e join unnest($1::uuid[], $2::text[]) as u(project_id, user_id) using (project_id, user_id)
     where e.received_at >= $3 group by 1, 2`,
    [...userParams(users), from],
  );
  return rows.map((r) => ({ ...r, times: r.times.map(Number) }));
}

/** An event a replay from an instant deleted; `again`: received before it (fed through the sink again). */
export interface TakenEvent {
  project_id: string;
  user_id: string;
  message_id: string;
  ts: number;
  rx: number;
  kafka_offset: number;
  event: string;
  properties: string;
  again: boolean;
}

/**
 * Deletes the users' events received at or after `from` and every event within the `sessions`'
 * spans (the sessions dropped with them), and answers them.
 */
export async function takeEventsForReplay(
  client: PoolClient,
  users: UserRef[],
  from: Date,
  sessions: UserWindow[],
): Promise<TakenEvent[]> {
  const { rows } = await client.query<TakenEvent>(
    `delete from session_events e
     where ((e.project_id, e.user_id) in (select * from unnest($1::uuid[], $2::text[])) and e.received_at >= $3)
        or exists (select 1 from unnest($4::uuid[], $5::text[], $6::bigint[], $7::bigint[]) as s(project_id, user_id, started, ended)
                   where e.project_id = s.project_id and e.user_id = s.user_id
                     and e.occurred_at between to_timestamp(s.started / 1000.0) and to_timestamp(s.ended / 1000.0))
     returning project_id, user_id, message_id, (extract(epoch from occurred_at) * 1000)::bigint as ts,
               (extract(epoch from received_at) * 1000)::bigint as rx, kafka_offset, event, properties::text as properties,
               received_at < $3 as again`,
    [
      ...userParams(users),
      from,
      sessions.map((s) => s.projectId),
      sessions.map((s) => s.userId),
      sessions.map((s) => s.lo),
      sessions.map((s) => s.hi),
    ],
  );
  return rows;
}
