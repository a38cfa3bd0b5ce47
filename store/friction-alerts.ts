import type { FrictionAlert, PageDay } from '../domain/friction/alerts.js';
import type { FrictionTotals } from '../domain/friction/index.js';
import type { PoolClient } from '../lib/db.js';
import { factsOf } from './friction-facts.js';

/** Statements on `friction_alerts`: one alert per page and day, raised once (a moment). */

/**
 * The friction facts of each page and day that has some, with the users affected: counted on the
 * reach edges ending that day (one per user, store/answer-tables.ts), a row per earlier day of
 * friction on the page where friction_page_users has one per user (5 pages of 20,000 users: 19 ms,
 * now 0.7 ms). `i`: the page-day's index (1-based).
 */
export async function pageDayFacts(
  client: PoolClient,
  pageDays: PageDay[],
): Promise<(FrictionTotals & { i: number; users: number })[]> {
  const { rows } = await client.query<FrictionTotals & { i: number; users: number }>(
    `select k.i, ${factsOf('p')},
            (select coalesce(sum(r.users), 0)::int from friction_page_reach r
             where r.project_id = p.project_id and r.page = p.page and r.day = p.day) as users
     from unnest($1::uuid[], $2::text[], $3::date[]) with ordinality as k(project_id, page, day, i)
     join friction_page_daily p on p.project_id = k.project_id and p.page = k.page and p.day = k.day
     order by k.i`,
    [pageDays.map((pd) => pd.projectId), pageDays.map((pd) => pd.page), pageDays.map((pd) => pd.day)],
  );
  return rows;
}

/** Raises the alerts not raised before (the caller sorts them: rows in key order). */
export async function insertFrictionAlerts(client: PoolClient, alerts: FrictionAlert[]): Promise<void> {
  await client.query(
    `insert into friction_alerts (project_id, alert_id, page, day, friction_index, users_affected)
     select * from unnest($1::uuid[], $2::text[], $3::text[], $4::date[], $5::float8[], $6::int[])
     on conflict (project_id, page, day) do nothing`,
    [
      alerts.map((a) => a.projectId),
      alerts.map((a) => a.alertId),
      alerts.map((a) => a.page),
      alerts.map((a) => a.day),
      alerts.map((a) => a.index),
      alerts.map((a) => a.users),
    ],
  );
}
