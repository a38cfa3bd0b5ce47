import { type PoolClient, inTransaction } from '../../lib/db.js';
import { periodicWorker } from '../../lib/notify.js';
import type { Services } from '../../lib/services.js';
import {
  BEHAVIOURAL_COHORTS,
  COHORT_FEATURES,
  type Clustering,
  type PreviousCohort,
  type UserFacts,
  clusterUsers,
} from './clustering.js';

/** The worker recomputes a project at most this often, however busy it is (clustering costs seconds at scale). */
export const RECOMPUTE_AFTER_MS = 10 * 60_000;

/** Bumped when the rules change, so every project is recomputed once with the new ones. */
const RULES_VERSION = 'v1';

/**
 * Recomputes the behavioural cohorts of one project (or of every project) whose tables changed
 * since their last computation and whose last computation is at least `minAgeMs` old. Each
 * project is one transaction under an advisory lock (another worker skips it): a crash leaves
 * the previous cohorts or the new ones, never a mix. Today's size-history row is written on
 * every pass. Returns how many projects were recomputed.
 */
export async function refreshBehaviouralCohorts(
  services: Services,
  projectId?: string,
  options: { minAgeMs?: number } = {},
): Promise<number> {
  const { db } = services;
  const { rows: projects } = projectId
    ? { rows: [{ project_id: projectId }] }
    : await db.query<{ project_id: string }>('select project_id from projects order by project_id');
  let recomputed = 0;
  for (const { project_id } of projects) {
    const done = await inTransaction(db, async (client) => {
      // One snapshot for the fingerprint and the facts it describes.
      await client.query('set transaction isolation level repeatable read');
      const { rows: lock } = await client.query<{ ok: boolean }>(
        `select pg_try_advisory_xact_lock(hashtextextended('behavioural-cohorts' || $1, 1)) as ok`,
        [project_id],
      );
      if (!lock[0]!.ok) return false;
      const changed = await recomputeIfChanged(client, project_id, options.minAgeMs ?? 0);
      await client.query(
        `insert into behavioural_cohort_sizes (project_id, cohort_id, day, size)
         select project_id, cohort_id, (now() at time zone 'utc')::date, size from behavioural_cohorts where project_id = $1
         on conflict (project_id, cohort_id, day) do update set size = excluded.size
           where behavioural_cohort_sizes.size is distinct from excluded.size`,
        [project_id],
      );
      return changed;
    });
    if (done) recomputed++;
  }
  return recomputed;
}

async function recomputeIfChanged(client: PoolClient, projectId: string, minAgeMs: number): Promise<boolean> {
  const { rows: runs } = await client.query<{ fingerprint: string; young: boolean }>(
    `select fingerprint, computed_at > now() - $2::float8 * interval '1 millisecond' as young
     from behavioural_cohort_runs where project_id = $1`,
    [projectId, minAgeMs],
  );
  if (runs[0]?.young) return false;
  // Every event changes a user's event count; an erasure changes the user count.
  const { rows: prints } = await client.query<{ fingerprint: string; reference_day: string | null }>(
    `select $2 || ':' || count(*) || ':' || coalesce(sum(events), 0) || ':' || coalesce(sum(sessions), 0) || ':' ||
              coalesce(sum(features_used), 0) || ':' || coalesce(max(last_seen_at)::text, '') as fingerprint,
            to_char(max(last_seen_at) at time zone 'utc', 'YYYY-MM-DD') as reference_day
     from user_metrics where project_id = $1`,
    [projectId, RULES_VERSION],
  );
  const { fingerprint, reference_day } = prints[0]!;
  if (runs[0]?.fingerprint === fingerprint) return false;

  const { rows: facts } = await client.query<UserFacts>(
    `select m.user_id, m.sessions, m.days_active, m.features_used, coalesce(fu.n, 0) as features_seen,
            m.avg_session_seconds, m.friction_index,
            to_char(m.first_seen_at at time zone 'utc', 'YYYY-MM-DD') as first_seen_day,
            coalesce(f.views, 0) as views, coalesce(f.loop_views, 0) as loop_views
     from user_metrics m
     left join user_friction f on f.project_id = m.project_id and f.user_id = m.user_id
     left join (select user_id, count(*)::int as n from feature_users where project_id = $1 group by user_id) fu
       on fu.user_id = m.user_id
     where m.project_id = $1`,
    [projectId],
  );
  const { rows: previous } = await client.query<PreviousCohort>(
    'select cohort_id as id, centroid from behavioural_cohorts where project_id = $1',
    [projectId],
  );
  const result = clusterUsers(facts, reference_day ?? '1970-01-01', previous);
  await store(client, projectId, result, fingerprint, reference_day);
  return true;
}

async function store(
  client: PoolClient,
  projectId: string,
  result: Clustering,
  fingerprint: string,
  referenceDay: string | null,
): Promise<void> {
  const c = BEHAVIOURAL_COHORTS;
  // Members go with their cohort (on delete cascade).
  await client.query('delete from behavioural_cohorts where project_id = $1', [projectId]);
  if (result.cohorts.length > 0) {
    await client.query(
      `insert into behavioural_cohorts (project_id, cohort_id, name, size, percentage, characteristics, centroid, traits,
                                        churn_risk, expansion_opportunity, computed_at)
       select $1, x->>'id', x->>'name', (x->>'size')::int, (x->>'percentage')::float8, x->'characteristics',
              x->'centroid', x->'z', x->>'churn_risk', x->>'expansion_opportunity', now()
       from jsonb_array_elements($2::jsonb) x`,
      [projectId, JSON.stringify(result.cohorts.map(({ members: _, ...cohort }) => cohort))],
    );
    const members = result.cohorts.flatMap((cohort) => cohort.members.map((m) => ({ ...m, id: cohort.id })));
    await client.query(
      `insert into behavioural_cohort_members (project_id, cohort_id, user_id, features)
       select $1, u.cohort_id, u.user_id, u.features from unnest($2::text[], $3::text[], $4::jsonb[]) as u(cohort_id, user_id, features)`,
      [
        projectId,
        members.map((m) => m.id),
        members.map((m) => m.user_id),
        members.map((m) => JSON.stringify(m.vector)),
      ],
    );
  }
  const definition = {
    method: 'k-means++ seeding, Lloyd iterations',
    restarts: c.restarts,
    seed: c.seed,
    features: COHORT_FEATURES,
    standardisation: `z-score over the clustered users after log(1 + x) of ${c.logScaled.join(', ')}`,
    criterion: `best mean silhouette over k = ${c.kMin}..${c.kMax}, every cluster at least max(${c.minClusterSize}, ${c.minClusterShare} × users)`,
    exclusion: `fewer than ${c.minSessions} session(s)`,
    reference_day: referenceDay,
    candidates: result.candidates,
  };
  await client.query(
    `insert into behavioural_cohort_runs (project_id, k, silhouette, users_clustered, users_excluded, definition, fingerprint, computed_at)
     values ($1, $2, $3, $4, $5, $6, $7, now())
     on conflict (project_id) do update set k = excluded.k, silhouette = excluded.silhouette,
       users_clustered = excluded.users_clustered, users_excluded = excluded.users_excluded,
       definition = excluded.definition, fingerprint = excluded.fingerprint, computed_at = excluded.computed_at`,
    [
      projectId,
      result.k,
      result.silhouette,
      result.users_clustered,
      result.users_excluded,
      JSON.stringify(definition),
      fingerprint,
    ],
  );
}

/**
 * Wakes every config.pollIntervalMs; a project is recomputed when its tables changed and its
 * last computation is RECOMPUTE_AFTER_MS old (at once when it has none).
 */
export function startBehaviouralCohortWorker(services: Services): Promise<{ stop(): Promise<void> }> {
  const log = services.log.child({ component: 'behavioural-cohorts' });
  const refresh = async () => {
    const recomputed = await refreshBehaviouralCohorts(services, undefined, { minAgeMs: RECOMPUTE_AFTER_MS });
    if (recomputed > 0) log.info({ recomputed }, 'behavioural cohorts recomputed');
  };
  return periodicWorker(refresh, services.config.pollIntervalMs, log);
}
