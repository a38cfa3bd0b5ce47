/**
 * What one user adds to a job's numbers (docs/metrics.md §12), kept per job and user so that a
 * change of the user (events, properties, completion) moves the job's sums by the difference
 * instead of counting every user again.
 */
export interface JobUserFacts {
  job_id: string;
  user_id: string;
  /** the job targets the user now (job_targets) */
  in_targets: boolean;
  completed: boolean;
  /** ms from the user's first event received after the job was created to the completion, at least 0; 0 unless completed */
  completion_ms: number;
  /** the user's intervention_shown and intervention_accepted events of the job */
  shown: number;
  accepted: number;
  /** distinct steps (workflows' steps) of the user's events received after the job was created */
  steps: string[];
  /** the step of the latest of those events (time, then arrival) */
  last_step: string | null;
  /**
   * The UTC day (YYYY-MM-DD) of the first of those events: the user's start on the job, the day a
   * windowed answer counts the user on (migration 27); null when there is none.
   */
  day: string | null;
}

export interface JobSums {
  /** targeted now or completed */
  targeted: number;
  completed: number;
  completion_ms: number;
  shown: number;
  accepted: number;
}

export interface StepSums {
  step: string;
  /** targeted users who took the step */
  reached: number;
  /** of those, users who have not completed and whose last step it is */
  dropped: number;
}

/** The user's share of the job's sums and of each step's. */
export function jobContribution(f: JobUserFacts): { sums: JobSums; steps: StepSums[] } {
  return {
    sums: {
      targeted: f.in_targets || f.completed ? 1 : 0,
      completed: f.completed ? 1 : 0,
      completion_ms: f.completed ? f.completion_ms : 0,
      shown: f.shown,
      accepted: f.accepted,
    },
    // Drop-offs count targeted users only; the last step counts for those who have not completed.
    steps: f.in_targets
      ? f.steps.map((step) => ({ step, reached: 1, dropped: !f.completed && step === f.last_step ? 1 : 0 }))
      : [],
  };
}

/** Facts that add nothing to any sum need no row. */
export const addsNothing = (f: JobUserFacts) => !f.in_targets && !f.completed && f.shown === 0 && f.accepted === 0;
