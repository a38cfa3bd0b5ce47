import type { PoolClient } from '../lib/db.js';

/**
 * First sighting / first use of each touched (user, feature), over all the user's sessions. Each
 * session's feature list is expanded once (materialized), not once per touched feature of its user.
 */
export async function refreshFeatureUsers(
  client: PoolClient,
  pairs: { projectId: string; userId: string; feature: string }[],
): Promise<void> {
  if (pairs.length === 0) return;
  const params = [pairs.map((p) => p.projectId), pairs.map((p) => p.userId), pairs.map((p) => p.feature)];
  await client.query(
    `delete from feature_users f using unnest($1::uuid[], $2::text[], $3::text[]) as u(project_id, user_id, feature)
     where f.project_id = u.project_id and f.user_id = u.user_id and f.feature = u.feature`,
    params,
  );
  await client.query(
    `with f as materialized (
       select s.project_id, s.user_id, s.session_id, f.value as facts
       from (select distinct project_id, user_id from unnest($1::uuid[], $2::text[]) as p(project_id, user_id)) p
       join sessions s on s.project_id = p.project_id and s.user_id = p.user_id
       cross join lateral jsonb_array_elements(s.contribution->'features') f
     )
     insert into feature_users (project_id, feature, user_id, first_seen_at, first_used_at, first_use_source)
     select u.project_id, u.feature, u.user_id,
            to_timestamp(min((f.facts->>'first_seen_at')::bigint) / 1000.0),
            to_timestamp(min((f.facts->>'first_used_at')::bigint) / 1000.0),
            (array_agg(f.facts->>'first_use_source' order by (f.facts->>'first_used_at')::bigint nulls last, f.session_id))[1]
     from unnest($1::uuid[], $2::text[], $3::text[]) as u(project_id, user_id, feature)
     join f on f.project_id = u.project_id and f.user_id = u.user_id and f.facts->>'feature' = u.feature
     group by u.project_id, u.user_id, u.feature`,
    params,
  );
}
