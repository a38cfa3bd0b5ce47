import type { Context } from 'koa';
import type { Pool } from '../../lib/db.js';
import { frictionIndex } from '../../domain/friction/index.js';
import {
  type PageDay,
  byPage,
  dailyHistory,
  workflowHistory,
  workflowName,
  workflowPages,
} from '../../domain/friction/trends.js';
import { frictionTrend, round } from '../../domain/metrics.js';
import { DATE_RANGE_PARAMS, dateRange } from '../analytics-params.js';
import { type ElementRow, type PageRow, recommendedActions } from '../../domain/friction/actions.js';
import { pageTotals } from '../../store/friction-points.js';
import { projectAnalyticsConfig } from '../../store/project-config.js';
import { fieldError } from '../errors.js';
import { numberParam, stringParam } from '../query.js';
import { type Route, defineRoute } from '../route.js';
import { MAX_GOAL_LENGTH } from './workflows.js';
import { byCodePoint } from '../../domain/time.js';
import { factsOf } from '../../store/friction-facts.js';

const TREND_SUBJECTS = ['workflow', 'page'] as const;
/** domain/workflows/mining.ts workflowId: wf_ and 20 hex digits. */
const WORKFLOW_ID = /^wf_[0-9a-f]{20}$/;

/** by, goal and workflow_id of /analytics/friction/trends; the filters name workflows, so not with by=page. */
function trendParams(ctx: Context): { by?: 'workflow' | 'page'; goal?: string; workflowId?: string } {
  const by = stringParam(ctx, 'by', TREND_SUBJECTS) as (typeof TREND_SUBJECTS)[number] | undefined;
  const goal = stringParam(ctx, 'goal');
  if (goal !== undefined && (goal.length === 0 || goal.length > MAX_GOAL_LENGTH)) {
    throw fieldError('goal', 'invalid_length', `goal must be 1 to ${MAX_GOAL_LENGTH} characters long.`);
  }
  const workflowId = stringParam(ctx, 'workflow_id');
  if (workflowId !== undefined && !WORKFLOW_ID.test(workflowId)) {
    throw fieldError('workflow_id', 'invalid_format', 'workflow_id must be wf_ followed by 20 hex digits.');
  }
  const filter = goal !== undefined ? 'goal' : workflowId !== undefined ? 'workflow_id' : undefined;
  if (by === 'page' && filter)
    throw fieldError(filter, 'invalid_value', `${filter} filters workflows, not pages (by=page).`);
  return { by: by ?? (filter ? 'workflow' : undefined), goal, workflowId };
}

/** friction_page_daily rows of the last 28 UTC days (today included), of `pages` or of every page. */
async function recentPageDays(db: Pool, projectId: string, pages: string[] | null): Promise<PageDay[]> {
  const { rows } = await db.query<PageDay>(
    `select page, to_char(day, 'YYYY-MM-DD') as day, ${factsOf('p')}
     from friction_page_daily p
     where project_id = $1 and ($2::text[] is null or page = any($2)) and day > (now() at time zone 'utc')::date - 28
     order by page, day`,
    [projectId, pages],
  );
  return rows;
}

export function frictionRoutes(db: Pool): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/analytics/friction',
      tag: 'Analytics',
      summary: 'Friction points by page and element, highest Friction Index first',
      scope: 'analytics:read',
      query: [
        { name: 'page', description: 'only this page or route', schema: { type: 'string' } },
        {
          name: 'min_friction_index',
          description: 'only points at or above this index (0–1)',
          schema: { type: 'number', minimum: 0, maximum: 1 },
        },
        ...DATE_RANGE_PARAMS,
      ],
      success: { status: 200, schema: 'FrictionList', description: '{ friction_points, date_range }' },
      async handle(ctx) {
        const { projectId } = ctx.state.auth;
        const range = dateRange(ctx);
        const page = stringParam(ctx, 'page') ?? null;
        const min = numberParam(ctx, 'min_friction_index', { min: 0, max: 1 }) ?? 0;
        const config = await projectAnalyticsConfig(db, projectId);
        const pages = new Map((await pageTotals(db, projectId, range.start, range.end, page)).map((p) => [p.page, p]));
        const { rows: elements } = await db.query<ElementRow>(
          `select page, element, sum(clicks)::int as clicks, sum(dead_clicks)::int as dead_clicks,
                  sum(rage_clicks)::int as rage_clicks, sum(rage_episodes)::int as rage_episodes
           from friction_element_daily where project_id = $1 and day between $2 and $3 and ($4::text is null or page = $4)
           group by page, element`,
          [projectId, range.start, range.end, page],
        );
        const point = (p: PageRow, e: ElementRow | undefined) => {
          // An element point: its own clicks with its page's navigation and time facts.
          const totals = e ? { ...p, ...e } : p;
          return {
            page: p.page,
            element: e?.element ?? '*',
            friction_index: round(frictionIndex(totals, config.weights)),
            signals: {
              dead_clicks: totals.dead_clicks,
              rage_clicks: totals.rage_episodes,
              confusion_loops: p.loops,
              avg_idle_time: p.idle_gaps > 0 ? round(p.idle_ms / p.idle_gaps / 1000) : 0,
            },
            users_affected: p.users_affected,
            recommended_actions: recommendedActions(p.page, e?.element ?? null, totals, config),
          };
        };
        const points = [
          ...[...pages.values()].map((p) => point(p, undefined)),
          ...elements.flatMap((e) => (pages.has(e.page) ? [point(pages.get(e.page)!, e)] : [])),
        ]
          .filter((p) => p.friction_index >= min)
          .sort(
            (a, b) =>
              b.friction_index - a.friction_index || byCodePoint(a.page, b.page) || byCodePoint(a.element, b.element),
          );
        ctx.body = { friction_points: points, date_range: range };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/analytics/friction/trends',
      tag: 'Analytics',
      summary:
        'Daily Friction Index over the last 28 days, with trend and alert level: per workflow (default when the project has workflows) or per page',
      scope: 'analytics:read',
      query: [
        {
          name: 'by',
          description: 'workflow or page; default: workflow when the project has workflows, else page',
          schema: { enum: [...TREND_SUBJECTS] },
        },
        {
          name: 'goal',
          description: "only this goal's workflows (implies by=workflow)",
          schema: { type: 'string', minLength: 1, maxLength: MAX_GOAL_LENGTH },
        },
        {
          name: 'workflow_id',
          description: 'only this workflow (implies by=workflow)',
          schema: { type: 'string', pattern: WORKFLOW_ID.source },
        },
      ],
      success: { status: 200, schema: 'FrictionTrends', description: '{ trends }' },
      async handle(ctx) {
        const { projectId } = ctx.state.auth;
        const { by, goal, workflowId } = trendParams(ctx);
        const config = await projectAnalyticsConfig(db, projectId);
        const workflows =
          by === 'page'
            ? []
            : (
                await db.query<{ workflow_id: string; goal: string; path: string[] }>(
                  `select workflow_id, goal, path from workflows
                   where project_id = $1 and ($2::text is null or goal = $2) and ($3::text is null or workflow_id = $3)
                   order by goal, rank`,
                  [projectId, goal ?? null, workflowId ?? null],
                )
              ).rows;
        if (by === 'page' || (by === undefined && workflows.length === 0)) {
          const pages = byPage(await recentPageDays(db, projectId, null));
          ctx.body = {
            trends: [...pages].map(([page, rows]) => {
              const history = dailyHistory(rows, config.weights);
              return { workflow: page, page, friction_history: history, ...frictionTrend(history) };
            }),
          };
          return;
        }
        const pages = byPage(
          await recentPageDays(db, projectId, [...new Set(workflows.flatMap((w) => workflowPages(w.path)))]),
        );
        ctx.body = {
          trends: workflows.flatMap((w) => {
            const history = workflowHistory(w.path, pages, config.weights);
            if (history.length === 0) return [];
            return [
              {
                workflow: workflowName(w.goal, w.path),
                workflow_id: w.workflow_id,
                goal: w.goal,
                friction_history: history,
                ...frictionTrend(history),
              },
            ];
          }),
        };
      },
    }),
  ];
}
