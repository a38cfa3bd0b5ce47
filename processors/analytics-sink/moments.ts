import type { AnalyticsConfig } from '../../domain/analytics-config.js';
import type { PoolClient } from '../../lib/db.js';
import type { SessionContribution } from '../../domain/contribution/types.js';
import { frictionEpisodes } from '../../domain/friction/episodes.js';
import { type ActiveJob, type GoalEvent, jobCompletions } from '../../domain/jobs/completions.js';

/**
 * Moments: rows published once (stream, webhooks) when first seen. They are inserted with
 * `on conflict do nothing` and kept across replays, so re-processing never announces twice.
 */

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
  if (rows.length === 0) return;
  await client.query(
    `insert into friction_episodes (project_id, episode_id, user_id, session_id, signal, page, element, friction_index, detected_at)
     select (e->>'project_id')::uuid, e->>'episode_id', e->>'user_id', e->>'session_id', e->>'signal', e->>'page',
            e->>'element', (e->>'friction_index')::float8, to_timestamp((e->>'detected_at')::bigint / 1000.0)
     from jsonb_array_elements($1::jsonb) e
     on conflict (project_id, episode_id) do nothing`,
    [JSON.stringify(rows)],
  );
}

export async function recordJobCompletions(
  client: PoolClient,
  events: (GoalEvent & { project_id: string })[],
): Promise<void> {
  if (events.length === 0) return;
  const { rows: jobs } = await client.query<ActiveJob & { project_id: string }>(
    `select project_id, job_id, goal, (extract(epoch from created_at) * 1000)::bigint as created_at, target_audience
     from jobs where status = 'active' and (project_id, goal) in (select * from unnest($1::uuid[], $2::text[]))`,
    [events.map((e) => e.project_id), events.map((e) => e.event)],
  );
  if (jobs.length === 0) return;
  const goals = new Set(jobs.map((j) => `${j.project_id}\u0000${j.goal}`));
  const candidates = events.filter((e) => goals.has(`${e.project_id}\u0000${e.event}`));
  const { rows: users } = await client.query<{
    project_id: string;
    user_id: string;
    properties: Record<string, unknown>;
  }>(
    `select u.project_id, u.user_id, u.properties from users u
     join unnest($1::uuid[], $2::text[]) as c(project_id, user_id) using (project_id, user_id)`,
    [candidates.map((e) => e.project_id), candidates.map((e) => e.user_id)],
  );
  const properties = new Map(users.map((u) => [`${u.project_id}\u0000${u.user_id}`, u.properties]));
  for (const projectId of new Set(candidates.map((e) => e.project_id))) {
    const completions = jobCompletions(
      candidates.filter((e) => e.project_id === projectId),
      jobs.filter((j) => j.project_id === projectId),
      (userId) => properties.get(`${projectId}\u0000${userId}`) ?? {},
    );
    if (completions.length === 0) continue;
    await client.query(
      `insert into job_completions (project_id, job_id, user_id, completion_id, completed_at, message_id)
       select $1, u.job_id, u.user_id, u.completion_id, to_timestamp(u.ms / 1000.0), u.message_id
       from unnest($2::text[], $3::text[], $4::text[], $5::bigint[], $6::text[]) as u(job_id, user_id, completion_id, ms, message_id)
       on conflict (project_id, job_id, user_id) do nothing`,
      [
        projectId,
        completions.map((c) => c.job_id),
        completions.map((c) => c.user_id),
        completions.map((c) => c.completion_id),
        completions.map((c) => c.completed_at),
        completions.map((c) => c.message_id),
      ],
    );
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
  await client.query(
    `insert into job_interventions (project_id, message_id, job_id, user_id, kind, intervention, occurred_at)
     select u.project_id, u.message_id, u.job_id, u.user_id, u.kind, u.intervention, to_timestamp(u.ms / 1000.0)
     from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[])
       as u(project_id, message_id, job_id, user_id, kind, intervention, ms)
     where exists (select 1 from jobs j where j.project_id = u.project_id and j.job_id = u.job_id)
     on conflict (project_id, message_id) do nothing`,
    [
      rows.map((r) => r.project_id),
      rows.map((r) => r.message_id),
      rows.map((r) => r.intervention!.job_id as string),
      rows.map((r) => r.user_id),
      rows.map((r) => (r.event === 'intervention_shown' ? 'shown' : 'accepted')),
      rows.map((r) => (typeof r.intervention!.intervention === 'string' ? r.intervention!.intervention : null)),
      rows.map((r) => r.ms),
    ],
  );
}
