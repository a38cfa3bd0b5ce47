/**
 * Behavioural cohorts, the pure part (docs/metrics.md, "Behavioural cohorts"): a behaviour
 * vector per user, standardisation, k-means++ with a seeded RNG, k chosen by the best mean
 * silhouette, ids kept by matching centroids to the previous run's, names from the dominant
 * traits, and the churn-risk and expansion rules. No I/O and no clock: the same facts and the
 * same previous clusters always give the same cohorts, which is what makes a replay equal.
 */

/** The spec's characteristics, in this order in every vector. */
export const COHORT_FEATURES = [
  'avg_features_used',
  'daily_active_rate',
  'avg_session_length',
  'efficiency_score',
  'friction_index',
  'loop_patterns_rate',
] as const;
export type CohortFeature = (typeof COHORT_FEATURES)[number];
export type Vector = Record<CohortFeature, number>;

export const BEHAVIOURAL_COHORTS = {
  /** Users with fewer sessions have too little behaviour to place; they are counted as excluded. */
  minSessions: 1,
  /** k is chosen from this range (bounded by the users available for clusters of minimum size). */
  kMin: 2,
  kMax: 8,
  /** A k whose smallest cluster is below max(minClusterSize, minClusterShare × users) is not eligible. */
  minClusterSize: 5,
  minClusterShare: 0.02,
  /** k-means++ restarts per k (the lowest inertia wins) and Lloyd iterations per restart. */
  restarts: 5,
  maxIterations: 100,
  seed: 0x5eed,
  /** Fitting and silhouettes use at most this many users, evenly spread over the sorted ids. */
  fitSample: 5000,
  silhouetteSample: 2000,
  /** Skewed counts and durations are compared on log(1 + x). */
  logScaled: ['avg_features_used', 'avg_session_length'] as readonly CohortFeature[],
  /** A new centroid keeps a previous cohort's id when at most this far from it (standardised units). */
  matchDistance: 2,
  /** |z| below this is "like everyone else" when naming. */
  nameThreshold: 0.5,
  churn: {
    /** A daily active rate at or above this counts as fully active. */
    activeRate: 0.5,
    /** A Friction Index at or above this counts as fully frustrated. */
    frictionIndex: 0.5,
    /** Using at least this many features counts as fully adopted. */
    features: 3,
    weights: { inactivity: 0.5, friction: 0.3, shallow: 0.2 },
    /** Upper bounds of very_low, low, medium, high; above the last is very_high. */
    levels: [0.2, 0.4, 0.6, 0.8],
  },
  expansion: {
    features: 5,
    weights: { activity: 0.4, efficiency: 0.3, breadth: 0.3 },
    /** Lower bounds of high and medium; below is low. */
    levels: [0.6, 0.35],
  },
} as const;

/** One user's facts, read from the materialized tables. */
export interface UserFacts {
  user_id: string;
  sessions: number;
  days_active: number;
  features_used: number;
  /** Features the user saw or used (feature_users rows). */
  features_seen: number;
  avg_session_seconds: number | null;
  friction_index: number | null;
  /** UTC day of the user's first session, YYYY-MM-DD. */
  first_seen_day: string | null;
  views: number;
  loop_views: number;
}

const DAY_MS = 86_400_000;

/**
 * The behaviour vector. `referenceDay` is the project's latest active day (not today), so the
 * vector depends on the tables only. Efficiency is the user's own engagement conversion with
 * Laplace's rule of succession, (used + 1) / (seen + 2): a user who saw no feature sits at ½
 * instead of looking as inefficient as one who ignored everything they saw.
 */
export function behaviourVector(f: UserFacts, referenceDay: string): Vector {
  const span = f.first_seen_day ? Math.max(0, (Date.parse(referenceDay) - Date.parse(f.first_seen_day)) / DAY_MS) : 0;
  return {
    avg_features_used: f.features_used,
    daily_active_rate: Math.min(1, f.days_active / (span + 1)),
    avg_session_length: f.avg_session_seconds ?? 0,
    efficiency_score: (f.features_used + 1) / (Math.max(f.features_seen, f.features_used) + 2),
    friction_index: f.friction_index ?? 0,
    loop_patterns_rate: f.views > 0 ? Math.min(1, f.loop_views / f.views) : 0,
  };
}

/** The space k-means works in, before standardisation. */
function transformed(v: Vector): number[] {
  return COHORT_FEATURES.map((name) =>
    BEHAVIOURAL_COHORTS.logScaled.includes(name) ? Math.log1p(Math.max(0, v[name])) : v[name],
  );
}

export interface Scaler {
  mean: number[];
  std: number[];
}

/** Per-feature mean and population standard deviation; a constant feature scales to 0. */
export function fitScaler(points: number[][]): Scaler {
  const d = COHORT_FEATURES.length;
  const mean = Array.from({ length: d }, (_, j) => points.reduce((s, p) => s + p[j]!, 0) / points.length);
  const std = mean.map((m, j) => Math.sqrt(points.reduce((s, p) => s + (p[j]! - m) ** 2, 0) / points.length));
  return { mean, std };
}

export const standardise = (p: number[], s: Scaler) =>
  p.map((x, j) => (s.std[j]! > 1e-12 ? (x - s.mean[j]!) / s.std[j]! : 0));

/** mulberry32: a small seeded PRNG, so the same input always gives the same clusters. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sq = (a: number[], b: number[]) => {
  let s = 0;
  for (let j = 0; j < a.length; j++) s += (a[j]! - b[j]!) ** 2;
  return s;
};

/** Index of the nearest centroid (the lowest index on a tie) and the squared distance to it. */
function nearest(p: number[], centroids: number[][]): [number, number] {
  let best = 0;
  let bestD = Infinity;
  centroids.forEach((c, i) => {
    const d = sq(p, c);
    if (d < bestD) [best, bestD] = [i, d];
  });
  return [best, bestD];
}

/** k-means++ seeding (Arthur & Vassilvitskii 2007): each next centre drawn with probability ∝ D². */
function seedCentroids(points: number[][], k: number, random: () => number): number[][] {
  const centroids = [points[Math.floor(random() * points.length)]!];
  const d2 = points.map((p) => sq(p, centroids[0]!));
  while (centroids.length < k) {
    const total = d2.reduce((a, b) => a + b, 0);
    let pick = 0;
    if (total > 0) {
      let r = random() * total;
      while (pick < points.length - 1 && (r -= d2[pick]!) > 0) pick++;
    } else pick = centroids.length % points.length;
    centroids.push(points[pick]!);
    points.forEach((p, i) => (d2[i] = Math.min(d2[i]!, sq(p, points[pick]!))));
  }
  return centroids.map((c) => [...c]);
}

export interface KMeansFit {
  centroids: number[][];
  labels: number[];
  inertia: number;
}

/** Lloyd's algorithm from k-means++ seeds, best of `restarts` by inertia. */
export function kMeans(points: number[][], k: number, random: () => number): KMeansFit {
  let best: KMeansFit | undefined;
  for (let run = 0; run < BEHAVIOURAL_COHORTS.restarts; run++) {
    const centroids = seedCentroids(points, k, random);
    let labels = points.map(() => -1);
    for (let it = 0; it < BEHAVIOURAL_COHORTS.maxIterations; it++) {
      const next = points.map((p) => nearest(p, centroids)[0]);
      if (next.every((l, i) => l === labels[i])) break;
      labels = next;
      for (let c = 0; c < k; c++) {
        const members = points.filter((_, i) => labels[i] === c);
        if (members.length > 0) centroids[c] = mean(members);
        else {
          // An empty cluster takes the point farthest from its centroid (the first on a tie).
          let far = 0;
          let farD = -1;
          points.forEach((p, i) => {
            const d = sq(p, centroids[labels[i]!]!);
            if (d > farD) [far, farD] = [i, d];
          });
          centroids[c] = [...points[far]!];
          labels[far] = c;
        }
      }
    }
    const inertia = points.reduce((s, p, i) => s + sq(p, centroids[labels[i]!]!), 0);
    if (!best || inertia < best.inertia) best = { centroids, labels, inertia };
  }
  return best!;
}

function mean(points: number[][]): number[] {
  return points[0]!.map((_, j) => points.reduce((s, p) => s + p[j]!, 0) / points.length);
}

/** Evenly spread indices: all of 0..n-1 when n ≤ max. */
function spread(n: number, max: number): number[] {
  return Array.from({ length: Math.min(n, max) }, (_, i) => Math.floor((i * n) / Math.min(n, max)));
}

/** Mean silhouette (Rousseeuw 1987) of labelled points: (b − a) / max(a, b) per point, a singleton scoring 0. */
export function meanSilhouette(points: number[][], labels: number[], k: number): number {
  let total = 0;
  for (let i = 0; i < points.length; i++) {
    const sums = new Array<number>(k).fill(0);
    const counts = new Array<number>(k).fill(0);
    for (let j = 0; j < points.length; j++) {
      if (i === j) continue;
      sums[labels[j]!]! += Math.sqrt(sq(points[i]!, points[j]!));
      counts[labels[j]!]!++;
    }
    const own = labels[i]!;
    if (counts[own] === 0) continue;
    const a = sums[own]! / counts[own]!;
    let b = Infinity;
    for (let c = 0; c < k; c++) if (c !== own && counts[c]! > 0) b = Math.min(b, sums[c]! / counts[c]!);
    if (Number.isFinite(b) && Math.max(a, b) > 0) total += (b - a) / Math.max(a, b);
  }
  return total / points.length;
}

export interface Candidate {
  k: number;
  silhouette: number | null;
  smallest: number;
  eligible: boolean;
}

export interface PreviousCohort {
  id: string;
  /** Centroid in the transformed (log-scaled, not standardised) space, by feature name. */
  centroid: Vector;
}

export type ChurnRisk = 'very_low' | 'low' | 'medium' | 'high' | 'very_high';
export type Expansion = 'high' | 'medium' | 'low';

export interface Cohort {
  id: string;
  name: string;
  size: number;
  percentage: number;
  /** Members' mean of each raw feature. */
  characteristics: Vector;
  /** Transformed-space centroid (what the next run matches against). */
  centroid: Vector;
  /** Standardised centroid: how the cohort differs from all clustered users. */
  z: Vector;
  churn_risk: ChurnRisk;
  expansion_opportunity: Expansion;
  members: { user_id: string; vector: Vector }[];
}

export interface Clustering {
  k: number;
  silhouette: number | null;
  candidates: Candidate[];
  users_clustered: number;
  users_excluded: number;
  cohorts: Cohort[];
}

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const asVector = (xs: number[]) => Object.fromEntries(COHORT_FEATURES.map((f, j) => [f, xs[j]!])) as Vector;
const asArray = (v: Vector) => COHORT_FEATURES.map((f) => v[f]);

/**
 * Clusters a project's users. k is the candidate in kMin..kMax with the best mean silhouette
 * whose every cluster reaches the minimum size (the smaller k on a tie); with no eligible k
 * there are no cohorts. Each k gets its own seeded RNG, so a candidate's fit does not depend
 * on the others.
 */
export function clusterUsers(facts: UserFacts[], referenceDay: string, previous: PreviousCohort[]): Clustering {
  const c = BEHAVIOURAL_COHORTS;
  const users = facts.filter((f) => f.sessions >= c.minSessions).sort((a, b) => byCodePoint(a.user_id, b.user_id));
  const vectors = users.map((u) => behaviourVector(u, referenceDay));
  const raw = vectors.map(transformed);
  const empty = { users_clustered: 0, users_excluded: facts.length, cohorts: [] };
  const minSize = Math.max(c.minClusterSize, Math.ceil(c.minClusterShare * users.length));
  const kMax = Math.min(c.kMax, Math.floor(users.length / minSize));
  if (kMax < c.kMin) return { k: 0, silhouette: null, candidates: [], ...empty };

  const scaler = fitScaler(raw);
  const points = raw.map((p) => standardise(p, scaler));
  const fitAt = spread(points.length, c.fitSample);
  const silAt = spread(points.length, c.silhouetteSample);
  const candidates: Candidate[] = [];
  let chosen: { k: number; labels: number[]; silhouette: number } | undefined;
  for (let k = c.kMin; k <= kMax; k++) {
    const fit = kMeans(
      fitAt.map((i) => points[i]!),
      k,
      seededRandom(c.seed + k),
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
    if (silhouette !== null && (!chosen || silhouette > chosen.silhouette)) chosen = { k, labels, silhouette };
  }
  if (!chosen) return { k: 0, silhouette: null, candidates, ...empty };

  const groups = Array.from({ length: chosen.k }, (_, l) =>
    users.flatMap((_, i) => (chosen.labels[i] === l ? [i] : [])),
  );
  const centroids = groups.map((g) => mean(g.map((i) => raw[i]!)));
  const zs = centroids.map((ct) => standardise(ct, scaler));
  const names = cohortNames(zs.map(asVector));
  const ids = matchIds(previous, zs, scaler, names);
  const cohorts = groups.map((g, l): Cohort => {
    const characteristics = asVector(mean(g.map((i) => asArray(vectors[i]!))));
    return {
      id: ids[l]!,
      name: names[l]!,
      size: g.length,
      percentage: g.length / facts.length,
      characteristics,
      centroid: asVector(centroids[l]!),
      z: asVector(zs[l]!),
      churn_risk: churnRisk(characteristics),
      expansion_opportunity: expansionOpportunity(characteristics),
      members: g.map((i) => ({ user_id: users[i]!.user_id, vector: vectors[i]! })),
    };
  });
  cohorts.sort((a, b) => b.size - a.size || byCodePoint(a.id, b.id));
  return {
    k: chosen.k,
    silhouette: chosen.silhouette,
    candidates,
    users_clustered: users.length,
    users_excluded: facts.length - users.length,
    cohorts,
  };
}

/**
 * Ids survive recomputation: all (previous, new) centroid pairs, both standardised with the
 * current scaler, are taken greedily nearest first (ties by previous id, then new index) and a
 * pair within `matchDistance` keeps the previous id. An unmatched cohort gets an id from its
 * name (`bc_power_users`), so a fresh computation — a replay — names ids the same way.
 */
export function matchIds(previous: PreviousCohort[], zs: number[][], scaler: Scaler, names: string[]): string[] {
  const before = previous.map((p) => ({ id: p.id, z: standardise(transformedCentroid(p.centroid), scaler) }));
  const pairs = before
    .flatMap((p) => zs.map((z, n) => ({ id: p.id, n, d: Math.sqrt(sq(p.z, z)) })))
    .sort((a, b) => a.d - b.d || byCodePoint(a.id, b.id) || a.n - b.n);
  const ids: (string | undefined)[] = zs.map(() => undefined);
  const taken = new Set<string>();
  for (const { id, n, d } of pairs) {
    if (d > BEHAVIOURAL_COHORTS.matchDistance) break;
    if (ids[n] !== undefined || taken.has(id)) continue;
    ids[n] = id;
    taken.add(id);
  }
  return ids.map((id, n) => {
    if (id !== undefined) return id;
    const base = `bc_${names[n]!.toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_|_$/g, '')}`;
    let fresh = base;
    for (let i = 2; taken.has(fresh); i++) fresh = `${base}_${i}`;
    taken.add(fresh);
    return fresh;
  });
}

const transformedCentroid = (v: Vector) => COHORT_FEATURES.map((f) => v[f] ?? 0);

/** [noun when high, noun when low] and [qualifier when high, qualifier when low] of each trait. */
const TRAITS: Record<CohortFeature, { noun: [string, string]; qualifier: [string, string] }> = {
  avg_features_used: { noun: ['Power users', 'Light users'], qualifier: ['using many features', 'using few features'] },
  daily_active_rate: {
    noun: ['Daily regulars', 'Occasional visitors'],
    qualifier: ['active most days', 'rarely active'],
  },
  avg_session_length: {
    noun: ['Deep divers', 'Quick visitors'],
    qualifier: ['with long sessions', 'with short sessions'],
  },
  efficiency_score: {
    noun: ['Efficient users', 'Explorers'],
    qualifier: ['using what they see', 'seeing more than they use'],
  },
  friction_index: {
    noun: ['Struggling users', 'Smooth operators'],
    qualifier: ['hitting friction', 'with little friction'],
  },
  loop_patterns_rate: {
    noun: ['Looping users', 'Straight-line users'],
    qualifier: ['going in circles', 'without loops'],
  },
};

/** The cohort's traits, strongest first: features whose |z| reaches the naming threshold. */
function traits(z: Vector): { feature: CohortFeature; high: boolean }[] {
  return COHORT_FEATURES.filter((f) => Math.abs(z[f]) >= BEHAVIOURAL_COHORTS.nameThreshold)
    .sort((a, b) => Math.abs(z[b]) - Math.abs(z[a]) || COHORT_FEATURES.indexOf(a) - COHORT_FEATURES.indexOf(b))
    .map((feature) => ({ feature, high: z[feature] > 0 }));
}

/**
 * A name from the strongest trait ("Power users"); when two cohorts share it, the second trait
 * qualifies it ("Power users with long sessions"); a remaining clash is numbered in the
 * cohorts' order. Without any trait: "Typical users".
 */
export function cohortNames(zs: Vector[]): string[] {
  const all = zs.map(traits);
  const noun = (t: ReturnType<typeof traits>) =>
    t[0] ? TRAITS[t[0].feature].noun[t[0].high ? 0 : 1] : 'Typical users';
  const first = all.map(noun);
  const named = all.map((t, i) => {
    if (first.filter((n) => n === first[i]).length === 1 || !t[1]) return first[i]!;
    return `${first[i]} ${TRAITS[t[1].feature].qualifier[t[1].high ? 0 : 1]}`;
  });
  return named.map((name, i) => {
    const before = named.slice(0, i).filter((n) => n === name).length;
    return before === 0 ? name : `${name} ${before + 1}`;
  });
}

const level = <T>(score: number, bounds: readonly number[], names: readonly T[]) => {
  const i = bounds.findIndex((b) => score < b);
  return names[i < 0 ? bounds.length : i]!;
};

/**
 * Churn risk from the cohort's means: 0.5 × inactivity (1 − daily active rate / 0.5, floored
 * at 0) + 0.3 × friction (Friction Index / 0.5, capped at 1) + 0.2 × shallowness (1 − features
 * used / 3, floored at 0); < 0.2 very_low, < 0.4 low, < 0.6 medium, < 0.8 high, else very_high.
 */
export function churnScore(v: Vector): number {
  const r = BEHAVIOURAL_COHORTS.churn;
  const inactivity = 1 - Math.min(1, v.daily_active_rate / r.activeRate);
  const friction = Math.min(1, v.friction_index / r.frictionIndex);
  const shallow = 1 - Math.min(1, v.avg_features_used / r.features);
  return r.weights.inactivity * inactivity + r.weights.friction * friction + r.weights.shallow * shallow;
}

export const churnRisk = (v: Vector): ChurnRisk =>
  level(churnScore(v), BEHAVIOURAL_COHORTS.churn.levels, ['very_low', 'low', 'medium', 'high', 'very_high'] as const);

/**
 * Expansion opportunity: engaged, efficient, broad users held back by little friction are ready
 * for more. (0.4 × activity (daily active rate / 0.5, capped) + 0.3 × efficiency + 0.3 × breadth
 * (features used / 5, capped)) × (1 − friction (as in churn)); ≥ 0.6 high, ≥ 0.35 medium, else low.
 */
export function expansionScore(v: Vector): number {
  const r = BEHAVIOURAL_COHORTS.expansion;
  const activity = Math.min(1, v.daily_active_rate / BEHAVIOURAL_COHORTS.churn.activeRate);
  const breadth = Math.min(1, v.avg_features_used / r.features);
  const friction = Math.min(1, v.friction_index / BEHAVIOURAL_COHORTS.churn.frictionIndex);
  return (
    (r.weights.activity * activity + r.weights.efficiency * v.efficiency_score + r.weights.breadth * breadth) *
    (1 - friction)
  );
}

export const expansionOpportunity = (v: Vector): Expansion => {
  const [high, medium] = BEHAVIOURAL_COHORTS.expansion.levels;
  const s = expansionScore(v);
  return s >= high ? 'high' : s >= medium ? 'medium' : 'low';
};
