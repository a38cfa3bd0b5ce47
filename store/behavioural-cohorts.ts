import type { Clustering, PreviousCohort } from '../domain/cohorts/behavioural.js';
import type { Assigned, CohortOf } from '../domain/cohorts/clustering.js';
import type { PoolClient } from '../lib/db.js';

/**
 * The behavioural-cohort worker's statements (workers/behavioural-cohorts/worker.ts): its tables
 * (behavioural_cohorts, behavioural_cohort_members, behavioural_cohort_sizes, behavioural_cohort_runs),
 * its rows in the id space shared with custom cohorts (`cohorts`, type 'behavioral') and its
 * cohort_changes rows. Every statement runs in the project's pass (store/locks.ts, projectPass), in
 * one repeatable-read snapshot; the members of a computation wait in the transaction's temporary
 * table `assigned` until their cohorts' ids are known.
 */

/** The run totals stored with a computation. */
export type RunTotals = Pick<Clustering, 'k' | 'silhouette' | 'users_clustered' | 'users_excluded'>;

/** Today's (UTC) size of each of the project's cohorts, written only when it moved. */
export async function recordTodaysSizes(client: PoolClient, projectId: string): Promise<void> {
  await client.query(
    `insert into behavioural_cohort_sizes (project_id, cohort_id, day, size)
         select project_id, cohort_id, (now() at time zone 'utc')::date, size from behavioural_cohorts where project_id = $1
         on conflict (project_id, cohort_id, day) do update set size = excluded.size
           where behavioural_cohort_sizes.size is distinct from excluded.size`,
    [projectId],
  );
}

/** The project's last computation: its fingerprint, how long ago it was computed or checked, and the users it had. */
export async function lastRun(
  client: PoolClient,
  projectId: string,
): Promise<{ fingerprint: string; age_ms: number; users: number } | undefined> {
  const { rows } = await client.query<{ fingerprint: string; age_ms: number; users: number }>(
    `select fingerprint, extract(epoch from now() - greatest(computed_at, checked_at))::float8 * 1000 as age_ms,
            users_clustered + users_excluded as users
     from behavioural_cohort_runs where project_id = $1`,
    [projectId],
  );
  return rows[0];
}

/**
 * What the cohorts are computed from, summed over the project's user_metrics: a fingerprint that
 * moves with every event (a user's event count) and every erasure (the user count), prefixed by
 * `rulesVersion`; the latest day seen; the users, and those with at least `minSessions` sessions.
 */
export async function metricsFingerprint(
  client: PoolClient,
  projectId: string,
  rulesVersion: string,
  minSessions: number,
): Promise<{ fingerprint: string; reference_day: string | null; users: number; clustered: number }> {
  const { rows } = await client.query<{
    fingerprint: string;
    reference_day: string | null;
    users: number;
    clustered: number;
  }>(
    `select $2 || ':' || count(*) || ':' || coalesce(sum(events), 0) || ':' || coalesce(sum(sessions), 0) || ':' ||
              coalesce(sum(features_used), 0) || ':' || coalesce(max(last_seen_at)::text, '') as fingerprint,
            to_char(max(last_seen_at) at time zone 'utc', 'YYYY-MM-DD') as reference_day,
            count(*)::int as users, (count(*) filter (where sessions >= $3))::int as clustered
     from user_metrics where project_id = $1`,
    [projectId, rulesVersion, minSessions],
  );
  return rows[0]!;
}

/** Marks the last computation checked now: nothing changed since. */
export async function markRunChecked(client: PoolClient, projectId: string): Promise<void> {
  await client.query('update behavioural_cohort_runs set checked_at = now() where project_id = $1', [projectId]);
}

/** The transaction's table of assigned members (user, cluster label, features), dropped at commit. */
export async function createAssigned(client: PoolClient): Promise<void> {
  await client.query('create temporary table assigned (user_id text, label int, features jsonb) on commit drop');
}

/** Adds a chunk of assigned users to `assigned`. */
export async function addAssigned(client: PoolClient, assigned: Assigned[]): Promise<void> {
  await client.query('insert into assigned select * from unnest($1::text[], $2::int[], $3::jsonb[])', [
    assigned.map((a) => a.user_id),
    assigned.map((a) => a.label),
    assigned.map((a) => JSON.stringify(a.vector)),
  ]);
}

/** The project's cohorts of the previous computation with their centroids (their ids are kept by nearness). */
export async function previousCohorts(client: PoolClient, projectId: string): Promise<PreviousCohort[]> {
  const { rows } = await client.query<PreviousCohort>(
    'select cohort_id as id, centroid from behavioural_cohorts where project_id = $1',
    [projectId],
  );
  return rows;
}

/**
 * Records, per cohort, who joined and who left since the previous computation (the members still in
 * behavioural_cohort_members against those in `assigned`) as cohort_changes rows, published as
 * cohort.changed: a new cohort adds all its members, a cohort no longer found removes all of its own
 * (size 0, under its last name).
 */
export async function recordMembershipChanges(
  client: PoolClient,
  projectId: string,
  cohorts: CohortOf[],
): Promise<void> {
  await client.query(
    `with now_in as (
       select l.cohort_id, a.user_id from assigned a join unnest($2::int[], $3::text[]) as l(label, cohort_id) using (label)),
     was_in as (select cohort_id, user_id from behavioural_cohort_members where project_id = $1),
     moved as (
       select coalesce(n.cohort_id, w.cohort_id) as cohort_id,
              coalesce(array_agg(n.user_id order by n.user_id) filter (where w.user_id is null), '{}') as added,
              coalesce(array_agg(w.user_id order by w.user_id) filter (where n.user_id is null), '{}') as removed
       from now_in n full join was_in w on w.cohort_id = n.cohort_id and w.user_id = n.user_id
       where n.user_id is null or w.user_id is null
       group by 1)
     insert into cohort_changes (project_id, cohort_id, name, type, added, removed, size)
     select $1, m.cohort_id, coalesce(x.name, c.name), 'behavioral', m.added, m.removed, coalesce(x.size, 0)
     from moved m
     left join unnest($3::text[], $4::text[], $5::int[]) as x(cohort_id, name, size) on x.cohort_id = m.cohort_id
     left join cohorts c on c.project_id = $1 and c.cohort_id = m.cohort_id
     order by m.cohort_id`,
    [
      projectId,
      cohorts.map((cohort) => cohort.label),
      cohorts.map((cohort) => cohort.id),
      cohorts.map((cohort) => cohort.name),
      cohorts.map((cohort) => cohort.size),
    ],
  );
}

/** Deletes the project's behavioural cohorts; their members go with them (on delete cascade). */
export async function deleteBehaviouralCohorts(client: PoolClient, projectId: string): Promise<void> {
  await client.query('delete from behavioural_cohorts where project_id = $1', [projectId]);
}

/** Takes the behavioural cohorts not among `ids` out of the id space shared with custom cohorts. */
export async function deleteCohortIdsBut(client: PoolClient, projectId: string, ids: string[]): Promise<void> {
  await client.query(
    `delete from cohorts where project_id = $1 and type = 'behavioral' and not (cohort_id = any ($2::text[]))`,
    [projectId, ids],
  );
}

/** Each cohort's row in the id space shared with custom cohorts, created at its first computation, renamed after. */
export async function upsertCohortIds(client: PoolClient, projectId: string, cohorts: CohortOf[]): Promise<void> {
  await client.query(
    `insert into cohorts (project_id, cohort_id, name, type) select $1, id, name, 'behavioral'
       from unnest($2::text[], $3::text[]) as x(id, name)
       on conflict (project_id, cohort_id) do update set name = excluded.name`,
    [projectId, cohorts.map((cohort) => cohort.id), cohorts.map((cohort) => cohort.name)],
  );
}

/** The computation's cohorts, with their profile and centroid. */
export async function insertBehaviouralCohorts(
  client: PoolClient,
  projectId: string,
  cohorts: CohortOf[],
): Promise<void> {
  await client.query(
    `insert into behavioural_cohorts (project_id, cohort_id, name, size, percentage, characteristics, centroid, traits,
                                        churn_risk, expansion_opportunity, computed_at)
       select $1, x->>'id', x->>'name', (x->>'size')::int, (x->>'percentage')::float8, x->'characteristics',
              x->'centroid', x->'z', x->>'churn_risk', x->>'expansion_opportunity', now()
       from jsonb_array_elements($2::jsonb) x`,
    [projectId, JSON.stringify(cohorts)],
  );
}

/** The members waiting in `assigned`, each under its cohort's id (found by its label). */
export async function insertMembers(client: PoolClient, projectId: string, cohorts: CohortOf[]): Promise<void> {
  await client.query(
    `insert into behavioural_cohort_members (project_id, cohort_id, user_id, features)
       select $1, l.cohort_id, a.user_id, a.features from assigned a join unnest($2::int[], $3::text[]) as l(label, cohort_id) using (label)`,
    [projectId, cohorts.map((cohort) => cohort.label), cohorts.map((cohort) => cohort.id)],
  );
}

/**
 * Each cohort's `limit` features used by most of its members (feature_users), counted once per
 * computation, not on each GET (docs/adr/0052-cohort-top-features-counted-by-worker.md).
 */
export async function countTopFeatures(client: PoolClient, projectId: string, limit: number): Promise<void> {
  await client.query(
    `update behavioural_cohorts b set top_features = t.features
       from (
         select cohort_id,
                jsonb_agg(jsonb_build_object('feature', feature, 'users', users) order by users desc, feature) as features
         from (
           select m.cohort_id, f.feature, count(*)::int as users,
                  row_number() over (partition by m.cohort_id order by count(*) desc, f.feature) as rank
           from behavioural_cohort_members m
           join feature_users f on f.project_id = m.project_id and f.user_id = m.user_id and f.first_used_at is not null
           where m.project_id = $1
           group by m.cohort_id, f.feature) ranked
         where rank <= $2
         group by cohort_id) t
       where b.project_id = $1 and b.cohort_id = t.cohort_id`,
    [projectId, limit],
  );
}

/** The computation's totals, definition and fingerprint, computed and checked now. */
export async function recordRun(
  client: PoolClient,
  projectId: string,
  totals: RunTotals,
  definition: Record<string, unknown>,
  fingerprint: string,
): Promise<void> {
  await client.query(
    `insert into behavioural_cohort_runs (project_id, k, silhouette, users_clustered, users_excluded, definition, fingerprint,
                                          computed_at, checked_at)
     values ($1, $2, $3, $4, $5, $6, $7, now(), now())
     on conflict (project_id) do update set k = excluded.k, silhouette = excluded.silhouette,
       users_clustered = excluded.users_clustered, users_excluded = excluded.users_excluded,
       definition = excluded.definition, fingerprint = excluded.fingerprint, computed_at = excluded.computed_at,
       checked_at = excluded.checked_at`,
    [
      projectId,
      totals.k,
      totals.silhouette,
      totals.users_clustered,
      totals.users_excluded,
      JSON.stringify(definition),
      fingerprint,
    ],
  );
}
