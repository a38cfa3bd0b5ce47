import { ContributionDeltas } from './contributions.js';
import type { PoolClient } from '../lib/db.js';
import { keepingAnswerTables } from './answer-tables.js';
import { lockErasure, lockProjectPass, lockUsers } from './locks.js';
import type { AnalyticsEvent } from '../domain/event.js';
import { STORED_SESSION, type StoredSessionRow, eventsWithin, storedContributions } from './sessions.js';
import { eraseUserAttempts } from './workflow-attempts.js';
import { COHORT_MEMBERSHIP_PASS } from './cohort-membership.js';
import { eraseUserJobFacts } from './job-state.js';
import { shredUserKey } from './user-keys.js';
import { personIds } from './identity-links.js';
import { userKey } from '../lib/kafka/topics.js';
import { USER_CHANGE_LOGS, USER_DATA_TABLES } from './tables.js';

/** Every table with rows naming a user (the erasure test checks each user_id column is listed). */
export const USER_TABLES = [...USER_DATA_TABLES, ...USER_CHANGE_LOGS] as const;

/**
 * Erases the person `id` names: the user and every anonymous id linked to them (a linked anonymous
 * id names its user's person: docs/metrics.md, "One person"), each as `eraseUser` does. Returns the
 * rows deleted and each id's pseudonym.
 */
export async function erasePerson(
  client: PoolClient,
  projectId: string,
  id: string,
): Promise<{ rows: number; refs: string[] }> {
  const ids = (await personIds(client, projectId, id)).map((userId) => ({ projectId, userId }));
  // All of the person's locks at once, in the one order every locker takes them.
  await lockUsers(client, ids);
  await lockErasure(client, ids);
  let rows = 0;
  const refs: string[] = [];
  for (const { userId } of ids) {
    const erased = await eraseUser(client, projectId, userId);
    rows += erased.rows;
    refs.push(erased.ref);
  }
  return { rows, refs };
}

/**
 * Deletes the user's rows everywhere, their dead letters and the key that seals their Kafka
 * messages, and records the erasure; returns how many rows went and the user's pseudonym.
 */
export async function eraseUser(
  client: PoolClient,
  projectId: string,
  userId: string,
): Promise<{ rows: number; ref: string }> {
  await lockUsers(client, [{ projectId, userId }]);
  await lockErasure(client, [{ projectId, userId }]);
  // Counted first: subtracting the contributions below already empties some per-user rows.
  const { rows: counted } = await client.query<{ n: number }>(
    `select ${USER_DATA_TABLES.map((t) => `(select count(*) from ${t} where project_id = $1 and user_id = $2)`).join(' + ')} as n`,
    [projectId, userId],
  );
  // The user's share of the anonymous daily tables goes too, so they stay the sum over the
  // remaining sessions (and equal what a replay would build).
  const { rows: sessions } = await client.query<StoredSessionRow>(
    `select ${STORED_SESSION} from sessions s where s.project_id = $1 and s.user_id = $2`,
    [projectId, userId],
  );
  const events = sessions.some((s) => s.contribution === null) ? await userEvents(client, projectId, userId) : [];
  const deltas = new ContributionDeltas();
  for (const c of await storedContributions(client, sessions, eventsWithin(events))) deltas.add(projectId, c, -1);
  // The workflows' kept attempts go with their share of the goals' sums (the loop below finds none left).
  await eraseUserAttempts(client, projectId, userId);
  // A running membership pass may be adding the user to a cohort: the members are deleted after it.
  await lockProjectPass(client, COHORT_MEMBERSHIP_PASS, projectId);
  // The user's share of the jobs' numbers goes too (their job rows are deleted below).
  await eraseUserJobFacts(client, projectId, userId);
  await keepingAnswerTables(client, [{ projectId, userId }], async () => {
    await deltas.apply(client);
    for (const table of USER_TABLES) {
      await client.query(`delete from ${table} where project_id = $1 and user_id = $2`, [projectId, userId]);
    }
  });
  // Member lists of cohort changes (and of their pending webhook payloads) name the user too.
  await client.query(
    `update cohort_changes set added = array_remove(added, $2), removed = array_remove(removed, $2)
     where project_id = $1 and $2 = any (added || removed)`,
    [projectId, userId],
  );
  await client.query(
    `update webhook_deliveries
     set payload = jsonb_set(jsonb_set(payload, '{data,added}', (payload->'data'->'added') - $2), '{data,removed}',
                             (payload->'data'->'removed') - $2)
     where project_id = $1 and event = 'cohort.changed'
       and ((payload->'data'->'added') ? $2 or (payload->'data'->'removed') ? $2)`,
    [projectId, userId],
  );
  await client.query(
    `insert into deleted_users (project_id, user_hash) values ($1, sha256(convert_to($2, 'UTF8')))
     on conflict (project_id, user_hash) do update set deleted_at = now()`,
    [projectId, userId],
  );
  // Every copy of the user's sealed messages (topics, replays) stops naming them; messages a
  // processor set aside are deleted, plain ones (written before sealing) included.
  const ref = await shredUserKey(client, projectId, userId);
  await client.query('delete from dead_letters where message_key = any($1)', [
    [userKey(projectId, ref), userKey(projectId, userId)],
  ]);
  // Export files on the workers' disk may hold the user: the retention worker deletes the project's
  // files written before now (workers/retention/worker.ts).
  await client.query(
    `insert into export_file_purges (project_id) values ($1)
     on conflict (project_id) do update set requested_at = now()`,
    [projectId],
  );
  return { rows: Number(counted[0]!.n), ref };
}

/** All of a user's stored events, as the analytics cores see them. */
async function userEvents(client: PoolClient, projectId: string, userId: string): Promise<AnalyticsEvent[]> {
  const { rows } = await client.query<AnalyticsEvent>(
    `select message_id, user_id, event, (extract(epoch from occurred_at) * 1000)::bigint as timestamp,
            (extract(epoch from received_at) * 1000)::bigint as received_at, kafka_offset as "offset", properties
     from session_events where project_id = $1 and user_id = $2`,
    [projectId, userId],
  );
  return rows;
}
