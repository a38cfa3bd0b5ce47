import type { PoolClient } from '../../lib/db.js';
import { projectPass } from '../../store/locks.js';
import { periodicWorker } from '../../lib/notify.js';
import { workerPace } from '../../lib/pacing.js';
import type { Services } from '../../lib/services.js';
import {
  BEHAVIOURAL_COHORTS,
  COHORT_FEATURES,
  type Candidate,
  type Clustering,
  type PreviousCohort,
} from '../../domain/cohorts/behavioural.js';
import { ClusterSums, type CohortOf, assignUser, cohortsOf, fitClusters } from '../../domain/cohorts/clustering.js';
import { eachClusteredChunk, modelSample } from '../../store/behavioural-facts.js';
import { recomputeWaitMs } from './schedule.js';

/**
 * How long after its last computation or check a project is left alone: a fixed time, or one by
 * the users it had then (schedule.ts).
 */
export type RecomputeWait = number | ((users: number) => number);

/** Users assigned to cohorts at once (memory is bounded by this, not by the project). */
const USERS_PER_READ = 5000;

/** Bumped when the rules change, so every project is recomputed once with the new ones. */
const RULES_VERSION = 'v1';

/**
 * Recomputes the behavioural cohorts of one project (or of every project) whose tables changed
 * since their last computation and whose last computation or check is at least `minAgeMs` old. Each
 * project is one transaction under an advisory lock (another worker skips it): a crash leaves
 * the previous cohorts or the new ones, never a mix, with their rows in the id space shared with
 * custom cohorts (`cohorts`) and their membership changes (cohort_changes, published as
 * cohort.changed) in the same transaction. Today's size-history row is written on
 * every pass. Returns how many projects were recomputed. `modelSample` lowers the model's sample
 * (BEHAVIOURAL_COHORTS.modelSample) for tests of a large project's path with few users.
 */
export async function refreshBehaviouralCohorts(
  services: Services,
  projectId?: string,
  options: { minAgeMs?: RecomputeWait; modelSample?: number } = {},
): Promise<number> {
  const { db } = services;
  const { rows: projects } = projectId
    ? { rows: [{ project_id: projectId }] }
    : await db.query<{ project_id: string }>('select project_id from projects order by project_id');
  let recomputed = 0;
  for (const { project_id } of projects) {
    // One snapshot for the fingerprint and the facts it describes.
    const done = await projectPass(
      db,
      'behavioural-cohorts',
      project_id,
      { wait: false, snapshot: true },
      async (client) => {
        const changed = await recomputeIfChanged(
          client,
          project_id,
          options.minAgeMs ?? 0,
          options.modelSample ?? BEHAVIOURAL_COHORTS.modelSample,
        );
        await client.query(
          `insert into behavioural_cohort_sizes (project_id, cohort_id, day, size)
         select project_id, cohort_id, (now() at time zone 'utc')::date, size from behavioural_cohorts where project_id = $1
         on conflict (project_id, cohort_id, day) do update set size = excluded.size
           where behavioural_cohort_sizes.size is distinct from excluded.size`,
          [project_id],
        );
        return changed;
      },
    );
    if (done) recomputed++;
  }
  return recomputed;
}

async function recomputeIfChanged(
  client: PoolClient,
  projectId: string,
  minAgeMs: RecomputeWait,
  sampleLimit: number,
): Promise<boolean> {
  const { rows: runs } = await client.query<{ fingerprint: string; age_ms: number; users: number }>(
    `select fingerprint, extract(epoch from now() - greatest(computed_at, checked_at))::float8 * 1000 as age_ms,
            users_clustered + users_excluded as users
     from behavioural_cohort_runs where project_id = $1`,
    [projectId],
  );
  const last = runs[0];
  if (last && last.age_ms < (typeof minAgeMs === 'number' ? minAgeMs : minAgeMs(last.users))) return false;
  // Every event changes a user's event count; an erasure changes the user count.
  const { rows: prints } = await client.query<{
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
    [projectId, RULES_VERSION, BEHAVIOURAL_COHORTS.minSessions],
  );
  const { fingerprint, reference_day, users, clustered } = prints[0]!;
  if (last?.fingerprint === fingerprint) {
    await client.query('update behavioural_cohort_runs set checked_at = now() where project_id = $1', [projectId]);
    return false;
  }
  const referenceDay = reference_day ?? '1970-01-01';
  const sample = await modelSample(client, projectId, clustered, sampleLimit);
  const { candidates, model } = fitClusters(sample, referenceDay);
  const run = { candidates, fingerprint, referenceDay: reference_day, sample: sample.length, sampleLimit };
  // Every clustered user to the nearest centroid, a chunk at a time; members wait in a temporary table
  // until their cohorts' ids are known (they depend on all members' means). Without a model it stays
  // empty: every previous member leaves.
  await client.query('create temporary table assigned (user_id text, label int, features jsonb) on commit drop');
  if (!model) {
    await store(client, projectId, { k: 0, silhouette: null, users_clustered: 0, users_excluded: users }, [], run);
    return true;
  }
  const sums = new ClusterSums(model.k);
  await eachClusteredChunk(client, projectId, USERS_PER_READ, async (facts) => {
    const assigned = facts.map((f) => assignUser(f, referenceDay, model));
    assigned.forEach((a) => sums.add(a));
    await client.query('insert into assigned select * from unnest($1::text[], $2::int[], $3::jsonb[])', [
      assigned.map((a) => a.user_id),
      assigned.map((a) => a.label),
      assigned.map((a) => JSON.stringify(a.vector)),
    ]);
  });
  const { rows: previous } = await client.query<PreviousCohort>(
    'select cohort_id as id, centroid from behavioural_cohorts where project_id = $1',
    [projectId],
  );
  const cohorts = cohortsOf(sums, model, previous, users);
  const totals = {
    k: model.k,
    silhouette: model.silhouette,
    users_clustered: clustered,
    users_excluded: users - clustered,
  };
  await store(client, projectId, totals, cohorts, run);
  return true;
}

async function store(
  client: PoolClient,
  projectId: string,
  totals: Pick<Clustering, 'k' | 'silhouette' | 'users_clustered' | 'users_excluded'>,
  cohorts: CohortOf[],
  run: {
    candidates: Candidate[];
    fingerprint: string;
    referenceDay: string | null;
    sample: number;
    sampleLimit: number;
  },
): Promise<void> {
  const c = BEHAVIOURAL_COHORTS;
  const ids = cohorts.map((cohort) => cohort.id);
  const labels = cohorts.map((cohort) => cohort.label);
  await recordChanges(client, projectId, cohorts);
  // Members go with their cohort (on delete cascade); a cohort no longer found leaves the id space.
  await client.query('delete from behavioural_cohorts where project_id = $1', [projectId]);
  await client.query(
    `delete from cohorts where project_id = $1 and type = 'behavioral' and not (cohort_id = any ($2::text[]))`,
    [projectId, ids],
  );
  if (cohorts.length > 0) {
    // Its row in the id space shared with custom cohorts, created at its first computation.
    await client.query(
      `insert into cohorts (project_id, cohort_id, name, type) select $1, id, name, 'behavioral'
       from unnest($2::text[], $3::text[]) as x(id, name)
       on conflict (project_id, cohort_id) do update set name = excluded.name`,
      [projectId, ids, cohorts.map((cohort) => cohort.name)],
    );
    await client.query(
      `insert into behavioural_cohorts (project_id, cohort_id, name, size, percentage, characteristics, centroid, traits,
                                        churn_risk, expansion_opportunity, computed_at)
       select $1, x->>'id', x->>'name', (x->>'size')::int, (x->>'percentage')::float8, x->'characteristics',
              x->'centroid', x->'z', x->>'churn_risk', x->>'expansion_opportunity', now()
       from jsonb_array_elements($2::jsonb) x`,
      [projectId, JSON.stringify(cohorts)],
    );
    await client.query(
      `insert into behavioural_cohort_members (project_id, cohort_id, user_id, features)
       select $1, l.cohort_id, a.user_id, a.features from assigned a join unnest($2::int[], $3::text[]) as l(label, cohort_id) using (label)`,
      [projectId, labels, ids],
    );
    // Counted once per computation, not on each GET (docs/adr/0052-cohort-top-features-counted-by-worker.md).
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
      [projectId, c.topFeatures],
    );
  }
  const definition = {
    method: 'k-means++ seeding, Lloyd iterations',
    restarts: c.restarts,
    seed: c.seed,
    features: COHORT_FEATURES,
    standardisation: `z-score over the clustered users after log(1 + x) of ${c.logScaled.join(', ')}, clipped to ±${c.zClip}`,
    criterion: `best mean silhouette over k = ${c.kMin}..${c.kMax}, every cluster at least max(${c.minClusterSize}, ${c.minClusterShare} × users)`,
    exclusion: `fewer than ${c.minSessions} session(s)`,
    sample: `${run.sample} users fit the model (at most ${run.sampleLimit}, evenly spread over the ids); every user goes to the nearest centroid`,
    reference_day: run.referenceDay,
    candidates: run.candidates,
  };
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
      run.fingerprint,
    ],
  );
}

/**
 * Records, per cohort, who joined and who left since the previous computation (the members still in
 * behavioural_cohort_members against those in `assigned`) as cohort_changes rows, published as
 * cohort.changed: a new cohort adds all its members, a cohort no longer found removes all of its own
 * (size 0, under its last name).
 */
async function recordChanges(client: PoolClient, projectId: string, cohorts: CohortOf[]): Promise<void> {
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

/**
 * Wakes every config.pollIntervalMs; a project is recomputed when its tables changed and its
 * last computation or check is recomputeWaitMs(its users then) old (at once when it has none):
 * a project found empty at its first pass gets its cohorts within a minute of its data.
 */
export function startBehaviouralCohortWorker(services: Services): Promise<{ stop(): Promise<void> }> {
  const log = services.log.child({ component: 'behavioural-cohorts' });
  const refresh = async () => {
    const recomputed = await refreshBehaviouralCohorts(services, undefined, { minAgeMs: recomputeWaitMs });
    if (recomputed > 0) log.info({ recomputed }, 'behavioural cohorts recomputed');
  };
  return periodicWorker(refresh, services.config.pollIntervalMs, log, workerPace(services.config));
}
