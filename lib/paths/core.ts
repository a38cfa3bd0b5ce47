import crypto from 'node:crypto';

/**
 * Path mining (DESIGN §7): the steps users took to reach a goal, discovered from behaviour.
 * Pure functions over sessions given as ordered steps; no I/O.
 */

export interface Step {
  /** a page or feature name; the goal event's own name for goal steps */
  name: string;
  /** epoch ms */
  at: number;
}

export interface PathRules {
  /** longer paths keep their first and last steps around "..." */
  maxSteps: number;
  /** paths of a goal seen fewer times than this fold into "other" */
  minOccurrences: number;
}

export const DEFAULT_PATH_RULES: PathRules = { maxSteps: 10, minOccurrences: 2 };
export const ELLIPSIS = '...';
export const OTHER = 'other';

/** Consecutive repeats merged (PostHog Paths): a reload or two clicks on one page is one step. */
export function mergeRepeats(steps: string[]): string[] {
  return steps.filter((s, i) => i === 0 || s !== steps[i - 1]);
}

/** At most maxSteps: the first maxSteps − 2 steps, "...", and the last step (the goal's approach). */
export function capPath(steps: string[], maxSteps: number): string[] {
  if (steps.length <= maxSteps) return steps;
  return [...steps.slice(0, maxSteps - 2), ELLIPSIS, steps[steps.length - 1]!];
}

export interface Attempt {
  /** who made the attempt (counted for users and user_share; never stored) */
  user?: string;
  /** raw steps before the goal, from the session start or the previous goal */
  raw: string[];
  path: string[];
  completed: boolean;
  /** ms from the first step to the goal (or to the last step when not completed) */
  duration: number;
}

/**
 * Cuts one session into attempts at `goal`: every segment from the session start (or the
 * previous goal) up to and excluding the goal is a completed attempt; what follows the last
 * goal is an attempt that did not complete. A goal right at the session start counts with an
 * empty path; a goal right after a goal is the same completion (repeats merge, as any step's).
 */
export function attempts(session: Step[], goal: string, rules: PathRules = DEFAULT_PATH_RULES): Attempt[] {
  const out: Attempt[] = [];
  let start = 0;
  for (let i = 0; i < session.length; i++) {
    if (session[i]!.name !== goal) continue;
    if (i > 0 && session[i - 1]!.name === goal) {
      start = i + 1;
      continue;
    }
    const segment = session.slice(start, i);
    const first = segment[0] ?? session[i]!;
    out.push(attempt(segment, true, session[i]!.at - first.at, rules));
    start = i + 1;
  }
  const rest = session.slice(start);
  if (rest.length > 0) out.push(attempt(rest, false, rest[rest.length - 1]!.at - rest[0]!.at, rules));
  return out;
}

function attempt(segment: Step[], completed: boolean, duration: number, rules: PathRules): Attempt {
  const raw = segment.map((s) => s.name);
  return { raw, path: capPath(mergeRepeats(raw), rules.maxSteps), completed, duration };
}

export interface Workflow {
  workflow_id: string;
  goal: string;
  path: string[];
  /** times the path led to the goal */
  occurrences: number;
  /** share of the goal's completed paths */
  frequency: number;
  /** distinct users who reached the goal along the path */
  users: number;
  /** users ÷ all users considered */
  user_share: number;
  /** attempts that started along this path (its first step) and reached the goal */
  completion_rate: number;
  /** seconds, mean over the completed occurrences */
  avg_time: number;
  /** the goal's shortest successful (merged, non-empty) path length; 0 when every path is empty */
  optimal_steps: number;
  /** mean raw steps (repeats counted) taken on the path */
  actual_avg_steps: number;
  /** optimal_steps ÷ actual_avg_steps, at most 1; 1 for the empty path */
  efficiency_score: number;
}

/** Stable across runs and replays: a function of the goal and the path only. */
export function workflowId(goal: string, path: string[]): string {
  return `wf_${crypto
    .createHash('sha256')
    .update(JSON.stringify([goal, path]))
    .digest('hex')
    .slice(0, 20)}`;
}

interface Group {
  path: string[];
  n: number;
  time: number;
  raw: number;
  users: Set<string>;
}

/**
 * The workflows of a goal from every attempt: completed paths grouped, rare ones folded into
 * "other" (never dropped), ordered by occurrences then path. Completion rate of a path: among
 * attempts whose first step is the path's first step, the share that reached the goal.
 * `totalUsers` is the denominator of user_share (default: the users among the attempts).
 */
export function mineWorkflows(
  goal: string,
  all: Attempt[],
  rules: PathRules = DEFAULT_PATH_RULES,
  totalUsers = new Set(all.flatMap((a) => (a.user === undefined ? [] : [a.user]))).size,
): Workflow[] {
  const completed = all.filter((a) => a.completed);
  const groups = new Map<string, Group>();
  for (const a of completed) {
    const key = JSON.stringify(a.path);
    const g = groups.get(key) ?? { path: a.path, n: 0, time: 0, raw: 0, users: new Set<string>() };
    g.n++;
    g.time += a.duration;
    g.raw += a.raw.length;
    if (a.user !== undefined) g.users.add(a.user);
    groups.set(key, g);
  }
  // An empty path (the goal at the session start) says nothing about the steps the goal needs.
  const lengths = completed.map((a) => mergeRepeats(a.raw).length).filter((n) => n > 0);
  const optimal = lengths.length > 0 ? Math.min(...lengths) : 0;
  /** Attempts whose first step is one of `firsts`: the share that reached the goal. */
  const completionRate = (firsts: Set<string>) => {
    const tried = all.filter((a) => firsts.has(a.path[0] ?? ''));
    return tried.length > 0 ? tried.filter((a) => a.completed).length / tried.length : 0;
  };
  const summarise = (goalPath: string[], members: Group[]): Workflow => {
    const n = members.reduce((sum, g) => sum + g.n, 0);
    const raw = members.reduce((sum, g) => sum + g.raw, 0) / n;
    const users = new Set(members.flatMap((g) => [...g.users])).size;
    return {
      workflow_id: workflowId(goal, goalPath),
      goal,
      path: goalPath,
      occurrences: n,
      frequency: n / completed.length,
      users,
      user_share: totalUsers > 0 ? users / totalUsers : 0,
      completion_rate: completionRate(new Set(members.map((g) => g.path[0] ?? ''))),
      avg_time: members.reduce((sum, g) => sum + g.time, 0) / n / 1000,
      optimal_steps: optimal,
      actual_avg_steps: raw,
      efficiency_score: raw > 0 ? Math.min(1, optimal / raw) : 1,
    };
  };
  const kept = [...groups.values()].filter((g) => g.n >= rules.minOccurrences);
  const folded = [...groups.values()].filter((g) => g.n < rules.minOccurrences);
  const workflows = kept.map((g) => summarise(g.path, [g]));
  if (folded.length > 0) workflows.push(summarise([OTHER], folded));
  const key = (w: Workflow) => JSON.stringify(w.path);
  return workflows.sort((a, b) =>
    a.path[0] === OTHER ? 1 : b.path[0] === OTHER ? -1 : b.occurrences - a.occurrences || (key(a) < key(b) ? -1 : 1),
  );
}
