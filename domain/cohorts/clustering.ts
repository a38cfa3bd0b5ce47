import { seededRandom } from '../random.js';
import { byCodePoint } from '../time.js';
import {
  BEHAVIOURAL_COHORTS,
  COHORT_FEATURES,
  type Candidate,
  type Clustering,
  type Cohort,
  type PreviousCohort,
  type UserFacts,
  type Vector,
  asArray,
  asVector,
  behaviourVector,
  transformed,
} from './behavioural.js';
import { churnRisk, cohortNames, expansionOpportunity, matchIds } from './cohort-traits.js';
import { type Scaler, fitScaler, kMeans, meanSilhouette, nearest, spread, standardise } from './kmeans.js';

/**
 * Clustering in three steps, so that its cost is bounded whatever the project's size: a model
 * (scaling, k, centroids) is fitted on a bounded sample of users (`fitClusters`), every user is then
 * assigned to the nearest centroid one at a time (`assignUser`, summed into `ClusterSums`), and the
 * cohorts are described from the sums (`cohortsOf`). `clusterUsers` runs the three over users in hand.
 */

/** The users who are clustered; the others count as excluded. */
export const isClustered = (f: UserFacts) => f.sessions >= BEHAVIOURAL_COHORTS.minSessions;

/** What every user is assigned with: the sample's scaling and the chosen k's centroids (standardised). */
export interface ClusterModel {
  k: number;
  silhouette: number;
  scaler: Scaler;
  centroids: number[][];
}

/**
 * k is the candidate in kMin..kMax with the best mean silhouette whose every cluster reaches the
 * minimum size (the smaller k on a tie); with no eligible k there is no model. `sample` are the
 * users the model is fitted on (the clustered ones are taken, in id order). Each k gets its own
 * seeded RNG, so a candidate's fit does not depend on the others.
 */
export function fitClusters(
  sample: UserFacts[],
  referenceDay: string,
): { candidates: Candidate[]; model?: ClusterModel } {
  const c = BEHAVIOURAL_COHORTS;
  const users = sample.filter(isClustered).sort((a, b) => byCodePoint(a.user_id, b.user_id));
  const raw = users.map((u) => transformed(behaviourVector(u, referenceDay)));
  const minSize = Math.max(c.minClusterSize, Math.ceil(c.minClusterShare * users.length));
  const kMax = Math.min(c.kMax, Math.floor(users.length / minSize));
  if (kMax < c.kMin) return { candidates: [] };

  const scaler = fitScaler(raw);
  const points = raw.map((p) => standardise(p, scaler, c.zClip));
  const fitAt = spread(points.length, c.fitSample);
  const silAt = spread(points.length, c.silhouetteSample);
  const candidates: Candidate[] = [];
  let chosen: ClusterModel | undefined;
  for (let k = c.kMin; k <= kMax; k++) {
    const fit = kMeans(
      fitAt.map((i) => points[i]!),
      k,
      seededRandom(c.seed + k),
      { restarts: c.restarts, maxIterations: c.maxIterations },
    );
    const labels = points.map((p) => nearest(p, fit.centroids)[0]);
    const sizes = Array.from({ length: k }, (_, l) => labels.filter((x) => x === l).length);
    const smallest = Math.min(...sizes);
    const eligible = smallest >= minSize;
    const silhouette = eligible
      ? meanSilhouette(
          silAt.map((i) => points[i]!),
          silAt.map((i) => labels[i]!),
          k,
        )
      : null;
    candidates.push({ k, silhouette, smallest, eligible });
    if (silhouette !== null && (!chosen || silhouette > chosen.silhouette)) {
      chosen = { k, silhouette, scaler, centroids: fit.centroids };
    }
  }
  return { candidates, model: chosen };
}

/** A user placed in a cohort: the label of the nearest centroid, and the vector it was judged on. */
export interface Assigned {
  user_id: string;
  label: number;
  vector: Vector;
  /** the vector in the space k-means works in (before standardisation) */
  raw: number[];
}

export function assignUser(f: UserFacts, referenceDay: string, model: ClusterModel): Assigned {
  const vector = behaviourVector(f, referenceDay);
  const raw = transformed(vector);
  return {
    user_id: f.user_id,
    label: nearest(standardise(raw, model.scaler, BEHAVIOURAL_COHORTS.zClip), model.centroids)[0],
    vector,
    raw,
  };
}

/** Per label, the members' count and the sums of their vectors; users are added in id order, as a mean sums them. */
export class ClusterSums {
  readonly n: number[];
  readonly raw: number[][];
  readonly vectors: number[][];

  constructor(k: number, dimensions = COHORT_FEATURES.length) {
    this.n = Array.from({ length: k }, () => 0);
    this.raw = Array.from({ length: k }, () => Array.from({ length: dimensions }, () => 0));
    this.vectors = Array.from({ length: k }, () => Array.from({ length: dimensions }, () => 0));
  }

  add(a: Assigned): void {
    this.n[a.label]!++;
    const vector = asArray(a.vector);
    a.raw.forEach((x, j) => (this.raw[a.label]![j]! += x));
    vector.forEach((x, j) => (this.vectors[a.label]![j]! += x));
  }
}

export type CohortOf = Omit<Cohort, 'members'> & { label: number };

/** A group's mean behaviour vector and what the rules say of it (churn risk, expansion opportunity). */
export type Profile = Pick<Cohort, 'characteristics' | 'churn_risk' | 'expansion_opportunity'>;

/** The profile of the users summed under `label`; undefined when there are none. */
export function profileOf(sums: ClusterSums, label: number): Profile | undefined {
  const n = sums.n[label]!;
  if (n === 0) return undefined;
  const characteristics = asVector(sums.vectors[label]!.map((x) => x / n));
  return {
    characteristics,
    churn_risk: churnRisk(characteristics),
    expansion_opportunity: expansionOpportunity(characteristics),
  };
}

/**
 * Any group of users described by the clusters' rules (a custom cohort): its members' vectors summed
 * under one label, whatever their sessions (a user without any has a vector too).
 */
export class GroupSums extends ClusterSums {
  constructor(private readonly referenceDay: string) {
    super(1);
  }

  addFacts(f: UserFacts): void {
    const vector = behaviourVector(f, this.referenceDay);
    this.add({ user_id: f.user_id, label: 0, vector, raw: transformed(vector) });
  }

  profile(): Profile | undefined {
    return profileOf(this, 0);
  }
}

/**
 * The cohorts from their members' sums: means, names, ids matched to the previous run's, churn risk
 * and expansion opportunity; largest first. `users` is every user considered (clustered or not),
 * the denominator of `percentage`.
 */
export function cohortsOf(
  sums: ClusterSums,
  model: ClusterModel,
  previous: PreviousCohort[],
  users: number,
): CohortOf[] {
  const centroids = sums.raw.map((s, l) => s.map((x) => x / sums.n[l]!));
  const zs = centroids.map((ct) => standardise(ct, model.scaler));
  const names = cohortNames(zs.map(asVector));
  const ids = matchIds(previous, zs, model.scaler, names);
  const cohorts = centroids.map((centroid, l): CohortOf => ({
    label: l,
    id: ids[l]!,
    name: names[l]!,
    size: sums.n[l]!,
    percentage: sums.n[l]! / users,
    // Every cluster has members (k-means keeps none empty).
    ...profileOf(sums, l)!,
    centroid: asVector(centroid),
    z: asVector(zs[l]!),
  }));
  return cohorts.sort((a, b) => b.size - a.size || byCodePoint(a.id, b.id));
}

/** Clusters a project's users in hand: every clustered user is the sample (see modelSample for large projects). */
export function clusterUsers(facts: UserFacts[], referenceDay: string, previous: PreviousCohort[]): Clustering {
  const users = facts.filter(isClustered).sort((a, b) => byCodePoint(a.user_id, b.user_id));
  const { candidates, model } = fitClusters(users, referenceDay);
  const none = { k: 0, silhouette: null, candidates, users_clustered: 0, users_excluded: facts.length, cohorts: [] };
  if (!model) return none;
  const sums = new ClusterSums(model.k);
  const assigned = users.map((u) => assignUser(u, referenceDay, model));
  assigned.forEach((a) => sums.add(a));
  return {
    k: model.k,
    silhouette: model.silhouette,
    candidates,
    users_clustered: users.length,
    users_excluded: facts.length - users.length,
    cohorts: cohortsOf(sums, model, previous, facts.length).map(({ label, ...cohort }) => ({
      ...cohort,
      members: assigned.filter((a) => a.label === label).map((a) => ({ user_id: a.user_id, vector: a.vector })),
    })),
  };
}
