import type { Pool } from '../lib/db.js';

/** What the stream publishes (api/stream/server.ts): recent friction_alerts, job_completions and cohort_changes rows. */

/** A row to publish: its key (project, kind, id), project, channel, time and message data. */
export interface StreamRow<Channel extends string = string> {
  key: string;
  project_id: string;
  channel: Channel;
  at: Date;
  data: Record<string, unknown>;
}

/** Reads the friction alerts, job completions and cohort changes of the last `lookbackMs`, oldest first. */
export async function recentStreamRows<Channel extends string>(
  db: Pool,
  lookbackMs: number,
): Promise<StreamRow<Channel>[]> {
  const { rows } = await db.query<StreamRow<Channel>>(
    `select project_id || ':fa:' || alert_id as key, project_id, 'friction_alerts' as channel, created_at as at,
            jsonb_build_object('alert_id', alert_id, 'page', page, 'day', day,
                               'friction_index', friction_index, 'users_affected', users_affected) as data
     from friction_alerts where created_at > now() - $1 * interval '1 millisecond'
     union all
     select project_id || ':jc:' || completion_id, project_id, 'job_completions', created_at,
            jsonb_build_object('job_id', job_id, 'user_id', user_id, 'completed_at', completed_at)
     from job_completions where created_at > now() - $1 * interval '1 millisecond'
     union all
     select c.project_id || ':cc:' || c.change_id, c.project_id, 'cohort_changes', c.changed_at, pi_cohort_change_data(c)
     from cohort_changes c where c.changed_at > now() - $1 * interval '1 millisecond'
     order by 4`,
    [lookbackMs],
  );
  return rows;
}
