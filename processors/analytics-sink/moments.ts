import type { AnalyticsConfig } from '../../domain/analytics-config.js';
import type { PoolClient } from '../../lib/db.js';
import type { SessionContribution } from '../../domain/contribution/types.js';
import { frictionEpisodes } from '../../domain/friction/episodes.js';
import { type GoalEvent, jobCompletions } from '../../domain/jobs/completions.js';
import {
  activeJobsWithGoals,
  insertFrictionEpisodes,
  insertInterventions,
  insertJobCompletions,
  userProperties,
} from '../../store/moments.js';

/** Moments the events stored now raise (their statements: store/moments.ts). */

export async function recordFrictionEpisodes(
  client: PoolClient,
  added: { projectId: string; userId: string; c: SessionContribution }[],
  configs: Map<string, AnalyticsConfig>,
  announced: ReadonlySet<string> = new Set(),
): Promise<void> {
  // A signal that starts with an event announced before (under the anonymous id it moved from) is
  // not announced again.
  const unannounced = (projectId: string, c: SessionContribution): SessionContribution =>
    announced.size === 0
      ? c
      : { ...c, signals: c.signals.filter((s) => !announced.has(`${projectId}\u0000${s.message_ids[0]}`)) };
  const rows = added.flatMap((a) =>
    frictionEpisodes(a.userId, unannounced(a.projectId, a.c), configs.get(a.projectId)!.weights).map((e) => ({
      ...e,
      project_id: a.projectId,
    })),
  );
  if (rows.length > 0) await insertFrictionEpisodes(client, rows);
}

export async function recordJobCompletions(
  client: PoolClient,
  events: (GoalEvent & { project_id: string })[],
): Promise<void> {
  if (events.length === 0) return;
  const jobs = await activeJobsWithGoals(
    client,
    events.map((e) => ({ projectId: e.project_id, event: e.event })),
  );
  if (jobs.length === 0) return;
  const goals = new Set(jobs.map((j) => `${j.project_id}\u0000${j.goal}`));
  const candidates = events.filter((e) => goals.has(`${e.project_id}\u0000${e.event}`));
  const users = await userProperties(
    client,
    candidates.map((e) => ({ projectId: e.project_id, userId: e.user_id })),
  );
  const properties = new Map(users.map((u) => [`${u.project_id}\u0000${u.user_id}`, u.properties]));
  for (const projectId of new Set(candidates.map((e) => e.project_id))) {
    const completions = jobCompletions(
      candidates.filter((e) => e.project_id === projectId),
      jobs.filter((j) => j.project_id === projectId),
      (userId) => properties.get(`${projectId}\u0000${userId}`) ?? {},
    );
    if (completions.length > 0) await insertJobCompletions(client, projectId, completions);
  }
}

/**
 * Hints and shortcuts a job showed, and those the user took: tracked as `intervention_shown`
 * and `intervention_accepted` with `job_id` (and optionally `intervention`, e.g. "hint").
 * Events naming no job of the project are not recorded.
 */
export async function recordInterventions(
  client: PoolClient,
  events: {
    project_id: string;
    user_id: string;
    event: string;
    message_id: string;
    ms: number;
    intervention: Record<string, unknown> | null;
  }[],
): Promise<void> {
  const rows = events.filter((e) => typeof e.intervention?.job_id === 'string');
  if (rows.length === 0) return;
  await insertInterventions(
    client,
    rows.map((r) => ({
      projectId: r.project_id,
      messageId: r.message_id,
      jobId: r.intervention!.job_id as string,
      userId: r.user_id,
      kind: r.event === 'intervention_shown' ? 'shown' : 'accepted',
      intervention: typeof r.intervention!.intervention === 'string' ? r.intervention!.intervention : null,
      ms: r.ms,
    })),
  );
}
