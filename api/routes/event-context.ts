import type { ContextFacts } from '../../domain/contribution/types.js';
import type { Pool } from '../../lib/db.js';
import { DATE_RANGE_PARAMS, dateRange } from '../analytics-params.js';
import { contextTotals, eventSeen } from '../../store/event-context.js';
import { projectAnalyticsConfig } from '../../store/project-config.js';
import { notFound } from '../errors.js';
import { contextQualityFactor, contextualSuccessRate, round } from '../../domain/metrics.js';
import { type Route, defineRoute, pathParam } from '../route.js';
import { commonIssues } from '../../domain/friction/index.js';

type ContextRow = Omit<ContextFacts, 'event'>;

const pct = (x: number) => `${Math.round(x * 100)} %`;

export function eventContextRoutes(db: Pool): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/analytics/context/events/:event_name',
      tag: 'Analytics',
      summary: 'Outcomes of a named event split by UI context (data present versus empty state)',
      scope: 'analytics:read',
      query: DATE_RANGE_PARAMS,
      success: { status: 200, schema: 'EventContext', description: 'Event context analysis' },
      errors: { 404: 'The event was never recorded in this project' },
      async handle(ctx) {
        const { projectId } = ctx.state.auth;
        const event = pathParam(ctx, 'event_name');
        const range = dateRange(ctx);
        if (!(await eventSeen(db, projectId, event))) throw notFound('event');
        const { weights } = await projectAnalyticsConfig(db, projectId);
        const rows = await contextTotals(db, projectId, event, range);
        const of = (context: ContextRow['context']): ContextRow =>
          rows.find((r) => r.context === context) ?? {
            context,
            count: 0,
            successes: 0,
            dead_click: 0,
            rage_click: 0,
            confusion_loop: 0,
            backtrack: 0,
          };
        // Share of occurrences hit by each kind of friction, weighted as in the Friction Index.
        const frictionOf = (r: ContextRow) => {
          const w = weights.dead_click + weights.rage_click + weights.loop + weights.backtrack;
          if (r.count === 0 || w === 0) return 0;
          const hit =
            weights.dead_click * r.dead_click +
            weights.rage_click * r.rage_click +
            weights.loop * r.confusion_loop +
            weights.backtrack * r.backtrack;
          return round(Math.min(1, hit / (w * r.count)));
        };
        const data = of('with_data_present');
        const empty = of('empty_state');
        const rate = (r: ContextRow) => round(r.count > 0 ? r.successes / r.count : 0);
        const outcome = (r: ContextRow) => ({
          count: r.count,
          success_rate: rate(r),
          friction_index: frictionOf(r),
          contextual_success_rate: round(
            contextualSuccessRate(rate(r), contextQualityFactor(r.context, frictionOf(r))),
          ),
        });
        const issues = commonIssues(empty);
        const total = data.count + empty.count;
        const recommendations: string[] = [];
        if (empty.count > 0 && data.count > 0 && rate(data) - rate(empty) >= 0.1) {
          recommendations.push(
            `${event} succeeds ${pct(rate(empty))} of the time in an empty state against ${pct(rate(data))} with data: improve the empty state (sample data, guidance, a clear first step).`,
          );
        }
        if (total > 0 && empty.count / total >= 0.3) {
          recommendations.push(
            `${pct(empty.count / total)} of ${event} happen in an empty state: help users get data in first.`,
          );
        }
        if (issues.length > 0)
          recommendations.push(
            `In the empty state users meet ${issues.join(', ')} after ${event}: look at what they try to do there.`,
          );
        ctx.body = {
          event,
          total_occurrences: total,
          context_breakdown: {
            with_data_present: outcome(data),
            empty_state: { ...outcome(empty), common_issues: issues },
          },
          recommendations,
          date_range: range,
        };
      },
    }),
  ];
}
