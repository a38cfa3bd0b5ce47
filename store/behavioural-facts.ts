import { BEHAVIOURAL_COHORTS, type UserFacts } from '../domain/cohorts/behavioural.js';
import { type CohortCriteria, compileCohortCriteria } from '../domain/cohorts/criteria.js';
import { spread } from '../domain/cohorts/kmeans.js';
import type { PoolClient } from '../lib/db.js';

/**
 * The facts a behaviour vector is built from (domain/cohorts/behavioural.ts), per user of a project
 * ($1) that `where` (over user_metrics m) admits, read from the materialized tables.
 */
const factsOf = (where: string) => `
  select m.user_id, m.sessions, m.days_active, m.features_used,
         (select count(*)::int from feature_users fu where fu.project_id = m.project_id and fu.user_id = m.user_id)
           as features_seen,
         m.avg_session_seconds, m.friction_index,
         to_char(m.first_seen_at at time zone 'utc', 'YYYY-MM-DD') as first_seen_day,
         coalesce(f.views, 0) as views, coalesce(f.loop_views, 0) as loop_views
  from user_metrics m
  left join user_friction f on f.project_id = m.project_id and f.user_id = m.user_id
  where m.project_id = $1 and ${where}`;

/** Per clustered user; ids in "C" order (code points), the order the clustering sums users in, whatever the collation. */
const CLUSTERED_FACTS = factsOf('m.sessions >= $2');

/**
 * The users a project's model is fitted on: every clustered user when there are at most `limit`
 * (modelSample) of them, else `limit` of them evenly spread over the sorted ids (`clustered`: how
 * many there are, read in the same snapshot).
 */
export async function modelSample(
  client: PoolClient,
  projectId: string,
  clustered: number,
  limit: number = BEHAVIOURAL_COHORTS.modelSample,
): Promise<UserFacts[]> {
  const c = BEHAVIOURAL_COHORTS;
  if (clustered <= limit) {
    const { rows } = await client.query<UserFacts>(`${CLUSTERED_FACTS} order by m.user_id collate "C"`, [
      projectId,
      c.minSessions,
    ]);
    return rows;
  }
  const { rows } = await client.query<UserFacts>(
    `${CLUSTERED_FACTS} and m.user_id in (
       select user_id from (
         select user_id, row_number() over (order by user_id collate "C") - 1 as i
         from user_metrics where project_id = $1 and sessions >= $2) n
       where i = any ($3::bigint[]))
     order by m.user_id collate "C"`,
    [projectId, c.minSessions, spread(clustered, limit)],
  );
  return rows;
}

/**
 * Every clustered user's facts, `chunk` at a time in id order, through a cursor of the calling
 * transaction: memory is bounded by the chunk, not by the project.
 */
export function eachClusteredChunk(
  client: PoolClient,
  projectId: string,
  chunk: number,
  visit: (facts: UserFacts[]) => Promise<void>,
): Promise<void> {
  return eachChunk(
    client,
    `${CLUSTERED_FACTS} order by m.user_id collate "C"`,
    [projectId, BEHAVIOURAL_COHORTS.minSessions],
    chunk,
    visit,
  );
}

/**
 * The facts of every user meeting `criteria` (a custom cohort's members), `chunk` at a time through
 * a cursor of the calling transaction.
 */
export function eachMemberChunk(
  client: PoolClient,
  projectId: string,
  criteria: CohortCriteria,
  chunk: number,
  visit: (facts: UserFacts[]) => Promise<void>,
): Promise<void> {
  const { sql, params } = compileCohortCriteria(criteria, 2);
  return eachChunk(client, factsOf(sql), [projectId, ...params], chunk, visit);
}

async function eachChunk(
  client: PoolClient,
  query: string,
  params: unknown[],
  chunk: number,
  visit: (facts: UserFacts[]) => Promise<void>,
): Promise<void> {
  await client.query(`declare user_facts no scroll cursor for ${query}`, params);
  // On an error the transaction rolls back, and the cursor with it.
  for (;;) {
    const { rows } = await client.query<UserFacts>(`fetch forward ${chunk} from user_facts`);
    if (rows.length === 0) break;
    await visit(rows);
  }
  await client.query('close user_facts');
}

/**
 * A project's user count (the denominator of a cohort's percentage) and its latest active day (the
 * reference day of behaviour vectors; 1970-01-01 without any).
 */
export async function projectUsers(
  client: PoolClient,
  projectId: string,
): Promise<{ users: number; referenceDay: string }> {
  const { rows } = await client.query<{ users: number; reference_day: string | null }>(
    `select count(*)::int as users, to_char(max(last_seen_at) at time zone 'utc', 'YYYY-MM-DD') as reference_day
     from user_metrics where project_id = $1`,
    [projectId],
  );
  return { users: rows[0]!.users, referenceDay: rows[0]!.reference_day ?? '1970-01-01' };
}
