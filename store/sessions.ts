import { type IdentityLink, LINKED, linkParams } from './identity-links.js';
import { type AnalyticsConfig, configVersion } from '../domain/analytics-config.js';
import { sessionContribution } from '../domain/contribution/session.js';
import type { FrictionSignal, SessionContribution } from '../domain/contribution/types.js';
import type { AnalyticsEvent } from '../domain/event.js';
import { splitSessions } from '../domain/session.js';
import type { PoolClient } from '../lib/db.js';
import { configsByVersion } from './analytics-configs.js';

export interface SessionWrites {
  /** the stored sessions a batch replaces or drops, with their contributions as stored */
  removed: { projectId: string; c: SessionContribution }[];
  /** with the config their contribution was computed with (recordConfigs records it) */
  added: { projectId: string; userId: string; c: SessionContribution; config: AnalyticsConfig }[];
}

/** A stored session as a writer that takes its contribution away reads it. */
export interface StoredSessionRow {
  project_id: string;
  user_id: string;
  session_id: string;
  started: number;
  ended: number;
  /** Stored only on rows written before sessions named their config. */
  contribution: SessionContribution | null;
  config_version: string | null;
}

/** The columns of a StoredSessionRow, of `sessions` aliased `s`. */
export const STORED_SESSION = `s.project_id, s.user_id, s.session_id, s.contribution, s.config_version,
  (extract(epoch from s.started_at) * 1000)::bigint as started, (extract(epoch from s.ended_at) * 1000)::bigint as ended`;

/**
 * The stored sessions' contributions: as stored on older rows, else computed again from the
 * session's events (`eventsOf`: the stored events within its span, none stored in this
 * transaction) with the config it names (`current`: the projects' configs in force, read first).
 */
export async function storedContributions(
  client: PoolClient,
  sessions: StoredSessionRow[],
  eventsOf: (s: StoredSessionRow) => AnalyticsEvent[],
  current: Map<string, AnalyticsConfig> = new Map(),
): Promise<SessionContribution[]> {
  const configKey = (s: StoredSessionRow) => `${s.project_id}\u0000${s.config_version}`;
  const wanted = new Map<string, { projectId: string; version: string }>();
  for (const s of sessions) {
    if (s.contribution !== null || s.config_version === null) continue;
    const now = current.get(s.project_id);
    if (!now || configVersion(now) !== s.config_version) {
      wanted.set(configKey(s), { projectId: s.project_id, version: s.config_version });
    }
  }
  const older = await configsByVersion(client, [...wanted.values()]);
  return sessions.map((s) => {
    if (s.contribution !== null) return s.contribution;
    const config = older.get(configKey(s)) ?? current.get(s.project_id);
    const [session, ...more] = splitSessions(eventsOf(s), config?.session.gapMs ?? 0, config?.session.maxMs ?? 0);
    if (!config || !session || more.length > 0 || session.session_id !== s.session_id) {
      throw new Error(
        `session ${s.session_id}: its stored events or config (${s.config_version}) do not give it again`,
      );
    }
    return sessionContribution(session, config);
  });
}

/** Each session's events among a user's stored events (in time order, as `splitSessions` sorts them). */
export const eventsWithin = (events: AnalyticsEvent[]) => (s: { started: number; ended: number }) =>
  events.filter((e) => e.timestamp >= s.started && e.timestamp <= s.ended);

/**
 * Replaces the changed sessions and writes what moved of their signals, a statement per table for
 * the whole batch. A session that grew (its id, so its first event, start and day, stay) is updated
 * in place (HOT: no indexed column moves), the others deleted and inserted; a grown session keeps
 * most of its signals as they were, and those are left alone.
 */
export async function writeSessions(client: PoolClient, writes: SessionWrites): Promise<void> {
  const { gone, fresh } = movedSignals(writes);
  await deleteRows(client, 'friction_signals', 'signal_id', gone);
  const key = (projectId: string, c: SessionContribution) => `${projectId}\u0000${c.session_id}`;
  const removed = new Set(writes.removed.map((r) => key(r.projectId, r.c)));
  const grown = new Set(
    writes.added.filter((a) => removed.has(key(a.projectId, a.c))).map((a) => key(a.projectId, a.c)),
  );
  await deleteRows(
    client,
    'sessions',
    'session_id',
    writes.removed
      .filter((r) => !grown.has(key(r.projectId, r.c)))
      .map((r) => ({ projectId: r.projectId, id: r.c.session_id })),
  );
  const [updated, inserted] = partition(writes.added, (a) => grown.has(key(a.projectId, a.c)));
  if (updated.length > 0) await updateSessions(client, updated);
  if (inserted.length > 0) await insertSessions(client, inserted);
  if (fresh.length > 0) await insertSignals(client, fresh);
}

const partition = <T>(items: T[], test: (item: T) => boolean): [T[], T[]] => [
  items.filter(test),
  items.filter((item) => !test(item)),
];

type SignalRow = FrictionSignal & { project_id: string; session_id: string; user_id: string };

/**
 * The stored signals that are gone or changed, and the fresh signals not stored as they are. A
 * signal's id names its session, kind and first event, so the row of an id held alike in a removed
 * and an added session stays as it is.
 */
export function movedSignals({ removed, added }: SessionWrites): {
  gone: { projectId: string; id: string }[];
  fresh: SignalRow[];
} {
  const stored = new Map<string, { projectId: string; signal: FrictionSignal }>();
  for (const r of removed) {
    for (const signal of r.c.signals)
      stored.set(`${r.projectId}\u0000${signal.signal_id}`, { projectId: r.projectId, signal });
  }
  const fresh: SignalRow[] = [];
  for (const a of added) {
    for (const signal of a.c.signals) {
      const key = `${a.projectId}\u0000${signal.signal_id}`;
      const was = stored.get(key);
      if (was && sameSignal(was.signal, signal)) stored.delete(key);
      else fresh.push({ ...signal, project_id: a.projectId, session_id: a.c.session_id, user_id: a.userId });
    }
  }
  return { gone: [...stored.values()].map((s) => ({ projectId: s.projectId, id: s.signal.signal_id })), fresh };
}

const sameList = <T>(a: T[], b: T[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Whether two signals of one id give the same row. */
const sameSignal = (a: FrictionSignal, b: FrictionSignal) =>
  a.kind === b.kind &&
  a.page === b.page &&
  a.element === b.element &&
  a.at === b.at &&
  a.count === b.count &&
  sameList(a.timings_ms, b.timings_ms) &&
  sameList(a.message_ids, b.message_ids);

async function insertSessions(client: PoolClient, added: SessionWrites['added']): Promise<void> {
  await client.query(
    `insert into sessions (project_id, session_id, user_id, day, started_at, ended_at, events, config_version, features)
     select u.project_id, u.session_id, u.user_id, u.day, to_timestamp(u.started / 1000.0), to_timestamp(u.ended / 1000.0),
            u.events, u.config_version, u.features
     from rows from (unnest($1::uuid[]), unnest($2::text[]), unnest($3::text[]), unnest($4::date[]), unnest($5::bigint[]),
                     unnest($6::bigint[]), unnest($7::int[]), unnest($8::text[]), json_array_elements($9::json))
       as u(project_id, session_id, user_id, day, started, ended, events, config_version, features)`,
    [
      added.map((a) => a.projectId),
      added.map((a) => a.c.session_id),
      added.map((a) => a.userId),
      added.map((a) => a.c.day),
      added.map((a) => a.c.started_at),
      added.map((a) => a.c.ended_at),
      added.map((a) => a.c.events),
      added.map((a) => configVersion(a.config)),
      // One JSON array, not a jsonb[]: node-postgres escapes each element of an array (lib/db.ts, jsonArrayParam).
      JSON.stringify(added.map((a) => a.c.features)),
    ],
  );
}

async function updateSessions(client: PoolClient, grown: SessionWrites['added']): Promise<void> {
  await client.query(
    `update sessions s set ended_at = to_timestamp(u.ended / 1000.0), events = u.events, config_version = u.config_version,
                           features = u.features, contribution = null
     from rows from (unnest($1::uuid[]), unnest($2::text[]), unnest($3::bigint[]), unnest($4::int[]), unnest($5::text[]),
                     json_array_elements($6::json))
       as u(project_id, session_id, ended, events, config_version, features)
     where s.project_id = u.project_id and s.session_id = u.session_id`,
    [
      grown.map((a) => a.projectId),
      grown.map((a) => a.c.session_id),
      grown.map((a) => a.c.ended_at),
      grown.map((a) => a.c.events),
      grown.map((a) => configVersion(a.config)),
      JSON.stringify(grown.map((a) => a.c.features)),
    ],
  );
}

async function insertSignals(client: PoolClient, signals: SignalRow[]): Promise<void> {
  await client.query(
    `insert into friction_signals (project_id, signal_id, session_id, user_id, kind, page, element, at, count, timings_ms, message_ids)
     select (s->>'project_id')::uuid, s->>'signal_id', s->>'session_id', s->>'user_id', s->>'kind', s->>'page', s->>'element',
            to_timestamp((s->>'at')::bigint / 1000.0), (s->>'count')::int,
            array(select jsonb_array_elements_text(s->'timings_ms'))::double precision[],
            array(select jsonb_array_elements_text(s->'message_ids'))
     from jsonb_array_elements($1::jsonb) s`,
    [JSON.stringify(signals)],
  );
}

/** Deletes sessions and their friction signals. */
export async function deleteSessions(client: PoolClient, sessions: { projectId: string; sessionId: string }[]) {
  const keys = sessions.map((s) => ({ projectId: s.projectId, id: s.sessionId }));
  for (const table of ['friction_signals', 'sessions']) await deleteRows(client, table, 'session_id', keys);
}

/** Deletes a table's rows by project and `column`. */
async function deleteRows(
  client: PoolClient,
  table: string,
  column: string,
  keys: { projectId: string; id: string }[],
) {
  if (keys.length === 0) return;
  await client.query(
    `delete from ${table} t using unnest($1::uuid[], $2::text[]) as u(project_id, id)
     where t.project_id = u.project_id and t.${column} = u.id`,
    [keys.map((k) => k.projectId), keys.map((k) => k.id)],
  );
}

/** The stored sessions of the anonymous ids of the links (identity stitching takes them out). */
export async function anonymousSessions(client: PoolClient, links: IdentityLink[]): Promise<StoredSessionRow[]> {
  const { rows } = await client.query<StoredSessionRow>(
    `select ${STORED_SESSION} from ${LINKED} join sessions s on s.project_id = l.project_id and s.user_id = l.anonymous_id`,
    linkParams(links),
  );
  return rows;
}

/** A user's time span (epoch ms), in a statement over many users. */
export interface UserWindow {
  projectId: string;
  userId: string;
  lo: number;
  hi: number;
}

/** The stored sessions overlapping each window, with the window's index (1-based, as `i`). */
export async function sessionsInWindows(
  client: PoolClient,
  windows: UserWindow[],
): Promise<(StoredSessionRow & { i: number })[]> {
  const { rows } = await client.query<StoredSessionRow & { i: number }>(
    `select u.i, ${STORED_SESSION}
     from unnest($1::uuid[], $2::text[], $3::bigint[], $4::bigint[]) with ordinality as u(project_id, user_id, lo, hi, i)
     join sessions s on s.project_id = u.project_id and s.user_id = u.user_id
       and s.ended_at > to_timestamp(u.lo / 1000.0) and s.started_at < to_timestamp(u.hi / 1000.0)`,
    [windows.map((w) => w.projectId), windows.map((w) => w.userId), windows.map((w) => w.lo), windows.map((w) => w.hi)],
  );
  return rows;
}

/** The start of each user's latest stored session (epoch ms), for the users that have one. */
export async function latestSessionStarts(
  client: PoolClient,
  users: { projectId: string; userId: string }[],
): Promise<{ project_id: string; user_id: string; latest: number }[]> {
  if (users.length === 0) return [];
  const { rows } = await client.query<{ project_id: string; user_id: string; latest: number | null }>(
    `select u.project_id, u.user_id,
            (select (extract(epoch from s.started_at) * 1000)::bigint from sessions s
             where s.project_id = u.project_id and s.user_id = u.user_id order by s.started_at desc limit 1) as latest
     from unnest($1::uuid[], $2::text[]) as u(project_id, user_id)`,
    [users.map((u) => u.projectId), users.map((u) => u.userId)],
  );
  return rows.flatMap((r) => (r.latest === null ? [] : [{ ...r, latest: r.latest }]));
}

/** The users' stored sessions that overlap the span of their events received at or after `from`. */
export async function sessionsAroundReceived(
  client: PoolClient,
  users: { projectId: string; userId: string }[],
  from: Date,
): Promise<StoredSessionRow[]> {
  const { rows } = await client.query<StoredSessionRow>(
    `select ${STORED_SESSION}
     from sessions s
     join (select project_id, user_id, min(occurred_at) as lo, max(occurred_at) as hi from session_events
           where received_at >= $3 and (project_id, user_id) in (select * from unnest($1::uuid[], $2::text[]))
           group by 1, 2) r using (project_id, user_id)
     where s.started_at <= r.hi and s.ended_at >= r.lo`,
    [users.map((u) => u.projectId), users.map((u) => u.userId), from],
  );
  return rows;
}
