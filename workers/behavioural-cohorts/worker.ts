import type { PoolClient } from '../../lib/db.js';
import { projectPass } from '../../store/locks.js';
import { periodicWorker } from '../../lib/notify.js';
import { workerPace } from '../../lib/pacing.js';
import type { Services } from '../../lib/services.js';
import { BEHAVIOURAL_COHORTS, COHORT_FEATURES, type Candidate } from '../../domain/cohorts/behavioural.js';
import { ClusterSums, type CohortOf, assignUser, cohortsOf, fitClusters } from '../../domain/cohorts/clustering.js';
import { eachClusteredChunk, modelSample } from '../../store/behavioural-facts.js';
import {
  type RunTotals,
  addAssigned,
  countTopFeatures,
  createAssigned,
  deleteBehaviouralCohorts,
  deleteCohortIdsBut,
  insertBehaviouralCohorts,
  insertMembers,
  lastRun,
  markRunChecked,
  metricsFingerprint,
  previousCohorts,
  recordMembershipChanges,
  recordRun,
  recordTodaysSizes,
  upsertCohortIds,
} from '../../store/behavioural-cohorts.js';
import { projectIds } from '../../store/projects.js';
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
  const projects = projectId ? [projectId] : await projectIds(db);
  let recomputed = 0;
  for (const project_id of projects) {
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
        await recordTodaysSizes(client, project_id);
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
  const last = await lastRun(client, projectId);
  if (last && last.age_ms < (typeof minAgeMs === 'number' ? minAgeMs : minAgeMs(last.users))) return false;
  // Every event changes a user's event count; an erasure changes the user count.
  const { fingerprint, reference_day, users, clustered } = await metricsFingerprint(
    client,
    projectId,
    RULES_VERSION,
    BEHAVIOURAL_COHORTS.minSessions,
  );
  if (last?.fingerprint === fingerprint) {
    await markRunChecked(client, projectId);
    return false;
  }
  const referenceDay = reference_day ?? '1970-01-01';
  const sample = await modelSample(client, projectId, clustered, sampleLimit);
  const { candidates, model } = fitClusters(sample, referenceDay);
  const run = { candidates, fingerprint, referenceDay: reference_day, sample: sample.length, sampleLimit };
  // Every clustered user to the nearest centroid, a chunk at a time; members wait in a temporary table
  // until their cohorts' ids are known (they depend on all members' means). Without a model it stays
  // empty: every previous member leaves.
  await createAssigned(client);
  if (!model) {
    await store(client, projectId, { k: 0, silhouette: null, users_clustered: 0, users_excluded: users }, [], run);
    return true;
  }
  const sums = new ClusterSums(model.k);
  await eachClusteredChunk(client, projectId, USERS_PER_READ, async (facts) => {
    const assigned = facts.map((f) => assignUser(f, referenceDay, model));
    assigned.forEach((a) => sums.add(a));
    await addAssigned(client, assigned);
  });
  const previous = await previousCohorts(client, projectId);
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
  totals: RunTotals,
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
  await recordMembershipChanges(client, projectId, cohorts);
  // Members go with their cohort (on delete cascade); a cohort no longer found leaves the id space.
  await deleteBehaviouralCohorts(client, projectId);
  await deleteCohortIdsBut(
    client,
    projectId,
    cohorts.map((cohort) => cohort.id),
  );
  if (cohorts.length > 0) {
    await upsertCohortIds(client, projectId, cohorts);
    await insertBehaviouralCohorts(client, projectId, cohorts);
    await insertMembers(client, projectId, cohorts);
    await countTopFeatures(client, projectId, c.topFeatures);
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
  await recordRun(client, projectId, totals, definition, run.fingerprint);
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
