/** What the planned scenario steps imply: the goal's workflows and the job's numbers. */
import { GOAL, type PlannedSession, type PlannedStep } from './scenario-plan.js';
import type { ScenarioAnswers, Simulation, WorkflowAnswer } from './types.js';

const JOB_CRITERIA = "plan == 'pro'";
const MAX_PATH = 10;
const MIN_OCCURRENCES = 2;

/**
 * The goal's workflows counted from the planned steps under docs/metrics.md ("Workflows"):
 * sessions cut at the goal, repeats merged, more than 10 steps → first 8, "...", last; paths seen
 * once fold into "other". The plan never puts a goal first in a session or two goals in a row.
 */
export function plannedWorkflows(sessions: PlannedSession[], totalUsers: number): ScenarioAnswers['workflows'] {
  const tried: { user: string; path: string[]; done: boolean; ms: number }[] = [];
  const close = (user: string, segment: PlannedStep[], done: boolean, end: number) => {
    const merged = segment.map((s) => s.name).filter((name, k, all) => k === 0 || all[k - 1] !== name);
    const path = merged.length > MAX_PATH ? [...merged.slice(0, MAX_PATH - 2), '...', merged.at(-1)!] : merged;
    tried.push({ user, path, done, ms: end - segment[0]!.at });
  };
  for (const { user, steps } of sessions) {
    let segment: PlannedStep[] = [];
    for (const step of steps) {
      if (step.name !== GOAL) {
        segment.push(step);
        continue;
      }
      close(user, segment, true, step.at);
      segment = [];
    }
    if (segment.length > 0) close(user, segment, false, segment.at(-1)!.at);
  }
  const done = tried.filter((t) => t.done);
  const byPath = new Map<string, typeof done>();
  for (const t of done) byPath.set(JSON.stringify(t.path), [...(byPath.get(JSON.stringify(t.path)) ?? []), t]);
  const answer = (path: string[], members: typeof done): WorkflowAnswer => {
    const firsts = new Set(members.map((m) => m.path[0]));
    const from = tried.filter((t) => firsts.has(t.path[0]));
    const users = new Set(members.map((m) => m.user)).size;
    return {
      path,
      occurrences: members.length,
      frequency: members.length / done.length,
      users,
      user_share: users / totalUsers,
      completion_rate: from.filter((t) => t.done).length / from.length,
      avg_time: members.reduce((sum, m) => sum + m.ms, 0) / members.length / 1000,
    };
  };
  const kept = [...byPath.values()].filter((m) => m.length >= MIN_OCCURRENCES);
  const rare = [...byPath.values()].filter((m) => m.length < MIN_OCCURRENCES).flat();
  const key = (w: WorkflowAnswer) => JSON.stringify(w.path);
  const workflows = kept
    .map((m) => answer(m[0]!.path, m))
    .sort((a, b) => b.occurrences - a.occurrences || (key(a) < key(b) ? -1 : 1));
  if (rare.length > 0) workflows.push(answer(['other'], rare));
  return { goal: GOAL, attempts: tried.length, completions: done.length, workflows };
}

/**
 * The job "reach the goal", aimed at pro users, created before the traffic: it targets every pro
 * user, and completes for those who reach the goal; time runs from the user's first event to
 * their first goal event.
 */
export function plannedJob(users: Simulation['users'], sessions: PlannedSession[]): ScenarioAnswers['job'] {
  const pro = new Set(users.filter((u) => u.properties.plan === 'pro').map((u) => u.user_id));
  const first = new Map<string, number>();
  const goal = new Map<string, number>();
  // Sessions were planned user by user, day by day: the first seen is the earliest.
  for (const { user, steps } of sessions) {
    if (!first.has(user)) first.set(user, steps[0]!.at);
    const reached = steps.find((s) => s.name === GOAL);
    if (reached && !goal.has(user)) goal.set(user, reached.at);
  }
  const completers = [...pro].filter((u) => goal.has(u));
  const seconds = completers.reduce((sum, u) => sum + (goal.get(u)! - first.get(u)!) / 1000, 0);
  return {
    goal: GOAL,
    target_audience: { type: 'segment' as const, criteria: JOB_CRITERIA },
    users_targeted: pro.size,
    users_completed: completers.length,
    completion_rate: pro.size > 0 ? completers.length / pro.size : 0,
    avg_time_to_completion: completers.length > 0 ? seconds / completers.length : 0,
  };
}
