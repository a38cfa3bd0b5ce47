import type { StepEvent } from '../domain/workflows/steps.js';
import type { PoolClient } from '../lib/db.js';

export interface SessionSteps {
  session_id: string;
  user_id: string;
  /** the session's UTC day (YYYY-MM-DD) */
  day: string;
  /** the session's events with what the step rules read (domain/workflows/steps.ts) */
  events: StepEvent[];
}

/** The stored sessions among `sessionIds` with their events; ids of sessions no longer stored are absent. */
export async function sessionsWithEvents(
  client: PoolClient,
  projectId: string,
  sessionIds: string[],
): Promise<SessionSteps[]> {
  if (sessionIds.length === 0) return [];
  const { rows } = await client.query<{
    session_id: string;
    user_id: string;
    day: string;
    event: string;
    at: number;
    kafka_offset: number;
    page: unknown;
    feature: unknown;
  }>(
    `select s.session_id, s.user_id, s.day::text as day, e.event, (extract(epoch from e.occurred_at) * 1000)::bigint as at, e.kafka_offset,
            e.properties->'page' as page, e.properties->'feature' as feature
     from sessions s
     join session_events e on e.project_id = s.project_id and e.user_id = s.user_id
                          and e.occurred_at between s.started_at and s.ended_at
     where s.project_id = $1 and s.session_id = any ($2::text[])`,
    [projectId, sessionIds],
  );
  const sessions = new Map<string, SessionSteps>();
  for (const r of rows) {
    let session = sessions.get(r.session_id);
    if (!session)
      sessions.set(r.session_id, (session = { session_id: r.session_id, user_id: r.user_id, day: r.day, events: [] }));
    session.events.push({
      event: r.event,
      at: r.at,
      offset: r.kafka_offset,
      properties: { page: r.page, feature: r.feature },
    });
  }
  return [...sessions.values()];
}

/** Up to `limit` session ids of the project after `after` (in id order): a walk over all its sessions. */
export async function sessionIdsAfter(
  client: PoolClient,
  projectId: string,
  after: string | null,
  limit: number,
): Promise<string[]> {
  const { rows } = await client.query<{ session_id: string }>(
    `select session_id from sessions where project_id = $1 and ($2::text is null or session_id > $2)
     order by session_id limit $3`,
    [projectId, after, limit],
  );
  return rows.map((r) => r.session_id);
}
