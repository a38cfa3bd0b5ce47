/**
 * What the fault suite reads from its own Postgres: the project of the admin key (its rate limit
 * lifted), and what a fault's messages became in raw_events, session_events and sessions.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { now } from './load.js';
import type { Stored } from './report.js';

/** One short-lived connection per call: the server may be killed between two calls. */
async function query<R extends pg.QueryResultRow>(url: string, text: string, values: unknown[]): Promise<R[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000, query_timeout: 30_000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The admin key's project, with the limits of the top tier: the rate limit must not be what a fault measures. */
export async function liftRateLimit(url: string, adminKey: string): Promise<string> {
  const rows = await query<{ project_id: string }>(
    url,
    `update projects set rate_tier = 'enterprise', rate_limit_per_hour = 1000000000
     where project_id = (select project_id from api_keys where key_id = $1) returning project_id`,
    [adminKey.split('_')[1]],
  );
  if (!rows[0]) throw new Error('the admin key of npm start has no project');
  return rows[0].project_id;
}

async function copies(url: string, table: 'raw_events' | 'session_events', projectId: string, run: string) {
  const rows = await query<{ message_id: string; n: number }>(
    url,
    `select message_id, count(*)::int as n from ${table}
     where project_id = $1 and message_id like $2 group by message_id`,
    [projectId, `${run}-%`],
  );
  return new Map(rows.map((r) => [r.message_id, r.n]));
}

const allIn = (ids: string[], map: Map<string, number>) => ids.every((id) => map.has(id));

/**
 * Polls until every one of `ids` is in raw_events and in session_events, or `timeoutMs` passed:
 * how long after `since` each table had them all (null: not within the timeout).
 */
export async function waitVisible(
  url: string,
  projectId: string,
  run: string,
  ids: string[],
  since: number,
  timeoutMs: number,
): Promise<{ raw: number | null; session_events: number | null }> {
  const deadline = now() + timeoutMs;
  const seen: { raw: number | null; session_events: number | null } = { raw: null, session_events: null };
  for (;;) {
    const at = now();
    const read = await Promise.all([
      copies(url, 'raw_events', projectId, run),
      copies(url, 'session_events', projectId, run),
    ]).catch(() => undefined); // Postgres may be away or coming back
    if (read) {
      if (seen.raw === null && allIn(ids, read[0])) seen.raw = Math.max(0, Math.round(at - since));
      if (seen.session_events === null && allIn(ids, read[1]))
        seen.session_events = Math.max(0, Math.round(at - since));
      if (seen.raw !== null && seen.session_events !== null) return seen;
    }
    if (now() > deadline) return seen;
    await sleep(500);
  }
}

/** What the run's messages and users became. */
export async function readStored(url: string, projectId: string, run: string): Promise<Stored> {
  const [raw, sessionEvents] = await Promise.all([
    copies(url, 'raw_events', projectId, run),
    copies(url, 'session_events', projectId, run),
  ]);
  const [total] = await query<{ n: number }>(
    url,
    `select coalesce(sum(events), 0)::int as n from sessions where project_id = $1 and user_id like $2`,
    [projectId, `${run}-u%`],
  );
  return { raw, sessionEvents, sessionEventTotal: total?.n ?? 0 };
}
