import type { PoolClient } from '../lib/db.js';

/** A (user, feature) a change touched; `from` as in store/answer-tables.ts ChangedUser. */
export interface TouchedFeature {
  projectId: string;
  userId: string;
  feature: string;
  from?: string;
}

/**
 * First sighting / first use of each touched (user, feature), over all the user's sessions. A
 * change that moves only sessions starting on `from` (UTC midnight: K) or later keeps a value
 * earlier than K: its session started before K and is not moved, and every moved session comes
 * after it. A value from K on (or none) is the earliest over the sessions that may hold one: those
 * started from K on, and the one before them, which may run past K (the sessions of a user do not
 * overlap). So a batch reads the sessions of its day, not the user's history. Each session's
 * feature list is expanded once (materialized), not once per touched feature of its user.
 * Returns, per user (project, NUL, user), how many more features they have used (or fewer).
 */
export async function refreshFeatureUsers(client: PoolClient, pairs: TouchedFeature[]): Promise<Map<string, number>> {
  const used = new Map<string, number>();
  if (pairs.length === 0) return used;
  const { rows } = await client.query<{
    project_id: string;
    user_id: string;
    feature: string;
    seen: string | null;
    used: string | null;
    source: string | null;
    was_used: boolean;
  }>(
    `with n as (
       select p.project_id, p.user_id, p.feature, p.k, fu.first_seen_at, fu.first_used_at, fu.first_use_source
       from (select project_id, user_id, feature, from_day::timestamp at time zone 'utc' as k
             from unnest($1::uuid[], $2::text[], $3::text[], $4::date[]) as p(project_id, user_id, feature, from_day)) p
       left join feature_users fu using (project_id, feature, user_id)
       where fu.first_seen_at is null or fu.first_seen_at >= p.k or fu.first_used_at is null or fu.first_used_at >= p.k
     ),
     f as materialized (
       select s.project_id, s.user_id, s.session_id, f.value as facts
       from (select distinct project_id, user_id, k from n) u
       join sessions s on s.project_id = u.project_id and s.user_id = u.user_id
        and s.started_at >= coalesce((select max(b.started_at) from sessions b
                                      where b.project_id = u.project_id and b.user_id = u.user_id and b.started_at < u.k),
                                     '-infinity')
       cross join lateral json_array_elements(coalesce(s.features, s.contribution->'features')) f
     ),
     a as (
       select n.project_id, n.user_id, n.feature,
              to_timestamp(min((f.facts->>'first_seen_at')::bigint) / 1000.0) as seen,
              to_timestamp(min((f.facts->>'first_used_at')::bigint) / 1000.0) as used,
              (array_agg(f.facts->>'first_use_source' order by (f.facts->>'first_used_at')::bigint nulls last, f.session_id))[1]
                as source
       from n join f on f.project_id = n.project_id and f.user_id = n.user_id and f.facts->>'feature' = n.feature
       group by 1, 2, 3
     )
     select project_id, user_id, feature, seen::text, used::text, source, first_used_at is not null as was_used from (
       select n.project_id, n.user_id, n.feature,
              case when n.first_seen_at < n.k then n.first_seen_at else a.seen end as seen,
              case when n.first_used_at < n.k then n.first_used_at else a.used end as used,
              case when n.first_used_at < n.k then n.first_use_source else a.source end as source,
              n.first_seen_at, n.first_used_at, n.first_use_source
       from n left join a using (project_id, user_id, feature)
     ) r
     -- Only what moved is written: a live batch mostly adds to sessions after every first.
     where (seen, used, source) is distinct from (first_seen_at, first_used_at, first_use_source)`,
    [
      pairs.map((p) => p.projectId),
      pairs.map((p) => p.userId),
      pairs.map((p) => p.feature),
      pairs.map((p) => p.from ?? '-infinity'),
    ],
  );
  for (const r of rows) {
    const moved = Number(r.used !== null) - Number(r.was_used);
    const key = `${r.project_id}\u0000${r.user_id}`;
    if (moved !== 0) used.set(key, (used.get(key) ?? 0) + moved);
  }
  const seen = rows.filter((r) => r.seen !== null);
  const gone = rows.filter((r) => r.seen === null);
  if (seen.length > 0) {
    await client.query(
      `insert into feature_users (project_id, feature, user_id, first_seen_at, first_used_at, first_use_source)
       select * from unnest($1::uuid[], $2::text[], $3::text[], $4::timestamptz[], $5::timestamptz[], $6::text[])
       on conflict (project_id, feature, user_id) do update set first_seen_at = excluded.first_seen_at,
         first_used_at = excluded.first_used_at, first_use_source = excluded.first_use_source`,
      [
        seen.map((r) => r.project_id),
        seen.map((r) => r.feature),
        seen.map((r) => r.user_id),
        seen.map((r) => r.seen),
        seen.map((r) => r.used),
        seen.map((r) => r.source),
      ],
    );
  }
  if (gone.length > 0) {
    await client.query(
      `delete from feature_users f using unnest($1::uuid[], $2::text[], $3::text[]) as u(project_id, user_id, feature)
       where f.project_id = u.project_id and f.user_id = u.user_id and f.feature = u.feature`,
      [gone.map((r) => r.project_id), gone.map((r) => r.user_id), gone.map((r) => r.feature)],
    );
  }
  return used;
}
