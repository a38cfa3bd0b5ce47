import { byCodePoint } from '../time.js';
import {
  BEHAVIOURAL_COHORTS,
  COHORT_FEATURES,
  type CohortFeature,
  type ChurnRisk,
  type Expansion,
  type PreviousCohort,
  type Vector,
} from './behavioural.js';
import { type Scaler, squaredDistance, standardise } from './kmeans.js';

/**
 * Ids survive recomputation: all (previous, new) centroid pairs, both standardised with the
 * current scaler, are taken greedily nearest first (ties by previous id, then new index) and a
 * pair within `matchDistance` keeps the previous id. An unmatched cohort gets an id from its
 * name (`bc_power_users`), so a fresh computation — a replay — names ids the same way.
 */
export function matchIds(previous: PreviousCohort[], zs: number[][], scaler: Scaler, names: string[]): string[] {
  const before = previous.map((p) => ({ id: p.id, z: standardise(transformedCentroid(p.centroid), scaler) }));
  const pairs = before
    .flatMap((p) => zs.map((z, n) => ({ id: p.id, n, d: Math.sqrt(squaredDistance(p.z, z)) })))
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
