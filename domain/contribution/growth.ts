import type { SessionContribution, SessionFeatureFacts } from './types.js';

/** A stored session and what it became: the same id, day and start. */
export type GrownSession = readonly [old: SessionContribution, fresh: SessionContribution];

/**
 * A change that only grew sessions (a live session's new events, the commonest change), as pairs
 * of each old session and what it became; null for any other change (a session new, gone, or
 * started earlier or later). What sums over a user's sessions then moves only by each pair's
 * difference, and what is a least over them moves only where a pair's own least moved.
 */
export function grownSessions(old: SessionContribution[], fresh: SessionContribution[]): GrownSession[] | null {
  const before = new Map(old.map((c) => [c.session_id, c]));
  const after = new Map(fresh.map((c) => [c.session_id, c]));
  if (before.size !== old.length || after.size !== fresh.length || before.size !== after.size) return null;
  const pairs: GrownSession[] = [];
  for (const c of after.values()) {
    const o = before.get(c.session_id);
    if (o === undefined || o.day !== c.day || o.started_at !== c.started_at) return null;
    pairs.push([o, c]);
  }
  return pairs;
}

/** A feature's firsts in one session (its first sighting, first use and how, whether used): feature_users' inputs. */
export const featureFirsts = (f: SessionFeatureFacts): string =>
  `${f.uses > 0}\u0000${f.first_seen_at}\u0000${f.first_used_at}\u0000${f.first_use_source}`;

/** The features whose firsts differ between a grown session's old and fresh contribution (or are in one only). */
export function featuresWithNewFirsts(pairs: GrownSession[]): Set<string> {
  const moved = new Set<string>();
  for (const [o, c] of pairs) {
    const before = new Map(o.features.map((f) => [f.feature, featureFirsts(f)]));
    for (const f of c.features) {
      if (before.get(f.feature) !== featureFirsts(f)) moved.add(f.feature);
      before.delete(f.feature);
    }
    for (const feature of before.keys()) moved.add(feature);
  }
  return moved;
}
