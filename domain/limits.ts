/**
 * Limits per project that keep one tenant from taking the shared workers, mail server or database
 * for itself (docs/api.md, "Limits per project"). They are the operator's, not settings a
 * project's own admin key could raise.
 */
export const PROJECT_LIMITS = {
  /** Custom cohorts a project keeps: every one is re-evaluated by the cohort-membership worker. */
  customCohorts: 100,
  /** Cohorts evaluated over all of a project's users in one pass of that worker; the rest wait for the next. */
  fullCohortEvaluationsPerPass: 20,
  /** Manual report runs (POST /analytics/reports/{id}/run) a project may start in any hour. */
  manualReportRunsPerHour: 10,
  /** A user's stored properties, as JSON text, in bytes. */
  userPropertiesBytes: 32 * 1024,
} as const;

/** A cohort as the membership pass sees it. */
export interface CohortDue {
  cohort_id: string;
  /** evaluated over all users this pass (never evaluated, criteria changed, or time-relative and due) */
  full: boolean;
  /** the last evaluation over all users, null if none */
  evaluated_at: Date | null;
}

/**
 * The cohorts one pass evaluates: every cohort that only needs its changed users, and at most
 * `budget` full evaluations, never-evaluated cohorts first, then the longest waiting. A full
 * evaluation left out is skipped altogether (it covers the changed users when its turn comes).
 */
export function cohortsThisPass<C extends CohortDue>(cohorts: C[], budget: number): C[] {
  const full = cohorts
    .filter((c) => c.full)
    .sort(
      (a, b) =>
        (a.evaluated_at?.getTime() ?? -Infinity) - (b.evaluated_at?.getTime() ?? -Infinity) ||
        a.cohort_id.localeCompare(b.cohort_id),
    )
    .slice(0, budget);
  const chosen = new Set(full);
  return cohorts.filter((c) => !c.full || chosen.has(c));
}
