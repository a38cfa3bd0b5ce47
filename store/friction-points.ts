import type { Pool } from '../lib/db.js';
import type { PageRow } from '../domain/friction/actions.js';
import { summedFacts } from './friction-facts.js';

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
            (select coalesce(sum(r.users), 0)::int from friction_page_reach r
             where r.project_id = $1 and r.page = p.page and r.day between $2 and $3 and r.prev_day < $2) as users_affected
     from friction_page_daily p
     where p.project_id = $1 and p.day between $2 and $3 and ($4::text is null or p.page = $4)
     group by p.page`,
    [projectId, start, end, page],
  );
  return rows;
}
