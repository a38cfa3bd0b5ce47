import type { Pool } from '../lib/db.js';

/** rate_limit_windows: every API process's request counts per project, bucket and hourly window (api/rate-limit.ts). */

/**
 * Adds the counts to the projects' windows in one statement, rows in key order (two settles never
 * wait on each other's locks in a cycle), and reads each row's total. `last_granted` is what the
 * statement added, so a row whose count is all of it is its window's first: the project's earlier
 * windows of that bucket are deleted then.
 */
export async function addWindowCounts(
  db: Pool,
  counts: { projectId: string; bucket: string; windowStart: Date; requests: number }[],
): Promise<{ project_id: string; bucket: string; requests: number }[]> {
  const { rows } = await db.query<{ project_id: string; bucket: string; requests: number }>(
    `with counted as (
       insert into rate_limit_windows as w (project_id, bucket, window_start, requests, last_granted)
       select project_id, bucket, window_start, requests, requests
       from unnest($1::uuid[], $2::text[], $3::timestamptz[], $4::int[]) as c(project_id, bucket, window_start, requests)
       order by project_id, bucket
       on conflict (project_id, bucket, window_start) do update
         set requests = w.requests + excluded.requests, last_granted = excluded.requests
       returning project_id, bucket, window_start, requests, last_granted),
     dropped as (
       delete from rate_limit_windows w using counted c
       where c.requests = c.last_granted and w.project_id = c.project_id and w.bucket = c.bucket
         and w.window_start < c.window_start)
     select project_id, bucket, requests from counted`,
    [
      counts.map((c) => c.projectId),
      counts.map((c) => c.bucket),
      counts.map((c) => c.windowStart),
      counts.map((c) => c.requests),
    ],
  );
  return rows;
}
