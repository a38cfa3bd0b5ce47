import { type Pool, type PoolClient, inTransaction } from '../lib/db.js';

/**
 * The lock protocol (store/README.md). A transaction that changes rows other programs change too
 * takes, in this order and never the other way round:
 *   1. the advisory locks of the users whose rows it changes (`lockUsers`, in hash order);
 *   2. the rows of the projects whose settings it depends on (`shareProjects`; a settings change
 *      takes its row `for update` instead, `lockProjectForUpdate`);
 *   3. shared rows in table-name and key order (AdditiveDeltas.apply writes so).
 * Every locker follows the same order, so lockers wait for each other but never deadlock.
 * Workers' per-project passes (`projectPass`) use advisory locks of their own, outside this order:
 * they are taken first in their transaction and serialise only passes of the same kind. Erasure
 * takes the workflows, cohort-membership and jobs pass locks after the user's lock (`lockProjectPass`),
 * so a running pass cannot write the user's rows back after they are deleted; a pass never waits
 * for a user lock or for a row erasure holds, so this adds no cycle.
 */

export interface UserRef {
  projectId: string;
  userId: string;
}

/**
 * 1. Serialises work on users' rows until commit: the sinks lock a batch's users before writing,
 * erasure locks the user before deleting, so an erasure and a batch of the same user never
 * interleave (each sees the other's committed rows).
 */
export async function lockUsers(client: PoolClient, users: UserRef[]): Promise<void> {
  await advisoryLocks(client, 'pg_advisory_xact_lock', '', users);
}

/**
 * 1, for a writer that only adds rows an erasure deletes (the raw sink): a shared lock of each
 * user's erasure guard, a lock of its own that only an erasure takes exclusively (`lockErasure`,
 * after `lockUsers`). Such writers wait for an erasure of their users, never for each other or
 * for the sinks' user locks.
 */
export async function guardUsersAgainstErasure(client: PoolClient, users: UserRef[]): Promise<void> {
  await advisoryLocks(client, 'pg_advisory_xact_lock_shared', 'erasure:', users);
}

/**
 * 1, for an erasure, after `lockUsers`: waits for the guards' holders and keeps new ones out until
 * commit. The ids of one person are locked in one statement, as every set of user locks is.
 */
export async function lockErasure(client: PoolClient, users: UserRef[]): Promise<void> {
  await advisoryLocks(client, 'pg_advisory_xact_lock', 'erasure:', users);
}

async function advisoryLocks(
  client: PoolClient,
  lock: 'pg_advisory_xact_lock' | 'pg_advisory_xact_lock_shared',
  space: string,
  users: UserRef[],
): Promise<void> {
  const keys = [...new Set(users.map((u) => `${space}${u.projectId}:${u.userId}`))];
  if (keys.length === 0) return;
  await client.query(
    `select ${lock}(h) from (select hashtextextended(k, 0) as h from unnest($1::text[]) k order by 1) s`,
    [keys],
  );
}

/** 2. The projects' settings, read under a share lock on their rows (in id order). */
export async function shareProjects(
  client: PoolClient,
  projectIds: string[],
): Promise<{ project_id: string; settings: Record<string, unknown> }[]> {
  const { rows } = await client.query<{ project_id: string; settings: Record<string, unknown> }>(
    'select project_id, settings from projects where project_id = any ($1::uuid[]) order by project_id for share',
    [[...new Set(projectIds)]],
  );
  return rows;
}

/** 2, for a change of the project's settings: its row, locked until commit. */
export async function lockProjectForUpdate(client: PoolClient, projectId: string): Promise<Record<string, unknown>> {
  const { rows } = await client.query<{ settings: Record<string, unknown> }>(
    'select settings from projects where project_id = $1 for update',
    [projectId],
  );
  return rows[0]?.settings ?? {};
}

/**
 * One transaction of a worker's pass over a project, under the advisory lock of (`work`, project):
 * one pass of a kind per project at a time. With `wait` it waits for a busy project; otherwise it
 * skips it (answering undefined), and the project's pending changes stay for the next pass.
 * `snapshot`: the whole pass reads one snapshot (repeatable read).
 */
export async function projectPass<T>(
  db: Pool,
  work: string,
  projectId: string,
  options: { wait: boolean; snapshot?: boolean },
  pass: (client: PoolClient) => Promise<T>,
): Promise<T | undefined> {
  const { wait, snapshot = false } = options;
  return inTransaction(db, async (client) => {
    // One snapshot for everything the pass reads (set before the transaction's first statement).
    if (snapshot) await client.query('set transaction isolation level repeatable read');
    const key = [`${work}:${projectId}`];
    if (wait) await lockProjectPass(client, work, projectId);
    else {
      const { rows } = await client.query<{ ok: boolean }>(
        'select pg_try_advisory_xact_lock(hashtextextended($1, 0)) as ok',
        key,
      );
      if (!rows[0]!.ok) return undefined;
    }
    return pass(client);
  });
}

/** Waits for the advisory lock of (`work`, project) until commit: what projectPass takes, for other writers of a pass's rows. */
export async function lockProjectPass(client: PoolClient, work: string, projectId: string): Promise<void> {
  await client.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [`${work}:${projectId}`]);
}
