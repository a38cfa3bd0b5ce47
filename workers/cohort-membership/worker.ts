import { PROJECT_LIMITS, cohortsThisPass } from '../../domain/limits.js';
import { periodicWorker } from '../../lib/notify.js';
import { workerPace } from '../../lib/pacing.js';
import type { Services } from '../../lib/services.js';
import {
  COHORT_MEMBERSHIP_PASS,
  customCohortsDue,
  evaluateCohort,
  projectsDueForMembership,
  takeChangedUsers,
} from '../../store/cohort-membership.js';
import { projectPass } from '../../store/locks.js';

/**
 * How often a cohort whose criteria depend on time alone (last_seen_days) is evaluated over all its
 * project's users: between such passes only users whose metrics changed are evaluated, so a user
 * who just stays away crosses a last_seen_days bound up to this late.
 */
export const TIME_RELATIVE_PASS_MS = 10 * 60_000;

/** Metrics whose value moves with the clock, without any event. */
const TIME_RELATIVE = ['last_seen_days'];

/**
 * Live membership of custom cohorts (docs/metrics.md §14): each pass evaluates every custom cohort's
 * criteria for the users whose user_metrics row changed since the last pass (cohort_user_changes),
 * and over all of the project's users for a cohort never evaluated, whose criteria changed, or whose
 * criteria depend on time and whose last such evaluation is TIME_RELATIVE_PASS_MS old. Differences
 * are recorded as cohort_changes rows (published as cohort.changed); a cohort's first pass adds all
 * its members. At most `fullPerPass` evaluations over all users per project and pass (cohortsThisPass):
 * a project with many new cohorts is worked through over several passes. One transaction per
 * project, under its pass lock (another worker skips the project).
 * Returns how many change rows were recorded.
 */
export async function refreshCohortMembership(
  services: Services,
  fullPerPass: number = PROJECT_LIMITS.fullCohortEvaluationsPerPass,
): Promise<number> {
  const { db } = services;
  const projects = await projectsDueForMembership(db, TIME_RELATIVE, TIME_RELATIVE_PASS_MS);
  let changes = 0;
  for (const project_id of projects) {
    changes +=
      (await projectPass(db, COHORT_MEMBERSHIP_PASS, project_id, { wait: false }, async (client) => {
        const changed = await takeChangedUsers(client, project_id);
        const rows = await customCohortsDue(client, project_id, TIME_RELATIVE, TIME_RELATIVE_PASS_MS);
        let recorded = 0;
        for (const c of cohortsThisPass(rows, fullPerPass)) {
          if (!c.full && changed.length === 0) continue;
          recorded += await evaluateCohort(client, project_id, c.cohort_id, c.criteria, c.full ? 'all' : changed);
        }
        return recorded;
      })) ?? 0;
  }
  return changes;
}

export function startCohortMembership(services: Services): Promise<{ stop(): Promise<void> }> {
  const log = services.log.child({ component: 'cohort-membership' });
  return periodicWorker(
    () => refreshCohortMembership(services),
    services.config.pollIntervalMs,
    log,
    workerPace(services.config),
  );
}
