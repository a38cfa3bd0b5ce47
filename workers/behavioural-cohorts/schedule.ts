/**
 * When the worker looks at a project again after a computation (or a check that found its tables
 * unchanged). The wait grows with the users the project had then: a computation's work (the
 * fingerprint scan, assigning every user, writing members) grows with them, so a project's
 * recomputations cost at most about SETTLED_USERS users' worth per RECOMPUTE_AFTER_MS however
 * busy it is, while a new project, whose first pass usually finds it empty or too small for
 * cohorts, is looked at again within FIRST_RECOMPUTE_MS as its data arrives
 * (docs/adr/0081-young-projects-recomputed-sooner.md).
 */

/** The longest wait: a project of SETTLED_USERS users or more waits this long. */
export const RECOMPUTE_AFTER_MS = 10 * 60_000;

/** The shortest wait: an empty or small project is looked at again this soon. */
export const FIRST_RECOMPUTE_MS = 30_000;

/** From this many users on, a project waits RECOMPUTE_AFTER_MS. */
export const SETTLED_USERS = 10_000;

/** How long after a computation of a project with `users` users (clustered or not) it is looked at again. */
export function recomputeWaitMs(users: number): number {
  const proportional = (RECOMPUTE_AFTER_MS * Math.max(0, users)) / SETTLED_USERS;
  return Math.min(RECOMPUTE_AFTER_MS, Math.max(FIRST_RECOMPUTE_MS, proportional));
}
