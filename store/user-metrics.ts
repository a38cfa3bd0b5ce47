import type { AnalyticsConfig } from '../domain/analytics-config.js';
import { type FrictionTotals, frictionIndex } from '../domain/friction/index.js';
import type { DateRange } from '../domain/date-range.js';
import type { Pool, PoolClient } from '../lib/db.js';
import type { UserRef } from './locks.js';
import type { AdditiveTable, RowWatch } from './additive-deltas.js';
import type { SessionContribution } from '../domain/contribution/types.js';

/** A user's metrics as a batch moves them: sums by the sessions' deltas, extremes by the sessions it adds. */
interface MetricsMove {
  projectId: string;
  userId: string;
  events: number;
  sessions: number;
  durationMs: number;
  daysActive: number;
  featuresUsed: number;
  firstSeen: number;
  lastSeen: number;
  /** The index after the batch; undefined: the batch left the user's friction as it was. */
  frictionIndex?: number | null;
}

/**
 * user_metrics kept by the deltas of a batch, never summed again from the user's history: the
 * sessions' old contributions taken away and the new ones added (events, sessions, time), the
 * user_daily rows that appeared or emptied (days active), the features first used or no longer
 * (feature_users), the earliest start and latest end of the sessions added (the stored events
 * only grow, so a user's first and last times only move out), and the index of the user's
 * user_friction sums after the batch. Its `watch` is given to the per-user tables' apply.
 */
export class UserMetricsMoves {
  private readonly users = new Map<string, MetricsMove>();

  constructor(private readonly configs: Map<string, AnalyticsConfig>) {}

  private user(projectId: string, userId: string): MetricsMove {
    const key = `${projectId}\u0000${userId}`;
    let move = this.users.get(key);
    if (!move) {
      move = {
        projectId,
        userId,
        events: 0,
        sessions: 0,
        durationMs: 0,
        daysActive: 0,
        featuresUsed: 0,
        firstSeen: Infinity,
        lastSeen: -Infinity,
      };
      this.users.set(key, move);
    }
    return move;
  }

  session(projectId: string, c: SessionContribution, sign: 1 | -1): void {
    const move = this.user(projectId, c.user_id);
    move.events += sign * c.events;
    move.sessions += sign;
    move.durationMs += sign * (c.ended_at - c.started_at);
    if (sign === 1) {
      move.firstSeen = Math.min(move.firstSeen, c.started_at);
      move.lastSeen = Math.max(move.lastSeen, c.ended_at);
    }
  }

  /** Per user (project, NUL, user), features they now count as used more (or fewer): refreshFeatureUsers. */
  featuresUsed(moved: Map<string, number>): void {
    for (const [key, n] of moved) {
      const [projectId, userId] = key.split('\u0000') as [string, string];
      this.user(projectId, userId).featuresUsed += n;
    }
  }

  readonly watch: RowWatch = {
    tables: new Set(['user_daily', 'user_friction']),
    row: (spec: AdditiveTable, row: Record<string, unknown>, outcome) => {
      const move = this.user(row.project_id as string, row.user_id as string);
      if (spec.table === 'user_daily') {
        if (outcome !== 'moved') move.daysActive += outcome === 'appeared' ? 1 : -1;
        return;
      }
      move.frictionIndex =
        outcome === 'emptied'
          ? null
          : frictionIndex(row as unknown as FrictionTotals, this.configs.get(move.projectId)!.weights);
    },
  };

  /** Writes the moves: one upsert of every user's sums, extremes and index (when it moved). */
  async write(client: PoolClient): Promise<void> {
    const moves = [...this.users.values()].sort(
      (a, b) => a.projectId.localeCompare(b.projectId) || a.userId.localeCompare(b.userId),
    );
    if (moves.length === 0) return;
    const time = (ms: number) => (Number.isFinite(ms) ? new Date(ms).toISOString() : null);
    await client.query(
      `insert into user_metrics as m (project_id, user_id, events, days_active, sessions, features_used, duration_ms,
                                      avg_session_seconds, first_seen_at, last_seen_at, friction_index)
       select u.project_id, u.user_id, u.events, u.days, u.sessions, u.features, u.duration,
              case when u.sessions > 0 then u.duration / 1000.0 / u.sessions end, u.first_seen, u.last_seen, u.friction
       from unnest($1::uuid[], $2::text[], $3::int[], $4::int[], $5::int[], $6::int[], $7::bigint[], $8::timestamptz[],
                   $9::timestamptz[], $10::float8[])
         as u(project_id, user_id, events, days, sessions, features, duration, first_seen, last_seen, friction)
       on conflict (project_id, user_id) do update set
         events = m.events + excluded.events, days_active = m.days_active + excluded.days_active,
         sessions = m.sessions + excluded.sessions, features_used = m.features_used + excluded.features_used,
         duration_ms = m.duration_ms + excluded.duration_ms,
         avg_session_seconds = case when m.sessions + excluded.sessions > 0
                                    then (m.duration_ms + excluded.duration_ms) / 1000.0 / (m.sessions + excluded.sessions) end,
         first_seen_at = least(m.first_seen_at, excluded.first_seen_at),
         last_seen_at = greatest(m.last_seen_at, excluded.last_seen_at),
         -- null: the batch left the user's friction as it was (an index that fell to none is set below)
         friction_index = coalesce(excluded.friction_index, m.friction_index)`,
      [
        moves.map((m) => m.projectId),
        moves.map((m) => m.userId),
        moves.map((m) => m.events),
        moves.map((m) => m.daysActive),
        moves.map((m) => m.sessions),
        moves.map((m) => m.featuresUsed),
        moves.map((m) => m.durationMs),
        moves.map((m) => time(m.firstSeen)),
        moves.map((m) => time(m.lastSeen)),
        moves.map((m) => m.frictionIndex ?? null),
      ],
    );
    // A user whose sessions all went (an anonymous id moved into its user: identity stitching) has
    // no row, as in a run that never saw them.
    const shrunk = moves.filter((m) => m.sessions < 0);
    if (shrunk.length > 0) {
      await client.query(
        `delete from user_metrics m using unnest($1::uuid[], $2::text[]) as u(project_id, user_id)
         where m.project_id = u.project_id and m.user_id = u.user_id and m.sessions = 0`,
        [shrunk.map((m) => m.projectId), shrunk.map((m) => m.userId)],
      );
    }
    // A user whose friction sums all fell to zero has no index any more (the sink's stored events
    // only grow, so this is rare: none in a live run).
    const none = moves.filter((m) => m.frictionIndex === null);
    if (none.length === 0) return;
    await client.query(
      `update user_metrics m set friction_index = null
       from unnest($1::uuid[], $2::text[]) as u(project_id, user_id)
       where m.project_id = u.project_id and m.user_id = u.user_id`,
      [none.map((m) => m.projectId), none.map((m) => m.userId)],
    );
  }
}

/**
 * The users' rows of user_metrics (cohort criteria are evaluated over them) summed again from their
 * per-user rows, in one statement: after a writer took sessions away without the sink's deltas
 * (`replay --from`'s reset). The sink keeps them by deltas (UserMetricsMoves).
 */
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
    `insert into user_metrics (project_id, user_id, events, days_active, sessions, features_used, duration_ms,
                               avg_session_seconds, friction_index, first_seen_at, last_seen_at)
     select u.project_id, u.user_id, coalesce(d.events, 0), coalesce(d.days, 0), coalesce(d.sessions, 0),
            (select count(*) from feature_users f
             where f.project_id = u.project_id and f.user_id = u.user_id and f.first_used_at is not null),
            coalesce(d.duration_ms, 0), case when d.sessions > 0 then d.duration_ms / 1000.0 / d.sessions end,
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
       features_used = excluded.features_used, duration_ms = excluded.duration_ms,
       avg_session_seconds = excluded.avg_session_seconds,
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
