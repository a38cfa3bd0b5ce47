import { DAY_MS } from '../time.js';
/**
 * Behavioural cohorts, the pure part (docs/metrics.md, "Behavioural cohorts"): here the behaviour
 * vector per user and the rules' constants; clustering.ts standardises and clusters the vectors by
 * k-means++ with a seeded RNG (kmeans.ts), k chosen by the best mean silhouette; cohort-traits.ts
 * keeps ids by matching centroids to the previous run's, names cohorts from their dominant traits
 * and grades churn risk and expansion. No I/O and no clock: the same facts and the same previous
 * clusters always give the same cohorts, which is what makes a replay equal.
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
  /**
   * Users are clustered on z-scores clipped to ±zClip. A feature nearly constant across users (no
   * friction, no loops in a calm product) has a tiny spread, so the few users who differ sit at
   * z = 60 and more: unclipped, every k left them a cluster of their own, below the minimum size,
   * and a 100,000-user project got no cohorts at all (npm run bench -- reads).
   */
  zClip: 3,
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
  /**
   * A project's model (scaling, k, centroids) is fitted on at most this many clustered users, evenly
   * spread over the sorted ids; every user is then assigned to the nearest centroid. Bounds the work
   * of a computation whatever the project's size.
   */
  modelSample: 20_000,
  /** Within the model's users, k-means and silhouettes use at most this many, spread the same way. */
  fitSample: 5000,
  silhouetteSample: 2000,
  /** A cohort's detail lists the features most of its members use, at most this many. */
  topFeatures: 10,
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
export function transformed(v: Vector): number[] {
  return COHORT_FEATURES.map((name) =>
    BEHAVIOURAL_COHORTS.logScaled.includes(name) ? Math.log1p(Math.max(0, v[name])) : v[name],
  );
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

export const asVector = (xs: number[]) => Object.fromEntries(COHORT_FEATURES.map((f, j) => [f, xs[j]!])) as Vector;
export const asArray = (v: Vector) => COHORT_FEATURES.map((f) => v[f]);
