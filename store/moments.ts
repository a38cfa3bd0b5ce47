import type { FrictionEpisode } from '../domain/friction/episodes.js';
import type { ActiveJob, JobCompletion } from '../domain/jobs/completions.js';
import type { PoolClient } from '../lib/db.js';
import { type IdentityLink, LINKED, linkParams } from './identity-links.js';

/**
 * Statements on the moments the analytics step raises (friction episodes, job completions and
 * interventions): rows published once (stream, webhooks) when first seen, inserted with
 * `on conflict do nothing` and kept across replays, so re-processing never announces twice.
 */

export async function insertFrictionEpisodes(
  client: PoolClient,
  episodes: (FrictionEpisode & { project_id: string })[],
): Promise<void> {
  await client.query(
    `insert into friction_episodes (project_id, episode_id, user_id, session_id, signal, page, element, friction_index, detected_at)
     select (e->>'project_id')::uuid, e->>'episode_id', e->>'user_id', e->>'session_id', e->>'signal', e->>'page',
            e->>'element', (e->>'friction_index')::float8, to_timestamp((e->>'detected_at')::bigint / 1000.0)
     from jsonb_array_elements($1::jsonb) e
     on conflict (project_id, episode_id) do nothing`,
    [JSON.stringify(episodes)],
  );
}

/** The active jobs whose goal is one of the (project, event name) pairs. */
export async function activeJobsWithGoals(
  client: PoolClient,
  goals: { projectId: string; event: string }[],
): Promise<(ActiveJob & { project_id: string })[]> {
  const { rows } = await client.query<ActiveJob & { project_id: string }>(
    `select project_id, job_id, goal, (extract(epoch from created_at) * 1000)::bigint as created_at, target_audience
     from jobs where status = 'active' and (project_id, goal) in (select * from unnest($1::uuid[], $2::text[]))`,
    [goals.map((g) => g.projectId), goals.map((g) => g.event)],
  );
  return rows;
}

/** The stored properties of those of the users that were identified. */
export async function userProperties(
  client: PoolClient,
  users: { projectId: string; userId: string }[],
): Promise<{ project_id: string; user_id: string; properties: Record<string, unknown> }[]> {
  const { rows } = await client.query<{ project_id: string; user_id: string; properties: Record<string, unknown> }>(
    `select u.project_id, u.user_id, u.properties from users u
     join unnest($1::uuid[], $2::text[]) as c(project_id, user_id) using (project_id, user_id)`,
    [users.map((u) => u.projectId), users.map((u) => u.userId)],
  );
  return rows;
}

/** A user's first completion of each job (a later one of the same job changes nothing). */
export async function insertJobCompletions(
  client: PoolClient,
  projectId: string,
  completions: JobCompletion[],
): Promise<void> {
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

export interface InterventionRow {
  projectId: string;
  messageId: string;
  jobId: string;
  userId: string;
  kind: 'shown' | 'accepted';
  intervention: string | null;
  ms: number;
}

/** Interventions naming a job of their project (others are not recorded). */
export async function insertInterventions(client: PoolClient, rows: InterventionRow[]): Promise<void> {
  await client.query(
    `insert into job_interventions (project_id, message_id, job_id, user_id, kind, intervention, occurred_at)
     select u.project_id, u.message_id, u.job_id, u.user_id, u.kind, u.intervention, to_timestamp(u.ms / 1000.0)
     from unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[])
       as u(project_id, message_id, job_id, user_id, kind, intervention, ms)
     where exists (select 1 from jobs j where j.project_id = u.project_id and j.job_id = u.job_id)
     on conflict (project_id, message_id) do nothing`,
    [
      rows.map((r) => r.projectId),
      rows.map((r) => r.messageId),
      rows.map((r) => r.jobId),
      rows.map((r) => r.userId),
      rows.map((r) => r.kind),
      rows.map((r) => r.intervention),
      rows.map((r) => r.ms),
    ],
  );
}

/**
 * The anonymous ids' moments become their users' (identity stitching: announced once, so kept);
 * a job completed by both ids is the person's once, the user's completion staying.
 */
export async function moveMoments(client: PoolClient, links: IdentityLink[]): Promise<void> {
  const params = linkParams(links);
  const linked = LINKED;
  for (const table of ['friction_episodes', 'job_interventions']) {
    await client.query(
      `update ${table} t set user_id = l.user_id from ${linked}
       where t.project_id = l.project_id and t.user_id = l.anonymous_id`,
      params,
    );
  }
  await client.query(
    `update job_completions c set user_id = l.user_id from ${linked}
     where c.project_id = l.project_id and c.user_id = l.anonymous_id
       and not exists (select 1 from job_completions o
                       where o.project_id = c.project_id and o.job_id = c.job_id and o.user_id = l.user_id)`,
    params,
  );
  await client.query(
    `delete from job_completions c using ${linked} where c.project_id = l.project_id and c.user_id = l.anonymous_id`,
    params,
  );
}
