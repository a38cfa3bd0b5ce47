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
 * Waits until every acknowledged message of `run` is in raw_events and in session_events (or
 * `timeoutMs` passed), then reads what the run's messages and users became.
 */
export async function waitStored(
  url: string,
  projectId: string,
  run: string,
  acked: string[],
  clearedAt: number,
  timeoutMs: number,
): Promise<Stored> {
  const deadline = now() + timeoutMs;
  let rawVisibleMs: number | null = null;
  let sessionVisibleMs: number | null = null;
  let raw = new Map<string, number>();
  let sessionEvents = new Map<string, number>();
  for (;;) {
    const at = now();
    const read = await Promise.all([
      copies(url, 'raw_events', projectId, run),
      copies(url, 'session_events', projectId, run),
    ]).catch(() => undefined); // Postgres may still be coming back
    if (read) {
      [raw, sessionEvents] = read;
      if (rawVisibleMs === null && allIn(acked, raw)) rawVisibleMs = Math.max(0, at - clearedAt);
      if (sessionVisibleMs === null && allIn(acked, sessionEvents)) sessionVisibleMs = Math.max(0, at - clearedAt);
      if (rawVisibleMs !== null && sessionVisibleMs !== null) break;
    }
    if (now() > deadline) break;
    await sleep(500);
  }
  const [total] = await query<{ n: number }>(
    url,
    `select coalesce(sum(events), 0)::int as n from sessions where project_id = $1 and user_id like $2`,
    [projectId, `${run}-u%`],
  );
  return { raw, sessionEvents, sessionEventTotal: total?.n ?? 0, rawVisibleMs, sessionVisibleMs };
}
