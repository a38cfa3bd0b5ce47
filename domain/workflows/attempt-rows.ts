import { attempts, firstStep, mergeRepeats } from './mining.js';
import { type StepEvent, stepsOf } from './steps.js';

/**
 * One attempt at a goal as workflow_attempts keeps it: what the goal's summary (mining.ts,
 * GoalSummary) sums, and nothing more. A session's rows are replaced whenever the session changes,
 * their old values subtracted from the goal's sums and the new ones added.
 */
export interface AttemptRow {
  goal: string;
  /** the attempt's place in its session */
  ordinal: number;
  user_id: string;
  completed: boolean;
  /** JSON of the merged, capped path: completed attempts are grouped by it */
  path: string;
  /** steps before the goal, repeats counted */
  raw_steps: number;
  /** the same with repeats merged (the optimum is the least non-empty one) */
  merged_steps: number;
  duration_ms: number;
}

/** The attempts of one session (its events, any order) at each goal. */
export function attemptRows(user: string, events: StepEvent[], goals: string[]): AttemptRow[] {
  return goals.flatMap((goal) =>
    attempts(stepsOf(events, goal), goal).map((a, ordinal) => ({
      goal,
      ordinal,
      user_id: user,
      completed: a.completed,
      path: JSON.stringify(a.path),
      raw_steps: a.raw.length,
      merged_steps: mergeRepeats(a.raw).length,
      duration_ms: a.duration,
    })),
  );
}

/** The first step of a stored attempt's path ('' for the empty path). */
export const firstStepOf = (row: Pick<AttemptRow, 'path'>) => firstStep(JSON.parse(row.path) as string[]);
