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

/** The completed attempts of one path, summed: what a workflow is made of. */
export interface PathGroup {
  path: string[];
  /** completed attempts along the path */
  occurrences: number;
  /** Σ durations, ms */
  duration: number;
  /** Σ raw steps (repeats counted) */
  rawSteps: number;
  /** distinct users who completed along the path */
  users: number;
  /** Those users. Needed only for paths that fold into "other", whose users are counted over the union. */
  userIds?: string[];
}

/**
 * What the workflows of a goal are computed from. Every part is a sum over attempts (or the least
 * non-empty length, kept as counts per length), so it can be kept up to date by adding the attempts of
 * changed sessions and subtracting their old ones (store/workflow-attempts.ts) instead of mining again.
 */
export interface GoalSummary {
  paths: PathGroup[];
  /** per first step of an attempt's path ('' for the empty path): all attempts, and those completed */
  firstSteps: Map<string, { attempts: number; completions: number }>;
  /** the shortest completed non-empty merged path; 0 when every completed path is empty */
  optimalSteps: number;
}

/** The first step of a path, '' for the empty path: what completion rates are counted by. */
export const firstStep = (path: string[]) => path[0] ?? '';

/** The summary of a goal's attempts, all in hand. */
export function summariseAttempts(all: Attempt[]): GoalSummary {
  const groups = new Map<string, PathGroup & { ids: Set<string> }>();
  const firstSteps = new Map<string, { attempts: number; completions: number }>();
  let optimalSteps = 0;
  for (const a of all) {
    const first = firstSteps.get(firstStep(a.path)) ?? { attempts: 0, completions: 0 };
    first.attempts++;
    firstSteps.set(firstStep(a.path), first);
    if (!a.completed) continue;
    first.completions++;
    const key = JSON.stringify(a.path);
    const g = groups.get(key) ?? { path: a.path, occurrences: 0, duration: 0, rawSteps: 0, users: 0, ids: new Set() };
    g.occurrences++;
    g.duration += a.duration;
    g.rawSteps += a.raw.length;
    if (a.user !== undefined) g.ids.add(a.user);
    groups.set(key, g);
    // An empty path (the goal at the session start) says nothing about the steps the goal needs.
    const merged = mergeRepeats(a.raw).length;
    if (merged > 0 && (optimalSteps === 0 || merged < optimalSteps)) optimalSteps = merged;
  }
  const paths = [...groups.values()].map(({ ids, ...g }) => ({ ...g, users: ids.size, userIds: [...ids] }));
  return { paths, firstSteps, optimalSteps };
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
  return workflowsOf(goal, summariseAttempts(all), rules, totalUsers);
}

/** The workflows of a goal from its summary (mineWorkflows, for attempts summed elsewhere). */
export function workflowsOf(goal: string, summary: GoalSummary, rules: PathRules, totalUsers: number): Workflow[] {
  const completed = summary.paths.reduce((sum, g) => sum + g.occurrences, 0);
  const optimal = summary.optimalSteps;
  /** Attempts whose first step is one of `firsts`: the share that reached the goal. */
  const completionRate = (firsts: Set<string>) => {
    let tried = 0;
    let reached = 0;
    for (const first of firsts) {
      tried += summary.firstSteps.get(first)?.attempts ?? 0;
      reached += summary.firstSteps.get(first)?.completions ?? 0;
    }
    return tried > 0 ? reached / tried : 0;
  };
  const summarise = (goalPath: string[], members: PathGroup[], folded: boolean): Workflow => {
    const n = members.reduce((sum, g) => sum + g.occurrences, 0);
    const raw = members.reduce((sum, g) => sum + g.rawSteps, 0) / n;
    const users = folded ? new Set(members.flatMap((g) => foldedUsers(g))).size : members[0]!.users;
    return {
      workflow_id: workflowId(goal, goalPath),
      goal,
      path: goalPath,
      occurrences: n,
      frequency: n / completed,
      users,
      user_share: totalUsers > 0 ? users / totalUsers : 0,
      completion_rate: completionRate(new Set(members.map((g) => firstStep(g.path)))),
      avg_time: members.reduce((sum, g) => sum + g.duration, 0) / n / 1000,
      optimal_steps: optimal,
      actual_avg_steps: raw,
      efficiency_score: raw > 0 ? Math.min(1, optimal / raw) : 1,
    };
  };
  const kept = summary.paths.filter((g) => g.occurrences >= rules.minOccurrences);
  const folded = summary.paths.filter((g) => g.occurrences < rules.minOccurrences);
  const workflows = kept.map((g) => summarise(g.path, [g], false));
  if (folded.length > 0) workflows.push(summarise([OTHER], folded, true));
  const key = (w: Workflow) => JSON.stringify(w.path);
  return workflows.sort((a, b) =>
    a.path[0] === OTHER ? 1 : b.path[0] === OTHER ? -1 : b.occurrences - a.occurrences || (key(a) < key(b) ? -1 : 1),
  );
}

function foldedUsers(g: PathGroup): string[] {
  if (!g.userIds) throw new Error(`the users of folded path ${JSON.stringify(g.path)} are needed to count "other"`);
  return g.userIds;
}
