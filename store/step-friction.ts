import type { DateRange } from '../domain/date-range.js';
import { type FrictionTotals, commonIssues, noFriction } from '../domain/friction/index.js';
import type { Pool, PoolClient } from '../lib/db.js';
import { summedFacts } from './friction-facts.js';

/**
 * How many signals of each kind a page's daily row counts: one dead click, rage burst, loop,
 * backtrack or idle gap each (domain/friction/session.ts), so these sums equal a count of the
 * page's friction_signals, read from rows per day rather than per signal.
 */
const SIGNAL_COUNTS = `coalesce(sum(p.dead_clicks), 0)::int as dead_click, coalesce(sum(p.rage_episodes), 0)::int as rage_click,
  coalesce(sum(p.loops), 0)::int as confusion_loop, coalesce(sum(p.backtracks), 0)::int as backtrack,
  coalesce(sum(p.idle_gaps), 0)::int as idle`;

export type StepFriction = FrictionTotals & { common_issues: string[] };

/** A step with no page facts (a feature, or a page without friction rows). */
export const NO_FRICTION: StepFriction = { ...noFriction(), common_issues: [] };

/**
 * Friction facts of the steps that are pages, over all days or the days of `range`, and the kinds
 * of signal seen there, most first (the workflows worker stores them with each step; a windowed
 * efficiency answer reads them for its range).
 */
export async function stepFriction(
  client: Pool | PoolClient,
  projectId: string,
  steps: string[],
  range?: DateRange,
): Promise<Map<string, StepFriction>> {
  const { rows } = await client.query<FrictionTotals & Record<string, number> & { page: string }>(
    `select p.page, ${summedFacts('p')}, ${SIGNAL_COUNTS}
     from friction_page_daily p where project_id = $1 and page = any($2)
       and ($3::date is null or day between $3 and $4) group by page`,
    [projectId, steps, range?.start ?? null, range?.end ?? null],
  );
  return new Map(
    rows.map(({ dead_click, rage_click, confusion_loop, backtrack, idle, ...totals }) => {
      const common_issues = commonIssues({ dead_click, rage_click, confusion_loop, backtrack, idle });
      return [totals.page, { ...totals, common_issues }];
    }),
  );
}
