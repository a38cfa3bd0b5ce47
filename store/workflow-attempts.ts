import { type AttemptRow, firstStepOf } from '../domain/workflows/attempt-rows.js';
import type { GoalSummary, PathRules } from '../domain/workflows/mining.js';
import type { DateRange } from '../domain/date-range.js';
import type { Pool, PoolClient } from '../lib/db.js';
import { type AdditiveTable, AdditiveDeltas, big, int } from './additive-deltas.js';
import { lockProjectPass } from './locks.js';

/**
 * The workflows worker's kept state (migrations 21 and 27): every session's attempts at every goal
 * (workflow_attempts) and each goal's sums over them, all-time (workflow_paths, workflow_first_steps,
 * workflow_lengths) and per UTC day of the attempt's session (workflow_path_days,
 * workflow_first_step_days, workflow_length_days, and workflow_path_reach for the distinct users of a
 * path in any window). Every change of attempts goes through `changeAttempts`, which writes the
 * attempts and the sums in one go, so the sums always equal a summary of the stored attempts.
 * Writers hold the project's workflows pass lock (store/locks.ts, projectPass).
 */

/** An attempt as stored: its session and the session's day (YYYY-MM-DD). */
export type StoredAttempt = AttemptRow & { session_id: string; day: string };

export const WORKFLOWS_PASS = 'workflows';

const PATHS: AdditiveTable = {
  table: 'workflow_paths',
  keys: [
    ['goal', 'text'],
    ['path', 'text'],
  ],
  values: [
    ['occurrences', int],
    ['duration_ms', big],
    ['raw_steps', big],
    ['users', int],
  ],
};

const FIRST_STEPS: AdditiveTable = {
  table: 'workflow_first_steps',
  keys: [
    ['goal', 'text'],
    ['first_step', 'text'],
  ],
  values: [
    ['attempts', int],
    ['completions', int],
  ],
};

const LENGTHS: AdditiveTable = {
  table: 'workflow_lengths',
  keys: [
    ['goal', 'text'],
    ['merged_steps', int],
  ],
  values: [['completions', int]],
};

/** The same sums per day of the attempts' sessions. */
const dated = (spec: AdditiveTable, table: string): AdditiveTable => ({
  table,
  keys: [spec.keys[0]!, ['day', 'date'], ...spec.keys.slice(1)],
  values: spec.values.filter(([name]) => name !== 'users'),
});
const PATH_DAYS = dated(PATHS, 'workflow_path_days');
const FIRST_STEP_DAYS = dated(FIRST_STEPS, 'workflow_first_step_days');
const LENGTH_DAYS = dated(LENGTHS, 'workflow_length_days');

/** Each day a user completed the goal along the path is an edge from their previous such day. */
const PATH_REACH: AdditiveTable = {
  table: 'workflow_path_reach',
  keys: [
    ['goal', 'text'],
    ['path', 'text'],
    ['day', 'date'],
    ['prev_day', 'date'],
  ],
  values: [['users', int]],
};

const COLUMNS = 'session_id, goal, ordinal, user_id, completed, path, raw_steps, merged_steps, duration_ms, day';
const RETURNED = COLUMNS.replace(/day$/, 'day::text as day');

/**
 * Deletes the attempts of `sessions` (of every goal), stores `added`, and moves the goals' sums by
 * the difference. The user count of a path changes when a user's first completion along it comes
 * or their last one goes: counted after the write, for the (goal, path, user) triples that changed
 * (a goal's first pass leaves its paths' user counts to `countPathUsers`, once at its end).
 */
export async function changeAttempts(
  client: PoolClient,
  projectId: string,
  removedSessions: string[],
  added: StoredAttempt[],
  countUsers = true,
): Promise<void> {
  const { rows: removed } =
    removedSessions.length === 0
      ? { rows: [] }
      : await client.query<StoredAttempt>(
          `delete from workflow_attempts where project_id = $1 and session_id = any ($2::text[]) returning ${RETURNED}`,
          [projectId, removedSessions],
        );
  await insertAttempts(client, projectId, added);
  await moveSums(client, projectId, removed, added, countUsers);
}

/**
 * The user counts of the goals' paths and their reach edges, counted over their kept attempts (the
 * end of a goal's first pass, which starts with no reach rows for the goal).
 */
export async function countPathUsers(client: PoolClient, projectId: string, goals: string[]): Promise<void> {
  await client.query(
    `update workflow_paths p set users = c.users
     from (select goal, path, count(distinct user_id)::int as users from workflow_attempts
           where project_id = $1 and goal = any ($2::text[]) and completed group by goal, path) c
     where p.project_id = $1 and p.goal = c.goal and p.path = c.path`,
    [projectId, goals],
  );
  await client.query(
    `insert into workflow_path_reach (project_id, goal, path, day, prev_day, users)
     select $1, goal, path, day, prev_day, count(*)::int
     from (select goal, path, day,
                  coalesce(lag(day) over (partition by goal, path, user_id order by day), '-infinity') as prev_day
           from (select distinct goal, path, user_id, day from workflow_attempts
                 where project_id = $1 and goal = any ($2::text[]) and completed) d) e
     group by goal, path, day, prev_day`,
    [projectId, goals],
  );
}

/** Takes a user's attempts out, sums included (erasure; under the user's lock, store/user-data.ts). */
export async function eraseUserAttempts(client: PoolClient, projectId: string, userId: string): Promise<void> {
  // A running pass may be writing this user's attempts: wait for it, then see what it committed.
  await lockProjectPass(client, WORKFLOWS_PASS, projectId);
  const { rows: removed } = await client.query<StoredAttempt>(
    `delete from workflow_attempts where project_id = $1 and user_id = $2 returning ${RETURNED}`,
    [projectId, userId],
  );
  await moveSums(client, projectId, removed, [], true);
}

/**
 * Forgets the kept attempts and sums of `goals` (every goal of the project when 'all'), before a
 * pass over all the project's sessions builds them again.
 */
export async function forgetAttempts(client: PoolClient, projectId: string, goals: string[] | 'all'): Promise<void> {
  for (const table of [
    'workflow_attempts',
    'workflow_paths',
    'workflow_first_steps',
    'workflow_lengths',
    'workflow_path_days',
    'workflow_first_step_days',
    'workflow_length_days',
    'workflow_path_reach',
  ]) {
    await client.query(
      `delete from ${table} where project_id = $1 and ($2::text[] is null or goal = any ($2::text[]))`,
      [projectId, goals === 'all' ? null : goals],
    );
  }
}

async function insertAttempts(client: PoolClient, projectId: string, rows: StoredAttempt[]): Promise<void> {
  if (rows.length === 0) return;
  await client.query(
    `insert into workflow_attempts (project_id, ${COLUMNS})
     select $1, * from unnest($2::text[], $3::text[], $4::int[], $5::text[], $6::bool[], $7::text[], $8::int[], $9::int[],
                              $10::bigint[], $11::date[])`,
    [
      projectId,
      rows.map((r) => r.session_id),
      rows.map((r) => r.goal),
      rows.map((r) => r.ordinal),
      rows.map((r) => r.user_id),
      rows.map((r) => r.completed),
      rows.map((r) => r.path),
      rows.map((r) => r.raw_steps),
      rows.map((r) => r.merged_steps),
      rows.map((r) => r.duration_ms),
      rows.map((r) => r.day),
    ],
  );
}

/** A user's completions of a goal along a path, net of a change, per day. */
interface PathUserChange {
  goal: string;
  path: string;
  user_id: string;
  net: number;
  days: Map<string, number>;
}

/** The reach edges of a set of days: each day from the previous one ('-infinity' for the first). */
function reachEdges(days: string[]): { day: string; prev_day: string }[] {
  return days.sort().map((day, i) => ({ day, prev_day: i === 0 ? '-infinity' : days[i - 1]! }));
}

async function moveSums(
  client: PoolClient,
  projectId: string,
  removed: StoredAttempt[],
  added: StoredAttempt[],
  countUsers: boolean,
): Promise<void> {
  const deltas = new AdditiveDeltas();
  const completions = new Map<string, PathUserChange>();
  const count = (rows: StoredAttempt[], sign: 1 | -1) => {
    for (const a of rows) {
      const done = a.completed ? 1 : 0;
      const first = { ...a, first_step: firstStepOf(a), attempts: 1, completions: done };
      deltas.add(FIRST_STEPS, projectId, first, sign);
      deltas.add(FIRST_STEP_DAYS, projectId, first, sign);
      if (!a.completed) continue;
      deltas.add(PATHS, projectId, { ...a, occurrences: 1, users: 0 }, sign);
      deltas.add(PATH_DAYS, projectId, { ...a, occurrences: 1 }, sign);
      if (a.merged_steps > 0) {
        deltas.add(LENGTHS, projectId, { ...a, completions: 1 }, sign);
        deltas.add(LENGTH_DAYS, projectId, { ...a, completions: 1 }, sign);
      }
      const key = JSON.stringify([a.goal, a.path, a.user_id]);
      const c = completions.get(key) ?? { goal: a.goal, path: a.path, user_id: a.user_id, net: 0, days: new Map() };
      c.net += sign;
      c.days.set(a.day, (c.days.get(a.day) ?? 0) + sign);
      completions.set(key, c);
    }
  };
  count(removed, -1);
  count(added, 1);
  // A completion that moved to another day (a session split again) changes the edges, not the count.
  const moved = countUsers ? [...completions.values()].filter((c) => [...c.days.values()].some((n) => n !== 0)) : [];
  if (moved.length > 0) {
    const { rows: now } = await client.query<{ goal: string; path: string; user_id: string; day: string; n: number }>(
      `select a.goal, a.path, a.user_id, a.day::text as day, count(*)::int as n
       from workflow_attempts a join unnest($2::text[], $3::text[], $4::text[]) as k(goal, path, user_id)
         on a.goal = k.goal and a.path = k.path and a.user_id = k.user_id
       where a.project_id = $1 and a.completed
       group by 1, 2, 3, 4`,
      [projectId, moved.map((c) => c.goal), moved.map((c) => c.path), moved.map((c) => c.user_id)],
    );
    const after = new Map<string, Map<string, number>>();
    for (const r of now) {
      const key = JSON.stringify([r.goal, r.path, r.user_id]);
      after.set(key, (after.get(key) ?? new Map<string, number>()).set(r.day, r.n));
    }
    for (const c of moved) {
      const daysAfter = after.get(JSON.stringify([c.goal, c.path, c.user_id])) ?? new Map<string, number>();
      const daysBefore = new Map(daysAfter);
      for (const [day, net] of c.days) daysBefore.set(day, (daysBefore.get(day) ?? 0) - net);
      const held = (days: Map<string, number>) => [...days].filter(([, n]) => n > 0).map(([day]) => day);
      const [before, later] = [held(daysBefore), held(daysAfter)];
      const users = (later.length > 0 ? 1 : 0) - (before.length > 0 ? 1 : 0);
      if (users !== 0) {
        deltas.add(PATHS, projectId, { ...c, occurrences: 0, duration_ms: 0, raw_steps: 0, users }, 1);
      }
      for (const edge of reachEdges(before)) deltas.add(PATH_REACH, projectId, { ...c, ...edge, users: 1 }, -1);
      for (const edge of reachEdges(later)) deltas.add(PATH_REACH, projectId, { ...c, ...edge, users: 1 }, 1);
    }
  }
  await deltas.apply(client);
}

/**
 * A goal's summary from its sums: bounded by the goal's distinct paths and first steps, not by its
 * attempts. Paths that fold into "other" (fewer than rules.minOccurrences completions, so at most
 * that many users each) come with their users, whose union "other" counts. With `range`, the
 * summary of the attempts of the sessions of those days: the daily sums of the range, a path's
 * users from its reach edges (each user's first completion day in the range).
 */
export async function goalSummary(
  client: Pool | PoolClient,
  projectId: string,
  goal: string,
  rules: PathRules,
  range?: DateRange,
): Promise<GoalSummary> {
  const params = range ? [projectId, goal, range.start, range.end] : [projectId, goal];
  const inRange = range ? 'and day between $3 and $4' : '';
  const { rows: paths } = await client.query<{
    path: string;
    occurrences: number;
    duration_ms: number;
    raw_steps: number;
    users: number;
  }>(
    range
      ? `select d.path, d.occurrences, d.duration_ms, d.raw_steps, coalesce(r.users, 0) as users
         from (select path, sum(occurrences)::int as occurrences, sum(duration_ms)::bigint as duration_ms,
                      sum(raw_steps)::bigint as raw_steps
               from workflow_path_days where project_id = $1 and goal = $2 ${inRange} group by path) d
         left join (select path, sum(users)::int as users from workflow_path_reach
                    where project_id = $1 and goal = $2 ${inRange} and prev_day < $3 group by path) r using (path)`
      : 'select path, occurrences, duration_ms, raw_steps, users from workflow_paths where project_id = $1 and goal = $2',
    params,
  );
  const rare = paths.filter((p) => p.occurrences < rules.minOccurrences).map((p) => p.path);
  const { rows: foldedUsers } = await client.query<{ path: string; users: string[] }>(
    `select path, array_agg(distinct user_id) as users from workflow_attempts
     where project_id = $1 and goal = $2 ${inRange} and completed and path = any ($${params.length + 1}::text[])
     group by path`,
    [...params, rare],
  );
  const usersOf = new Map(foldedUsers.map((f) => [f.path, f.users]));
  const { rows: firsts } = await client.query<{ first_step: string; attempts: number; completions: number }>(
    range
      ? `select first_step, sum(attempts)::int as attempts, sum(completions)::int as completions
         from workflow_first_step_days where project_id = $1 and goal = $2 ${inRange} group by first_step`
      : 'select first_step, attempts, completions from workflow_first_steps where project_id = $1 and goal = $2',
    params,
  );
  const { rows: lengths } = await client.query<{ optimal: number | null }>(
    `select min(merged_steps) as optimal from ${range ? 'workflow_length_days' : 'workflow_lengths'}
     where project_id = $1 and goal = $2 ${inRange} and merged_steps > 0`,
    params,
  );
  return {
    paths: paths.map((p) => ({
      path: JSON.parse(p.path) as string[],
      occurrences: p.occurrences,
      duration: p.duration_ms,
      rawSteps: p.raw_steps,
      users: p.users,
      userIds: usersOf.get(p.path),
    })),
    firstSteps: new Map(firsts.map((f) => [f.first_step, { attempts: f.attempts, completions: f.completions }])),
    optimalSteps: lengths[0]?.optimal ?? 0,
  };
}

/** The distinct sessions written or deleted since the last pass, taken out of the log (migration 21). */
export async function takeChangedSessions(client: PoolClient, projectId: string): Promise<string[]> {
  // Rows committed before this statement; the sessions they name are read by later statements.
  const { rows } = await client.query<{ session_id: string }>(
    'delete from workflow_session_changes where project_id = $1 returning session_id',
    [projectId],
  );
  return [...new Set(rows.map((r) => r.session_id))];
}

/**
 * Takes the project's rebuild requests (workflow_changes, written by a replay's truncate): true
 * when there was one, and every goal's attempts are to be built anew.
 */
export async function takeRebuildRequest(client: PoolClient, projectId: string): Promise<boolean> {
  const { rowCount } = await client.query('delete from workflow_changes where project_id = $1', [projectId]);
  return (rowCount ?? 0) > 0;
}
