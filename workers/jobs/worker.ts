import { periodicWorker } from '../../lib/notify.js';
import type { Services } from '../../lib/services.js';
import { projectPass } from '../../store/locks.js';
import { BackfillPace, workerPace } from '../../lib/pacing.js';
import { targetedUsers } from '../../domain/jobs/targeting.js';
import {
  JOBS_PASS,
  changeJobFacts,
  knownUsers,
  materializeJob,
  projectJobUsers,
  projectJobs,
  projectsWithJobChanges,
  retarget,
  takeJobChanges,
} from '../../store/job-state.js';
import { jobUserFacts } from '../../store/job-user-facts.js';

/** Users re-targeted and recounted at once (memory and statement size are bounded by this). */
const USERS_PER_STEP = 500;

/**
 * Keeps Jobs alive (docs/metrics.md §12): for the users whose inputs changed since the last pass
 * (their events, completions, interventions or properties: job_user_changes), re-evaluates whom
 * each active job targets and replaces their facts (reading the events stored since the last pass,
 * jobUserFacts), moving the jobs' sums by the difference; a
 * change that concerns every user (a job created or edited, the project's settings, a replay's
 * truncate: job_changes) makes the pass go over all the project's users. Each job's analytics are
 * then written from its sums. Jobs that are not active keep their last targets. Projects without
 * changes are left alone, except `projectId`, whose numbers are written again in any case. The
 * worker's pass over all users is paced (PI_BACKFILL_SHARE_PERCENT); an explicit refresh is not.
 */
export async function refreshJobs(services: Services, projectId?: string): Promise<void> {
  const projects = projectId ? [projectId] : await projectsWithJobChanges(services.db);
  for (const project_id of projects) {
    // An explicit project waits for a busy pass; the worker skips it (its change rows stay).
    await projectPass(services.db, JOBS_PASS, project_id, { wait: projectId !== undefined }, async (client) => {
      const changes = await takeJobChanges(client, project_id);
      const jobs = await projectJobs(client, project_id);
      const users = changes.all
        ? (await projectJobUsers(client, project_id)).map((userId) => ({ userId, eventsSince: null }))
        : changes.users;
      if (jobs.length === 0 || (users.length === 0 && projectId === undefined)) return;
      const pace = new BackfillPace(changes.all && projectId === undefined ? services.config.backfillShare : 1);
      for (let i = 0; i < users.length; i += USERS_PER_STEP) {
        const step = users.slice(i, i + USERS_PER_STEP);
        const ids = step.map((u) => u.userId);
        const known = await knownUsers(client, project_id, ids);
        for (const job of jobs) {
          if (job.status === 'active') await retarget(client, project_id, job.job_id, ids, targetedUsers(job, known));
        }
        const facts = await jobUserFacts(client, project_id, jobs, step);
        await changeJobFacts(
          client,
          project_id,
          jobs.map((j) => j.job_id),
          ids,
          facts,
        );
        await pace.step();
      }
      for (const job of jobs) await materializeJob(client, project_id, job.job_id);
    });
  }
}

export function startJobWorker(services: Services): Promise<{ stop(): Promise<void> }> {
  const log = services.log.child({ component: 'jobs' });
  return periodicWorker(() => refreshJobs(services), services.config.pollIntervalMs, log, workerPace(services.config));
}
