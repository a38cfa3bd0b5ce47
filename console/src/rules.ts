/**
 * Figures of the service's rules that the console explains in words. The console bundle does not
 * import the service's code, so they are repeated here; test/unit/console-rules.test.ts fails when
 * they drift from the rules themselves.
 */

/**
 * Behavioural cohorts need at least two clusters of at least five users each, users with a session
 * (BEHAVIOURAL_COHORTS.kMin × minClusterSize, minSessions = 1, in domain/cohorts/behavioural.ts).
 */
export const MIN_COHORT_USERS = 10;

/** The cohort worker looks at a young project again this soon after new data (workers/behavioural-cohorts/schedule.ts). */
export const COHORTS_FIRST_RECOMPUTE_SECONDS = 30;
