import { type AdditiveTable, AdditiveDeltas } from './additive-deltas.js';
import {
  DISCOVERY,
  DISCOVERY_SQL,
  REACH,
  REACH_SQL,
  SEGMENT_DAILY,
  SEGMENT_DAILY_SQL,
  SEGMENT_FEATURE_DAILY,
  SEGMENT_FEATURE_DAILY_SQL,
  SEGMENT_REACH,
  SEGMENT_REACH_SQL,
  TENURE,
  TENURE_SQL,
  USER_REACH,
  USER_REACH_SQL,
  frictionReach,
} from './answer-share-statements.js';
import { type AnalyticsOverrides, analyticsConfig } from '../domain/analytics-config.js';
import { type GrownSession, featureFirsts } from '../domain/contribution/growth.js';
import type { SessionContribution } from '../domain/contribution/types.js';
import type { PoolClient } from '../lib/db.js';
import { lockUsers, shareProjects } from './locks.js';

/*
 * The answer tables of the feature and friction GETs that are not sums of session contributions
 * (migrations 15 and 17, docs/metrics.md §10): what a user adds to them depends on all of the
 * user's days. They are kept as sums over users: a writer that changes users' per-user rows reads
 * the users' share before and after its change and writes the difference.
 */

/**
 * What a share reads of one session beyond its id, day and start (see sharesUnmoved), as a string.
 * The per-user rows hold one `sessions_visible` per feature of a session and are present while a
 * count is positive; the first sighting and use of a feature and the user's first session are the
 * least over the sessions.
 */
const nothing = () => '';
const sorted = (keys: string[]) => JSON.stringify([...new Set(keys)].sort());
const featureNames = (c: SessionContribution) => sorted(c.features.map((f) => f.feature));
const firstsOfFeatures = (c: SessionContribution) =>
  sorted(c.features.map((f) => `${f.feature}\u0000${featureFirsts(f)}`));
const featureFacts = (c: SessionContribution) =>
  sorted(
    c.features.map((f) =>
      JSON.stringify([f.feature, f.impressions, f.uses, f.empty_state_impressions, f.data_volume_sum, f.data_volume_n]),
    ),
  );
const frictionPages = (c: SessionContribution) => sorted(c.signals.flatMap((s) => (s.page === null ? [] : [s.page])));
const frictionElements = (c: SessionContribution) =>
  sorted(c.signals.flatMap((s) => (s.page === null || s.element === null ? [] : [`${s.page}\u0000${s.element}`])));

/**
 * Each answer table, the statement giving a set of users' share of it, what that share reads of a
 * session, whether it reads segments ($5), and whether it reads feature_users alone (which
 * `replay --from` leaves in place for a user whose sessions it took out, until their events come
 * back): every other share of a user without stored sessions is nothing.
 */
const SHARES: {
  spec: AdditiveTable;
  sql: string;
  reads: (c: SessionContribution) => string;
  segments?: true;
  featureUsers?: true;
}[] = [
  { spec: REACH, sql: REACH_SQL, reads: firstsOfFeatures },
  { ...frictionReach('friction_page_reach', 'friction_page_users', ['page']), reads: frictionPages },
  {
    ...frictionReach('friction_element_reach', 'friction_element_users', ['page', 'element']),
    reads: frictionElements,
  },
  { spec: USER_REACH, sql: USER_REACH_SQL, reads: nothing },
  { spec: TENURE, sql: TENURE_SQL, reads: featureNames },
  { spec: DISCOVERY, sql: DISCOVERY_SQL, reads: firstsOfFeatures, featureUsers: true },
  { spec: SEGMENT_DAILY, sql: SEGMENT_DAILY_SQL, reads: nothing, segments: true },
  { spec: SEGMENT_FEATURE_DAILY, sql: SEGMENT_FEATURE_DAILY_SQL, reads: featureFacts, segments: true },
  { spec: SEGMENT_REACH, sql: SEGMENT_REACH_SQL, reads: firstsOfFeatures, segments: true },
];

/**
 * The answer tables a change of a user's sessions cannot move: one that only grew sessions
 * (grownSessions), each pair reading the same for the table's share. The user's per-user rows then
 * move only within rows that stay present, by what the share does not read, and every least over
 * the sessions stays. Any other change moves every table.
 */
export function sharesUnmoved(grown: GrownSession[] | null): Set<string> {
  if (grown === null) return new Set();
  // Shares that read the same of a session are compared once.
  const same = new Map<(c: SessionContribution) => string, boolean>();
  const unmoved = new Set<string>();
  for (const { spec, reads } of SHARES) {
    let equal = same.get(reads);
    if (equal === undefined) same.set(reads, (equal = grown.every(([o, c]) => reads(o) === reads(c))));
    if (equal) unmoved.add(spec.table);
  }
  return unmoved;
}

type User = { projectId: string; userId: string };

/**
 * A user whose change moves only sessions that start on `from` (a UTC day, YYYY-MM-DD) or later;
 * without it, any. The user's share is then read from `from` on: the edges before it cannot move.
 * A per-day row is on its sessions' day, so none before `from` moves. What every edge of the user
 * depends on, the first session (tenure, days to discovery) and a feature's first use (days to
 * discovery), can move only with a session starting on `from` or later; the user's sessions do not
 * overlap, so every session after it, and every day the values are read on, is from `from` on too.
 * `unmoved`: the answer tables the change cannot move (sharesUnmoved), whose share is not read.
 * `unseen`: the user had no stored session before the change, so no per-user daily row: their share
 * before it is nothing, and is not read (but for feature_discovery, see SHARES).
 * `features`: the only features whose rows the change can move (a grown session's features with new
 * firsts, featuresWithNewFirsts): a share by feature reads only theirs. Without it, every feature's.
 * A grown session keeps its day and start, so the user's sessions per day and first sighting (what a
 * share reads beyond a feature's own rows) stay; a feature whose firsts stay keeps its per-day rows
 * present and its first use, so its edges, tenure counts and discovery stay too.
 */
export type ChangedUser = User & {
  from?: string;
  unmoved?: ReadonlySet<string>;
  unseen?: boolean;
  features?: ReadonlySet<string>;
};

/** Which answer tables a writer moves: all, or only the segment tables (a change of user properties). */
export type AnswerTables = 'all' | 'segments';

async function addShares(
  client: PoolClient,
  users: ChangedUser[],
  segmentKeys: Record<string, readonly string[]>,
  deltas: AdditiveDeltas,
  sign: 1 | -1,
  tables: AnswerTables,
): Promise<void> {
  // Without segment properties the users have no segments: their statements would read the
  // users' rows to find none.
  const anySegments = Object.values(segmentKeys).some((keys) => keys.length > 0);
  for (const { spec, sql, segments, featureUsers } of SHARES) {
    if ((tables === 'segments' && !segments) || (segments && !anySegments)) continue;
    const nothingBefore = (u: ChangedUser) => sign === -1 && u.unseen === true && !featureUsers;
    const moved = users.filter((u) => !u.unmoved?.has(spec.table) && !nothingBefore(u));
    if (moved.length === 0) continue;
    const params = [
      moved.map((u) => u.projectId),
      moved.map((u) => u.userId),
      moved.map((u) => u.from ?? '-infinity'),
      JSON.stringify(moved.map((u) => (u.features ? [...u.features] : null))),
    ];
    const { rows } = await client.query<Record<string, unknown> & { project_id: string }>(
      sql,
      segments ? [...params, JSON.stringify(segmentKeys)] : params,
    );
    for (const row of rows) deltas.add(spec, row.project_id, row, sign);
  }
}

/**
 * The projects' segment properties, read under a share lock on their rows: a change of
 * `segments.properties` (which rebuilds the segment tables, rebuildSegmentTables) waits for the
 * writers that read the old ones, and writers after it read the new ones.
 */
export async function segmentProperties(
  client: PoolClient,
  projectIds: string[],
): Promise<Record<string, readonly string[]>> {
  const rows = await shareProjects(client, projectIds);
  return Object.fromEntries(
    rows.map((r) => [
      r.project_id,
      analyticsConfig((r.settings.analytics ?? {}) as AnalyticsOverrides).segments.properties,
    ]),
  );
}

/**
 * Runs `change` (which may change any per-user row of `users`, or with tables = 'segments' only
 * their properties) and moves the answer tables from the users' share before it to their share
 * after it, in the caller's transaction — in the order of store/locks.ts: the users' locks, then
 * their projects' rows, then the tables.
 */
export async function keepingAnswerTables<T>(
  client: PoolClient,
  users: ChangedUser[],
  change: () => Promise<T>,
  tables: AnswerTables = 'all',
): Promise<T> {
  const { result, deltas } = await answerTableShares(client, users, change, tables);
  await deltas.apply(client);
  return result;
}

/**
 * keepingAnswerTables, leaving the answer tables' changes to the caller to apply (last in its
 * transaction, so that their shared rows stay locked for as short a time as possible).
 */
export async function answerTableShares<T>(
  client: PoolClient,
  users: ChangedUser[],
  change: () => Promise<T>,
  tables: AnswerTables = 'all',
): Promise<{ result: T; deltas: AdditiveDeltas }> {
  const deltas = new AdditiveDeltas();
  if (users.length === 0) return { result: await change(), deltas };
  users = oncePerUser(users);
  await lockUsers(client, users);
  const segmentKeys = await segmentProperties(
    client,
    users.map((u) => u.projectId),
  );
  await addShares(client, users, segmentKeys, deltas, -1, tables);
  const result = await change();
  await addShares(client, users, segmentKeys, deltas, 1, tables);
  return { result, deltas };
}

/** One ChangedUser per user: the earliest `from`, every feature, what every change leaves unmoved. */
function oncePerUser(users: ChangedUser[]): ChangedUser[] {
  const once = new Map<string, ChangedUser>();
  for (const u of users) {
    const key = `${u.projectId}\u0000${u.userId}`;
    const seen = once.get(key);
    if (!seen) {
      once.set(key, u);
      continue;
    }
    const from = seen.from === undefined || u.from === undefined ? undefined : seen.from < u.from ? seen.from : u.from;
    const features = seen.features && u.features ? new Set([...seen.features, ...u.features]) : undefined;
    const unmoved = seen.unmoved && u.unmoved ? new Set([...seen.unmoved].filter((t) => u.unmoved!.has(t))) : undefined;
    once.set(key, {
      projectId: u.projectId,
      userId: u.userId,
      ...(from === undefined ? {} : { from }),
      ...(features ? { features } : {}),
      ...(unmoved ? { unmoved } : {}),
      ...(seen.unseen && u.unseen ? { unseen: true } : {}),
    });
  }
  return [...once.values()];
}

/**
 * After a change of the project's `segments.properties` (in its transaction, project row locked):
 * the segment tables rebuilt from every user's per-user rows with the new properties.
 */
export async function rebuildSegmentTables(client: PoolClient, projectId: string): Promise<void> {
  for (const { spec, segments } of SHARES) {
    if (segments) await client.query(`delete from ${spec.table} where project_id = $1`, [projectId]);
  }
  const { rows } = await client.query<{ user_id: string }>('select user_id from users where project_id = $1', [
    projectId,
  ]);
  const users = rows.map((r) => ({ projectId, userId: r.user_id }));
  const deltas = new AdditiveDeltas();
  await addShares(client, users, await segmentProperties(client, [projectId]), deltas, 1, 'segments');
  await deltas.apply(client);
}
