import type { AnalyticsConfig } from '../domain/analytics-config.js';
import { type FrictionTotals, frictionIndex } from '../domain/friction/index.js';
import type { DateRange } from '../domain/date-range.js';
import type { Pool, PoolClient } from '../lib/db.js';
import type { UserRef } from './locks.js';

/** The touched users' rows of user_metrics (cohort criteria are evaluated over them), in one statement. */
export async function refreshUserMetrics(
  client: PoolClient,
  users: UserRef[],
  configs: Map<string, AnalyticsConfig>,
): Promise<void> {
  const { rows: friction } = await client.query<FrictionTotals & { project_id: string; user_id: string }>(
    `select f.* from user_friction f join unnest($1::uuid[], $2::text[]) as u(project_id, user_id)
       on f.project_id = u.project_id and f.user_id = u.user_id`,
    [users.map((u) => u.projectId), users.map((u) => u.userId)],
  );
  const index = new Map(
    friction.map((f) => [`${f.project_id}\u0000${f.user_id}`, frictionIndex(f, configs.get(f.project_id)!.weights)]),
  );
  await client.query(
    `insert into user_metrics (project_id, user_id, events, days_active, sessions, features_used, avg_session_seconds,
                               friction_index, first_seen_at, last_seen_at)
     select u.project_id, u.user_id, coalesce(d.events, 0), coalesce(d.days, 0), coalesce(d.sessions, 0),
            (select count(*) from feature_users f
             where f.project_id = u.project_id and f.user_id = u.user_id and f.first_used_at is not null),
            case when d.sessions > 0 then d.duration_ms / 1000.0 / d.sessions end,
            u.friction_index,
            (select min(started_at) from sessions s where s.project_id = u.project_id and s.user_id = u.user_id),
            (select max(ended_at) from sessions s where s.project_id = u.project_id and s.user_id = u.user_id)
     from unnest($1::uuid[], $2::text[], $3::float8[]) as u(project_id, user_id, friction_index)
     left join lateral (
       select sum(events)::int as events, count(*)::int as days, sum(sessions)::int as sessions, sum(duration_ms) as duration_ms
       from user_daily where project_id = u.project_id and user_id = u.user_id
     ) d on true
     on conflict (project_id, user_id) do update set
       events = excluded.events, days_active = excluded.days_active, sessions = excluded.sessions,
       features_used = excluded.features_used, avg_session_seconds = excluded.avg_session_seconds,
       friction_index = excluded.friction_index, first_seen_at = excluded.first_seen_at, last_seen_at = excluded.last_seen_at`,
    [
      users.map((u) => u.projectId),
      users.map((u) => u.userId),
      users.map((u) => index.get(`${u.projectId}\u0000${u.userId}`) ?? null),
    ],
  );
}

/** Users with at least one session: the denominator of workflows' user_share. */
export async function usersWithSessions(client: PoolClient, projectId: string): Promise<number> {
  const { rows } = await client.query<{ n: number }>(
    'select count(*)::int as n from user_metrics where project_id = $1 and sessions > 0',
    [projectId],
  );
  return rows[0]!.n;
}

/** Users with a session in the days of `range` (their first such day's reach edge): user_share's denominator there. */
export async function usersWithSessionsIn(db: Pool | PoolClient, projectId: string, range: DateRange): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `select coalesce(sum(users), 0)::int as n from user_reach
     where project_id = $1 and day between $2 and $3 and prev_day < $2`,
    [projectId, range.start, range.end],
  );
  return rows[0]!.n;
}
