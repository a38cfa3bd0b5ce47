import type { Pool } from '../lib/db.js';
import type { ElementRow, PageRow } from '../domain/friction/actions.js';
import type { DateRange } from '../domain/date-range.js';
import type { PageDay } from '../domain/friction/trends.js';
import { factsOf, summedFacts } from './friction-facts.js';

/**
 * Distinct users of `alias`'s row among the reach edges of `reach` in [$2, $3]: a user affected in
 * the range has exactly one edge there from a day before it (migrations 17 and 23).
 */
const usersAffected = (reach: string, alias: string, keys: string[]) =>
  `(select coalesce(sum(r.users), 0)::int from ${reach} r
    where r.project_id = $1 and ${keys.map((k) => `r.${k} = ${alias}.${k}`).join(' and ')}
      and r.day between $2 and $3 and r.prev_day < $2) as users_affected`;

/** Pages' summed facts over [start, end] (of `page` alone, or of every page). */
export async function pageTotals(
  db: Pool,
  projectId: string,
  start: string,
  end: string,
  page: string | null,
): Promise<PageRow[]> {
  const { rows } = await db.query<PageRow>(
    `select p.page, ${summedFacts('p')}, sum(p.rage_episodes)::int as rage_episodes, sum(p.loops)::int as loops,
            sum(p.idle_gaps)::int as idle_gaps,
            ${usersAffected('friction_page_reach', 'p', ['page'])}
     from friction_page_daily p
     where p.project_id = $1 and p.day between $2 and $3 and ($4::text is null or p.page = $4)
     group by p.page`,
    [projectId, start, end, page],
  );
  return rows;
}

/** Elements' summed click facts over [start, end] (on `page` alone, or on every page). */
export async function elementTotals(
  db: Pool,
  projectId: string,
  start: string,
  end: string,
  page: string | null,
): Promise<ElementRow[]> {
  const { rows } = await db.query<ElementRow>(
    `select e.page, e.element, sum(e.clicks)::int as clicks, sum(e.dead_clicks)::int as dead_clicks,
            sum(e.rage_clicks)::int as rage_clicks, sum(e.rage_episodes)::int as rage_episodes,
            ${usersAffected('friction_element_reach', 'e', ['page', 'element'])}
     from friction_element_daily e
     where e.project_id = $1 and e.day between $2 and $3 and ($4::text is null or e.page = $4)
     group by e.page, e.element`,
    [projectId, start, end, page],
  );
  return rows;
}

/** Reads friction_page_daily rows of the date range, of `pages` or of every page (null), by page and day. */
export async function pageDays(
  db: Pool,
  projectId: string,
  range: DateRange,
  pages: string[] | null,
): Promise<PageDay[]> {
  const { rows } = await db.query<PageDay>(
    `select page, to_char(day, 'YYYY-MM-DD') as day, ${factsOf('p')}
     from friction_page_daily p
     where project_id = $1 and ($2::text[] is null or page = any($2)) and day between $3 and $4
     order by page, day`,
    [projectId, pages, range.start, range.end],
  );
  return rows;
}
