import type { Context } from 'koa';
import type { Pool } from '../../lib/db.js';
import { frictionIndex } from '../../domain/friction/index.js';
import {
  type WorkflowTrend,
  byAlert,
  byAttention,
  byPage,
  dailyHistory,
  WorkflowTrends,
  workflowPages,
} from '../../domain/friction/trends.js';
import { frictionTrend, round } from '../../domain/metrics.js';
import { DATE_RANGE_PARAMS, booleanParam, dateRange } from '../analytics-params.js';
import { type ElementRow, type PageRow, recommendedActions } from '../../domain/friction/actions.js';
import { elementTotals, pageDays, pageTotals } from '../../store/friction-points.js';
import { projectAnalyticsConfig } from '../../store/project-config.js';
import { fieldError } from '../errors.js';
import { type ListPaging, numberParam, pageFields, pageOfList, paging, pagingParams, stringParam } from '../query.js';
import { type Route, defineRoute } from '../route.js';
import { MAX_GOAL_LENGTH } from './workflows.js';
import { byCodePoint } from '../../domain/time.js';
import { KeptWorkflows } from '../kept-workflows.js';

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

type Trend = WorkflowTrend & { workflow: string };

/**
 * `page` names a page of the product on these routes (the spec's filter of friction points), so
 * their page number is `page_number` alone. A trend carries a day per day of the range: fewer fit.
 */
const POINTS_PAGING: Partial<ListPaging> = { pageAlias: false };
const TRENDS_PAGING: Partial<ListPaging> = { pageAlias: false, cap: 200 };

export function frictionRoutes(db: Pool): Route[] {
  const keptWorkflows = new KeptWorkflows(db);
  return [
    defineRoute({
      method: 'GET',
      path: '/analytics/friction',
      tag: 'Analytics',
      summary:
        'Friction points by page (element null) and element, highest Friction Index first; points of index 0 only with include_zero=true',
      scope: 'analytics:read',
      query: [
        { name: 'page', description: 'only this page or route', schema: { type: 'string' } },
        {
          name: 'min_friction_index',
          description: 'only points at or above this index (0–1)',
          schema: { type: 'number', minimum: 0, maximum: 1 },
        },
        {
          name: 'include_zero',
          description: 'also the points whose Friction Index is 0 (default false)',
          schema: { type: 'boolean', default: false },
        },
        ...DATE_RANGE_PARAMS,
        ...pagingParams(POINTS_PAGING),
      ],
      success: {
        status: 200,
        schema: 'FrictionList',
        description: '{ friction_points, total, page_number, per_page, next, date_range }',
      },
      async handle(ctx) {
        const { projectId } = ctx.state.auth;
        const range = dateRange(ctx);
        const page = stringParam(ctx, 'page') ?? null;
        const min = numberParam(ctx, 'min_friction_index') ?? 0;
        const withZero = booleanParam(ctx, 'include_zero', false);
        const paged = paging(ctx, POINTS_PAGING);
        const config = await projectAnalyticsConfig(db, projectId);
        const pages = new Map((await pageTotals(db, projectId, range.start, range.end, page)).map((p) => [p.page, p]));
        const elements = await elementTotals(db, projectId, range.start, range.end, page);
        const point = (p: PageRow, e: ElementRow | undefined) => {
          // An element point: its own clicks and users with its page's navigation and time facts.
          const totals = e ? { ...p, ...e } : p;
          return {
            page: p.page,
            element: e?.element ?? null,
            friction_index: round(frictionIndex(totals, config.weights)),
            signals: {
              dead_clicks: totals.dead_clicks,
              rage_clicks: totals.rage_episodes,
              confusion_loops: p.loops,
              avg_idle_time: p.idle_gaps > 0 ? round(p.idle_ms / p.idle_gaps / 1000) : 0,
            },
            users_affected: totals.users_affected,
            recommended_actions: recommendedActions(p.page, e?.element ?? null, totals, config),
          };
        };
        const points = [
          ...[...pages.values()].map((p) => point(p, undefined)),
          ...elements.flatMap((e) => (pages.has(e.page) ? [point(pages.get(e.page)!, e)] : [])),
        ]
          .filter((p) => p.friction_index >= min && (withZero || p.friction_index > 0))
          .sort(
            (a, b) =>
              b.friction_index - a.friction_index ||
              byCodePoint(a.page, b.page) ||
              byCodePoint(a.element ?? '', b.element ?? ''),
          );
        const { items, total } = pageOfList(points, paged);
        ctx.body = { friction_points: items, ...pageFields(paged, total), date_range: range };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/analytics/friction/trends',
      tag: 'Analytics',
      summary:
        'Daily Friction Index over the date range, with trend and alert level: per workflow (default when the project has workflows) or per page',
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
        ...DATE_RANGE_PARAMS,
        ...pagingParams(TRENDS_PAGING),
      ],
      refuses: { page: 'page filters the friction points of /analytics/friction; trends page with page_number.' },
      success: {
        status: 200,
        schema: 'FrictionTrends',
        description:
          '{ trends, total, page_number, per_page, next, date_range }: highest alert level, then steepest rise, first',
      },
      async handle(ctx) {
        const { projectId } = ctx.state.auth;
        const { by, goal, workflowId } = trendParams(ctx);
        const range = dateRange(ctx);
        const paged = paging(ctx, TRENDS_PAGING);
        // A goal may have thousands of workflows: every trend is computed to order them, one page is sent.
        const body = ({ items, total }: { items: Trend[]; total: number }) => ({
          trends: items,
          ...pageFields(paged, total),
          date_range: range,
        });
        const answer = (trends: Trend[]) => body(pageOfList(trends.sort(byAttention), paged));
        const config = await projectAnalyticsConfig(db, projectId);
        const workflows =
          by === 'page'
            ? []
            : (await keptWorkflows.of(projectId)).filter(
                (w) =>
                  (goal === undefined || w.goal === goal) && (workflowId === undefined || w.workflow_id === workflowId),
              );
        if (by === 'page' || (by === undefined && workflows.length === 0)) {
          const pages = byPage(await pageDays(db, projectId, range, null));
          ctx.body = answer(
            [...pages].map(([page, rows]) => {
              const history = dailyHistory(rows, config.weights);
              return { workflow: page, page, friction_history: history, ...frictionTrend(history) };
            }),
          );
          return;
        }
        const pages = byPage(
          await pageDays(db, projectId, range, [...new Set(workflows.flatMap((w) => workflowPages(w.path)))]),
        );
        const trends = new WorkflowTrends(pages, config.weights);
        // The workflows come in name order: sorted stably by alert and rise, they are in byAttention's
        // order, and only the page sent is made into answers.
        const listed = workflows.flatMap((w) => {
          const trend = trends.of(w.path);
          return trend.friction_history.length === 0 ? [] : [{ w, trend }];
        });
        const { items, total } = pageOfList(
          listed.sort((a, b) => byAlert(a.trend, b.trend)),
          paged,
        );
        ctx.body = body({
          items: items.map(({ w, trend }) => ({
            workflow: w.name,
            workflow_id: w.workflow_id,
            goal: w.goal,
            ...trend,
          })),
          total,
        });
      },
    }),
  ];
}
