import type { ContextFacts } from '../domain/contribution/types.js';
import type { Pool } from '../lib/db.js';

/** event_context_daily as GET /analytics/context/events/{name} reads it (api/routes/event-context.ts). */

/** Whether the project ever recorded the event. */
export async function eventSeen(db: Pool, projectId: string, event: string): Promise<boolean> {
  const { rows } = await db.query('select 1 from event_context_daily where project_id = $1 and event = $2 limit 1', [
    projectId,
    event,
  ]);
  return rows.length > 0;
}

/** Sums the event's outcomes per UI context over the days of the range (contexts without a row are absent). */
export async function contextTotals(
  db: Pool,
  projectId: string,
  event: string,
  range: { start: string; end: string },
): Promise<Omit<ContextFacts, 'event'>[]> {
  const { rows } = await db.query<Omit<ContextFacts, 'event'>>(
    `select context, sum(count)::int as count, sum(successes)::int as successes, sum(dead_click)::int as dead_click,
            sum(rage_click)::int as rage_click, sum(confusion_loop)::int as confusion_loop, sum(backtrack)::int as backtrack
     from event_context_daily where project_id = $1 and event = $2 and day between $3 and $4 group by context`,
    [projectId, event, range.start, range.end],
  );
  return rows;
}
