import type { SessionContribution } from '../domain/contribution/types.js';
import type { PoolClient } from '../lib/db.js';

export interface SessionWrites {
  removed: { projectId: string; sessionId: string }[];
  added: { projectId: string; userId: string; c: SessionContribution }[];
}

/** Replaces the changed sessions and their signals, a statement per table for the whole batch. */
export async function writeSessions(client: PoolClient, writes: SessionWrites): Promise<void> {
  await deleteSessions(client, writes.removed);
  if (writes.added.length === 0) return;
  const added = writes.added;
  await client.query(
    `insert into sessions (project_id, session_id, user_id, day, started_at, ended_at, events, contribution)
     select u.project_id, u.session_id, u.user_id, u.day, to_timestamp(u.started / 1000.0), to_timestamp(u.ended / 1000.0),
            u.events, u.contribution
     from rows from (unnest($1::uuid[]), unnest($2::text[]), unnest($3::text[]), unnest($4::date[]), unnest($5::bigint[]),
                     unnest($6::bigint[]), unnest($7::int[]), json_array_elements($8::json))
       as u(project_id, session_id, user_id, day, started, ended, events, contribution)`,
    [
      added.map((a) => a.projectId),
      added.map((a) => a.c.session_id),
      added.map((a) => a.userId),
      added.map((a) => a.c.day),
      added.map((a) => a.c.started_at),
      added.map((a) => a.c.ended_at),
      added.map((a) => a.c.events),
      // One JSON array, not a jsonb[]: node-postgres escapes each element of an array (lib/db.ts, jsonArrayParam).
      JSON.stringify(added.map((a) => a.c)),
    ],
  );
  const signals = added.flatMap((a) =>
    a.c.signals.map((sig) => ({ ...sig, project_id: a.projectId, session_id: a.c.session_id, user_id: a.userId })),
  );
  if (signals.length === 0) return;
  await client.query(
    `insert into friction_signals (project_id, signal_id, session_id, user_id, kind, page, element, at, count, timings_ms, message_ids)
     select (s->>'project_id')::uuid, s->>'signal_id', s->>'session_id', s->>'user_id', s->>'kind', s->>'page', s->>'element',
            to_timestamp((s->>'at')::bigint / 1000.0), (s->>'count')::int,
            array(select jsonb_array_elements_text(s->'timings_ms'))::double precision[],
            array(select jsonb_array_elements_text(s->'message_ids'))
     from jsonb_array_elements($1::jsonb) s`,
    [JSON.stringify(signals)],
  );
}

/** Deletes sessions and their friction signals. */
export async function deleteSessions(client: PoolClient, sessions: { projectId: string; sessionId: string }[]) {
  if (sessions.length === 0) return;
  const keys = [sessions.map((r) => r.projectId), sessions.map((r) => r.sessionId)];
  for (const table of ['friction_signals', 'sessions']) {
    await client.query(
      `delete from ${table} t using unnest($1::uuid[], $2::text[]) as u(project_id, session_id)
       where t.project_id = u.project_id and t.session_id = u.session_id`,
      keys,
    );
  }
}
