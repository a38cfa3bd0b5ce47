import assert from 'node:assert/strict';
import { seededRandom } from '../../domain/random.js';
import {
  BEHAVIOURAL_COHORTS,
  type Clustering,
  type UserFacts,
  type Vector,
  behaviourVector,
} from '../../domain/cohorts/behavioural.js';
import { GroupSums, clusterUsers } from '../../domain/cohorts/clustering.js';
import {
  churnRisk,
  churnScore,
  cohortNames,
  expansionOpportunity,
  expansionScore,
  matchIds,
} from '../../domain/cohorts/cohort-traits.js';

const REF = '2025-03-15';
const dayBefore = (days: number) => new Date(Date.parse(REF) - days * 86_400_000).toISOString().slice(0, 10);

const base: UserFacts = {
  user_id: 'u',
  sessions: 1,
  days_active: 1,
  features_used: 0,
  features_seen: 0,
  avg_session_seconds: 60,
  friction_index: 0,
  first_seen_day: REF,
  views: 0,
  loop_views: 0,
};

type Group = 'power' | 'struggler' | 'casual' | 'explorer';

/** Four planted behaviours with some spread inside each (seeded, so the fixture is fixed). */
function planted(counts: Record<Group, number>, seed = 7): { facts: UserFacts[]; group: Map<string, Group> } {
  const random = seededRandom(seed);
  const jitter = (x: number, spread: number) => x + (random() * 2 - 1) * spread;
  const make: Record<Group, (id: string) => UserFacts> = {
    power: (id) => ({
      ...base,
      user_id: id,
      sessions: 10,
      days_active: 8 + Math.floor(random() * 3),
      first_seen_day: dayBefore(13),
      features_used: 5 + Math.floor(random() * 3),
      features_seen: 8,
      avg_session_seconds: jitter(1200, 200),
      friction_index: jitter(0.08, 0.03),
      views: 40,
    }),
    struggler: (id) => ({
      ...base,
      user_id: id,
      sessions: 4,
      days_active: 3,
      first_seen_day: dayBefore(9),
      features_used: 1,
      features_seen: 3,
      avg_session_seconds: jitter(300, 60),
      friction_index: jitter(0.45, 0.05),
      views: 30,
      loop_views: Math.round(jitter(12, 3)),
    }),
    casual: (id) => ({
      ...base,
      user_id: id,
      first_seen_day: dayBefore(13),
      avg_session_seconds: jitter(30, 10),
      views: 2,
    }),
    explorer: (id) => ({
      ...base,
      user_id: id,
      sessions: 5,
      days_active: 4,
      first_seen_day: dayBefore(10),
      features_used: 1,
      features_seen: 8 + Math.floor(random() * 3),
      avg_session_seconds: jitter(600, 100),
      friction_index: jitter(0.12, 0.03),
      views: 30,
    }),
  };
  const facts: UserFacts[] = [];
  const group = new Map<string, Group>();
  for (const [g, n] of Object.entries(counts) as [Group, number][]) {
    for (let i = 0; i < n; i++) {
      const id = `${g}-${String(i).padStart(3, '0')}`;
      facts.push(make[g](id));
      group.set(id, g);
    }
  }
  return { facts, group };
}

/** Each cohort's share of its most common planted group. */
function purities(result: Clustering, group: Map<string, Group>): number[] {
  return result.cohorts.map((c) => {
    const counts = new Map<Group, number>();
    for (const m of c.members) counts.set(group.get(m.user_id)!, (counts.get(group.get(m.user_id)!) ?? 0) + 1);
    return Math.max(...counts.values()) / c.size;
  });
}

const strip = (r: Clustering) => JSON.stringify(r);

describe('behavioural cohorts', () => {
  it('builds the behaviour vector from the tables’ facts', () => {
    const v = behaviourVector(
      {
        ...base,
        days_active: 3,
        first_seen_day: dayBefore(9), // 10 days in view
        features_used: 2,
        features_seen: 6,
        avg_session_seconds: 95,
        friction_index: 0.25,
        views: 40,
        loop_views: 10,
      },
      REF,
    );
    assert.deepEqual(v, {
      avg_features_used: 2,
      daily_active_rate: 0.3,
      avg_session_length: 95,
      efficiency_score: 3 / 8, // (2 + 1) / (6 + 2)
      friction_index: 0.25,
      loop_patterns_rate: 0.25,
    });
    // A user first seen on the reference day is active on 1 of 1 days; no views, no loops;
    // no feature seen is neither efficient nor not: ½.
    const fresh = behaviourVector({ ...base, days_active: 2, avg_session_seconds: null, friction_index: null }, REF);
    assert.deepEqual(fresh, {
      avg_features_used: 0,
      daily_active_rate: 1,
      avg_session_length: 0,
      efficiency_score: 0.5,
      friction_index: 0,
      loop_patterns_rate: 0,
    });
  });

  it('recovers four planted groups with k chosen by the silhouette', () => {
    const { facts, group } = planted({ power: 30, struggler: 25, casual: 35, explorer: 20 });
    const result = clusterUsers(facts, REF, []);
    assert.equal(result.k, 4);
    assert.ok(purities(result, group).every((p) => p >= 0.95));
    const best = result.candidates.filter((c) => c.eligible).sort((a, b) => b.silhouette! - a.silhouette!)[0]!;
    assert.equal(best.k, 4);
    assert.deepEqual(
      result.cohorts.map((c) => c.size),
      [35, 30, 25, 20],
    );
    assert.equal(result.users_clustered, 110);
    assert.equal(
      result.cohorts.reduce((s, c) => s + c.percentage, 0),
      1,
    );
    // Names and ids come from what sets each cohort apart.
    const byGroup = new Map(result.cohorts.map((c) => [group.get(c.members[0]!.user_id)!, c]));
    assert.equal(byGroup.get('power')!.name, 'Power users');
    assert.equal(byGroup.get('power')!.id, 'bc_power_users');
    assert.equal(byGroup.get('power')!.churn_risk, 'very_low');
    assert.equal(byGroup.get('power')!.expansion_opportunity, 'high');
    assert.equal(byGroup.get('casual')!.churn_risk, 'high');
    assert.equal(byGroup.get('casual')!.expansion_opportunity, 'low');
    assert.match(byGroup.get('struggler')!.name, /Struggling|Looping/);
    assert.equal(byGroup.get('explorer')!.name, 'Explorers');
    assert.equal(new Set(result.cohorts.map((c) => c.id)).size, 4);
  });

  it('is deterministic whatever the order of the facts', () => {
    const { facts } = planted({ power: 20, struggler: 20, casual: 20, explorer: 20 });
    const once = clusterUsers(facts, REF, []);
    const shuffled = [...facts].reverse();
    assert.equal(strip(clusterUsers(shuffled, REF, [])), strip(once));
  });

  it('keeps ids when recomputed on grown data, and gives a far-moved cohort a new id', () => {
    const first = planted({ power: 30, struggler: 25, casual: 35, explorer: 20 });
    const before = clusterUsers(first.facts, REF, []);
    const previous = before.cohorts.map((c) => ({ id: `old-${c.name}`, centroid: c.centroid }));
    const grown = planted({ power: 34, struggler: 28, casual: 38, explorer: 23 }, 99);
    const after = clusterUsers(grown.facts, REF, previous);
    assert.deepEqual(
      after.cohorts.map((c) => [c.id, c.name]).sort(),
      before.cohorts.map((c) => [`old-${c.name}`, c.name]).sort(),
    );

    // A previous centroid far from every new one keeps its id out of circulation for them.
    const far = { ...before.cohorts[0]!.centroid, friction_index: 50 };
    const moved = clusterUsers(first.facts, REF, [{ id: 'gone', centroid: far }]);
    assert.ok(moved.cohorts.every((c) => c.id !== 'gone'));
    assert.deepEqual(
      moved.cohorts.map((c) => c.id),
      before.cohorts.map((c) => c.id),
    );
  });

  it('matches ids greedily, nearest first, within the distance', () => {
    const scaler = { mean: [0, 0, 0, 0, 0, 0], std: [1, 1, 1, 1, 1, 1] };
    const at = (x: number): Vector => ({
      avg_features_used: x,
      daily_active_rate: 0,
      avg_session_length: 0,
      efficiency_score: 0,
      friction_index: 0,
      loop_patterns_rate: 0,
    });
    // a is nearest to new #1 (0.05) though also near #0 (0.1); b then takes #0 (0.9); c (−10) is
    // beyond the match distance of #2 (5), which gets an id from its name.
    const ids = matchIds(
      [
        { id: 'a', centroid: at(1) },
        { id: 'b', centroid: at(0) },
        { id: 'c', centroid: at(-10) },
      ],
      [
        [0.9, 0, 0, 0, 0, 0],
        [1.05, 0, 0, 0, 0, 0],
        [5, 0, 0, 0, 0, 0],
      ],
      scaler,
      ['X', 'Y', 'Deep divers'],
    );
    assert.deepEqual(ids, ['b', 'a', 'bc_deep_divers']);
    // Fresh ids never clash: the second "Power users" gets a suffix.
    assert.deepEqual(
      matchIds(
        [],
        [
          [0, 0, 0, 0, 0, 0],
          [9, 0, 0, 0, 0, 0],
        ],
        scaler,
        ['Power users', 'Power users'],
      ),
      ['bc_power_users', 'bc_power_users_2'],
    );
  });

  it('names cohorts by their strongest trait, qualified or numbered on a clash', () => {
    const z = (over: Partial<Vector>): Vector => ({
      avg_features_used: 0,
      daily_active_rate: 0,
      avg_session_length: 0,
      efficiency_score: 0,
      friction_index: 0,
      loop_patterns_rate: 0,
      ...over,
    });
    assert.deepEqual(
      cohortNames([
        z({ avg_features_used: 2, avg_session_length: 1 }),
        z({ avg_features_used: 1.5, daily_active_rate: -0.8 }),
        z({ friction_index: 0.9, loop_patterns_rate: 1.2 }),
        z({ avg_features_used: 0.2 }),
        z({ efficiency_score: -0.7 }),
        z({ efficiency_score: -0.6 }),
      ]),
      [
        'Power users with long sessions',
        'Power users rarely active',
        'Looping users',
        'Typical users',
        'Explorers',
        'Explorers 2',
      ],
    );
  });

  it('grades churn risk and expansion opportunity by the documented rules', () => {
    const v = (over: Partial<Vector>): Vector => ({
      avg_features_used: 3,
      daily_active_rate: 0.5,
      avg_session_length: 600,
      efficiency_score: 0.5,
      friction_index: 0,
      loop_patterns_rate: 0,
      ...over,
    });
    // Active, broad, smooth: 0.
    assert.equal(churnScore(v({})), 0);
    assert.equal(churnRisk(v({})), 'very_low');
    // Inactivity 1 − 0.1/0.5 = 0.8 → 0.4; friction 0.25/0.5 → 0.15; shallow 1 − 1/3 → 0.1333…: 0.6833 high.
    assert.ok(
      Math.abs(churnScore(v({ daily_active_rate: 0.1, friction_index: 0.25, avg_features_used: 1 })) - 0.68333) < 1e-4,
    );
    assert.equal(churnRisk(v({ daily_active_rate: 0.1, friction_index: 0.25, avg_features_used: 1 })), 'high');
    assert.equal(churnRisk(v({ daily_active_rate: 0, friction_index: 1, avg_features_used: 0 })), 'very_high');
    // Boundaries: a score of exactly 0.2 is low (bounds are exclusive upper bounds).
    assert.equal(churnRisk(v({ daily_active_rate: 0.3 })), 'low');
    // (0.4 · 1 + 0.3 · 0.5 + 0.3 · 3/5) · 1 = 0.73 high; with friction 0.25 halved: 0.365 medium.
    assert.ok(Math.abs(expansionScore(v({})) - 0.73) < 1e-12);
    assert.equal(expansionOpportunity(v({})), 'high');
    assert.equal(expansionOpportunity(v({ friction_index: 0.25 })), 'medium');
    assert.equal(
      expansionOpportunity(v({ daily_active_rate: 0.05, efficiency_score: 0.2, avg_features_used: 0 })),
      'low',
    );
  });

  it('leaves out users without a session and refuses a k with a cluster below the minimum size', () => {
    const { facts } = planted({ power: 20, struggler: 0, casual: 20, explorer: 0 });
    const quiet = [...facts, { ...base, user_id: 'nobody', sessions: 0 }];
    // One extreme user: any k that isolates them makes a cluster of 1, which is not eligible.
    const outlier = { ...base, user_id: 'zz-outlier', friction_index: 1, views: 100, loop_views: 100 };
    const result = clusterUsers([...quiet, outlier], REF, []);
    assert.equal(result.users_excluded, 1);
    assert.equal(result.users_clustered, 41);
    assert.ok(result.cohorts.every((c) => c.size >= BEHAVIOURAL_COHORTS.minClusterSize));
    assert.ok(result.candidates.some((c) => !c.eligible && c.smallest < BEHAVIOURAL_COHORTS.minClusterSize));
    assert.equal(
      result.cohorts.reduce((s, c) => s + c.size, 0),
      41,
    );
    assert.equal(result.cohorts[0]!.percentage, result.cohorts[0]!.size / 42);
  });

  it('clusters a calm product where a handful of users alone have friction (clipped z-scores)', () => {
    // Friction and loops nearly constant (0) across 400 users: the 4 who have some sit 20+ standard
    // deviations out. Unclipped, every k gave them a cluster of their own, below the minimum size.
    const { facts } = planted({ power: 0, struggler: 0, casual: 400, explorer: 0 });
    const calm = facts.map((f, i) => ({
      ...f,
      friction_index: i % 100 === 0 ? 0.08 : 0,
      loop_views: i % 100 === 0 ? 2 : 0,
      views: Math.max(f.views, 30),
    }));
    const result = clusterUsers(calm, REF, []);
    assert.ok(result.k >= 2, `no cohorts: ${JSON.stringify(result.candidates)}`);
    assert.equal(result.users_clustered, 400);
    assert.ok(result.cohorts.every((c) => c.size >= 0.02 * 400));
  });

  it('makes no cohorts from too few users', () => {
    const { facts } = planted({ power: 4, struggler: 0, casual: 5, explorer: 0 });
    const result = clusterUsers(facts, REF, []);
    assert.deepEqual([result.k, result.cohorts, result.users_clustered, result.users_excluded], [0, [], 0, 9]);
  });

  it('profiles any group of users (a custom cohort) as the clustering profiles a cohort of the same users', () => {
    const { facts } = planted({ power: 30, struggler: 25, casual: 35, explorer: 20 });
    const factsOf = new Map(facts.map((f) => [f.user_id, f]));
    for (const cohort of clusterUsers(facts, REF, []).cohorts) {
      const group = new GroupSums(REF);
      cohort.members.forEach((m) => group.addFacts(factsOf.get(m.user_id)!));
      assert.deepEqual(group.profile(), {
        characteristics: cohort.characteristics,
        churn_risk: cohort.churn_risk,
        expansion_opportunity: cohort.expansion_opportunity,
      });
    }
    // A user without a session counts too; nobody gives no profile.
    const idle = new GroupSums(REF);
    assert.equal(idle.profile(), undefined);
    idle.addFacts({ ...base, sessions: 0, days_active: 0, avg_session_seconds: null, first_seen_day: null });
    assert.deepEqual(idle.profile()!.characteristics, {
      avg_features_used: 0,
      daily_active_rate: 0,
      avg_session_length: 0,
      efficiency_score: 0.5,
      friction_index: 0,
      loop_patterns_rate: 0,
    });
  });
});
