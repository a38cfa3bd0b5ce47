import assert from 'node:assert/strict';
import { refreshWorkflows } from '../../workers/workflows/refresh.js';
import { frictionTrend } from '../../domain/metrics.js';
import {
  call,
  errorOf,
  newProject,
  services,
  startPipeline,
  stopPipeline,
  type TestPipeline,
  waitForAnalytics,
} from './helpers.js';

interface Trend {
  workflow: string;
  workflow_id?: string;
  goal?: string;
  page?: string;
  friction_history: { date: string; friction_index: number }[];
  trend: string;
  percent_change: number;
  alert_level: string;
}
type Facts = Record<
  'views' | 'clicks' | 'dead_clicks' | 'rage_clicks' | 'loop_views' | 'backtracks' | 'active_ms' | 'idle_ms',
  number
>;
type DailyRow = Facts & { page: string; day: string };

/** The project's own weights, far from the defaults and not summing to 1. */
const WEIGHTS = { dead_click: 0.6, rage_click: 0.1, loop: 0.1, backtrack: 0.1, idle: 0.3 };
const DAYS = 16;

/** docs/metrics.md section 5, written out: Σ w·min(1, part/whole) / Σ w, 9 decimals. */
function index(t: Facts): number {
  const rate = (part: number, whole: number) => (whole > 0 ? Math.min(1, part / whole) : 0);
  const sum =
    WEIGHTS.dead_click * rate(t.dead_clicks, t.clicks) +
    WEIGHTS.rage_click * rate(t.rage_clicks, t.clicks) +
    WEIGHTS.loop * rate(t.loop_views, t.views) +
    WEIGHTS.backtrack * rate(t.backtracks, t.views) +
    WEIGHTS.idle * rate(t.idle_ms, t.active_ms);
  const total = Object.values(WEIGHTS).reduce((a, b) => a + b, 0);
  return Math.round((sum / total) * 1e9) / 1e9;
}

/** Per day with rows of `pages` (each listed page counted as often as listed): the index of the summed facts. */
function history(rows: DailyRow[], pages: string[]) {
  const days = [...new Set(rows.filter((r) => pages.includes(r.page)).map((r) => r.day))].sort();
  return days.map((date) => {
    const sum: Facts = {
      views: 0,
      clicks: 0,
      dead_clicks: 0,
      rage_clicks: 0,
      loop_views: 0,
      backtracks: 0,
      active_ms: 0,
      idle_ms: 0,
    };
    for (const page of pages) {
      const row = rows.find((r) => r.page === page && r.day === date);
      if (!row) continue;
      for (const k of Object.keys(sum) as (keyof Facts)[]) sum[k] += row[k];
    }
    return { date, friction_index: index(sum) };
  });
}

describe('GET /analytics/friction/trends: per workflow and per page', function () {
  this.timeout(120_000);
  let pipeline: TestPipeline;
  let write: string;
  let read: string;
  let projectId: string;
  const get = (query: string, key = read) =>
    call<{
      trends: Trend[];
      total: number;
      page_number: number;
      per_page: number;
      date_range: { start: string; end: string };
    }>(pipeline.api, 'GET', `/analytics/friction/trends${query}`, { key });

  /** friction_page_daily of the project over the last 30 UTC days (the default range), read straight from the table. */
  const dailyRows = async () =>
    (
      await services().db.query<DailyRow>(
        `select page, to_char(day, 'YYYY-MM-DD') as day, views, clicks, dead_clicks, rage_clicks, loop_views, backtracks,
                active_ms::float8 as active_ms, idle_ms::float8 as idle_ms
         from friction_page_daily where project_id = $1 and day > (now() at time zone 'utc')::date - 30`,
        [projectId],
      )
    ).rows;

  before(async () => {
    pipeline = await startPipeline(['analytics']);
    const project = await newProject(['events:write', 'admin'], ['analytics:read']);
    [write, read] = project.keys as [string, string];
    projectId = project.projectId;
    const put = (path: string, json: object) => call(pipeline.api, 'PUT', path, { key: write, json });
    assert.equal((await put('/settings/analytics', { weights: WEIGHTS })).status, 200);
    assert.equal((await put('/settings/goals', { goals: ['signup', 'export'] })).status, 200);

    // Over 16 days, one session per journey at noon UTC; friction grows on the signup pages in the last week.
    const now = new Date();
    const events: object[] = [];
    for (let k = DAYS; k >= 1; k--) {
      const noon = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - k, 12);
      const journey = (user: string, start: number, steps: [string, object, number?][]) => {
        let at = noon + start;
        steps.forEach(([event, properties, pause = 3000], i) => {
          events.push({
            user_id: user,
            event,
            properties,
            timestamp: new Date(at).toISOString(),
            message_id: `${user}-${i}`,
          });
          at += pause;
        });
      };
      const recent = k <= 7;
      journey(`s${k}`, 0, [
        ['page_view', { page: '/home' }],
        ['page_view', { page: '/pricing' }],
        ['click', { page: '/pricing', element: '#plan', ui_response: !recent }],
        ['click', { page: '/pricing', element: '#faq' }, recent ? 20_000 : 3000],
        ['page_view', { page: '/signup' }],
        ['signup', {}],
      ]);
      if (k % 2 === 0) {
        journey(`t${k}`, 600_000, [
          ['page_view', { page: '/pricing' }],
          ['click', { page: '/pricing', element: '#plan' }],
          ['page_view', { page: '/signup' }],
          ['signup', {}],
        ]);
      }
      // Export: /dashboard twice on the path, around a custom event that is not a page.
      journey(`e${k}`, 1_200_000, [
        ['page_view', { page: '/home' }],
        ['click', { page: '/home', element: '#menu' }],
        ['page_view', { page: '/dashboard' }],
        ['export_opened', {}],
        ['page_view', { page: '/dashboard' }],
        ['click', { page: '/dashboard', element: '#export', ui_response: k % 3 !== 0 }],
        ['export', {}],
      ]);
    }
    // A path seen once: folded into "other", which names no page.
    const once = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 3, 15);
    events.push(
      {
        user_id: 'r1',
        event: 'page_view',
        properties: { page: '/reports' },
        timestamp: new Date(once).toISOString(),
        message_id: 'r1-0',
      },
      {
        user_id: 'r1',
        event: 'export',
        properties: {},
        timestamp: new Date(once + 2000).toISOString(),
        message_id: 'r1-1',
      },
    );
    const reply = await call(pipeline.api, 'POST', '/events/batch', { key: write, json: { events } });
    assert.equal(reply.status, 202);
    await waitForAnalytics();
  });
  after(() => stopPipeline(pipeline));

  it('without workflows, trends are per page by default (by=page), equal to a computation from friction_page_daily', async () => {
    const rows = await dailyRows();
    const pages = [...new Set(rows.map((r) => r.page))].sort();
    assert.deepEqual(pages, ['/dashboard', '/home', '/pricing', '/reports', '/signup']);
    const expected = pages.map((page) => {
      const h = history(rows, [page]);
      return { workflow: page, page, friction_history: h, ...frictionTrend(h) };
    });
    const sorted = (trends: Trend[]) => [...trends].sort((a, b) => (a.workflow < b.workflow ? -1 : 1));
    const byPage = await get('?by=page');
    assert.equal(byPage.status, 200);
    assert.deepEqual(sorted(byPage.body.trends), expected);
    assert.deepEqual((await get('')).body, byPage.body, 'no workflows yet: the default is by=page');
    assert.deepEqual((await get('?by=workflow')).body.trends, []);
    // date_range narrows the history: the last 7 days only (and no previous week to compare with).
    const week = await get('?by=page&date_range=last_7_days');
    assert.equal(week.status, 200, JSON.stringify(week.body));
    const weekRows = rows.filter((r) => r.day >= week.body.date_range.start);
    assert.deepEqual(
      sorted(week.body.trends),
      [...new Set(weekRows.map((r) => r.page))].sort().map((page) => {
        const h = history(weekRows, [page]);
        return { workflow: page, page, friction_history: h, ...frictionTrend(h) };
      }),
    );
    assert.ok(week.body.trends.every((t) => t.friction_history.length <= 7));
    assert.equal(errorOf(await get('?date_range=forever')).details.field, 'date_range');
  });

  it('with workflows, one trend per workflow (the default): its pages’ daily facts summed, each page once', async () => {
    assert.equal(await refreshWorkflows(services(), projectId), 2);
    const { workflows } = (
      await call<{ workflows: { workflow_id: string; goal: string; path: string[] }[] }>(
        pipeline.api,
        'GET',
        '/analytics/workflows',
        { key: read },
      )
    ).body;
    assert.deepEqual(
      workflows.map((w) => [w.goal, w.path]),
      [
        ['export', ['/home', '/dashboard', 'export_opened', '/dashboard']],
        ['export', ['other']],
        ['signup', ['/home', '/pricing', '/signup']],
        ['signup', ['/pricing', '/signup']],
      ],
    );
    const rows = await dailyRows();
    const pagesOf = (path: string[]) => [...new Set(path.filter((s) => s !== '...' && s !== 'other'))];
    const expected = workflows
      .map((w) => {
        const h = history(rows, pagesOf(w.path));
        return {
          workflow: `${w.goal}: ${w.path.join(' → ')}`,
          workflow_id: w.workflow_id,
          goal: w.goal,
          friction_history: h,
          ...frictionTrend(h),
        };
      })
      .filter((t) => t.friction_history.length > 0);
    assert.equal(expected.length, 3, '"other" has no page, so no history');

    const reply = await get('');
    assert.equal(reply.status, 200);
    const byId = (trends: Trend[]) => [...trends].sort((a, b) => (a.workflow_id! < b.workflow_id! ? -1 : 1));
    assert.deepEqual(byId(reply.body.trends), byId(expected));
    assert.deepEqual((await get('?by=workflow')).body, reply.body);
    const [exportTrend, signupTrend, shortSignup] = expected.map((e) =>
      reply.body.trends.find((t) => t.workflow_id === e.workflow_id)!,
    ) as [Trend, Trend, Trend];
    // Those that need attention first: the rising signup workflows (with alerts) before the export one.
    const rank = { critical: 3, warning: 2, info: 1, none: 0 } as const;
    const order = reply.body.trends.map((t) => [rank[t.alert_level as keyof typeof rank], t.percent_change] as const);
    assert.deepEqual(
      order,
      [...order].sort((a, b) => b[0] - a[0] || b[1] - a[1]),
    );
    assert.equal(reply.body.trends.at(-1)!.workflow_id, exportTrend.workflow_id, JSON.stringify(order));
    // Paged in that order.
    const second = await get('?per_page=1&page_number=2');
    assert.deepEqual(
      [second.body.trends, second.body.total, second.body.page_number, second.body.per_page],
      [[reply.body.trends[1]], 3, 2, 1],
    );
    assert.deepEqual((await get('?page_number=2')).body.trends, []);
    assert.equal(exportTrend.workflow, 'export: /home → /dashboard → export_opened → /dashboard');
    assert.equal(signupTrend.friction_history.length, DAYS);
    // Page totals, not the workflow's own sessions: its pages have facts on every day.
    assert.equal(shortSignup.friction_history.length, DAYS);
    // Dead clicks and idle time on /pricing in the last week: the signup workflows rise.
    assert.equal(signupTrend.trend, 'increasing');
    assert.ok(signupTrend.percent_change > 0 && signupTrend.alert_level !== 'none', JSON.stringify(signupTrend));
    // The computation above discriminates: /dashboard counted twice, or a mean of the pages' indices, differ.
    assert.notDeepEqual(history(rows, ['/home', '/dashboard', '/dashboard']), exportTrend.friction_history);
    const meanOfPages = signupTrend.friction_history.map(({ date }) => {
      const own = ['/home', '/pricing', '/signup'].map((p) => history(rows, [p]).find((e) => e.date === date));
      const present = own.filter((e) => e !== undefined);
      return { date, friction_index: present.reduce((s, e) => s + e.friction_index, 0) / present.length };
    });
    assert.notDeepEqual(meanOfPages, signupTrend.friction_history);

    // Filters.
    assert.deepEqual(byId((await get('?goal=signup')).body.trends), byId(expected.slice(1)));
    assert.deepEqual((await get(`?workflow_id=${exportTrend.workflow_id}`)).body.trends, [exportTrend]);
    assert.deepEqual((await get(`?goal=export&workflow_id=${signupTrend.workflow_id}`)).body.trends, []);
    assert.deepEqual((await get('?goal=nothing')).body.trends, []);
    // Per-page trends stay available.
    assert.deepEqual((await get('?by=page')).body.trends.map((t) => t.page).sort(), [
      '/dashboard',
      '/home',
      '/pricing',
      '/reports',
      '/signup',
    ]);
  });

  it('reads the project’s weights when asked', async () => {
    const signup = (await get('?goal=signup')).body.trends.find(
      (t) => t.workflow === 'signup: /home → /pricing → /signup',
    )!;
    const before = (await get(`?workflow_id=${signup.workflow_id}`)).body.trends[0]!;
    const weights = { dead_click: 1, rage_click: 0, loop: 0, backtrack: 0, idle: 0 };
    assert.equal(
      (await call(pipeline.api, 'PUT', '/settings/analytics', { key: write, json: { weights } })).status,
      200,
    );
    try {
      const after = (await get(`?workflow_id=${signup.workflow_id}`)).body.trends[0]!;
      const rows = (await dailyRows()).filter((r) => ['/home', '/pricing', '/signup'].includes(r.page));
      const deadShare = (date: string) => {
        const day = rows.filter((r) => r.day === date);
        const clicks = day.reduce((s, r) => s + r.clicks, 0);
        return clicks > 0 ? Math.round((day.reduce((s, r) => s + r.dead_clicks, 0) / clicks) * 1e9) / 1e9 : 0;
      };
      assert.deepEqual(
        after.friction_history,
        before.friction_history.map(({ date }) => ({ date, friction_index: deadShare(date) })),
      );
    } finally {
      await call(pipeline.api, 'PUT', '/settings/analytics', { key: write, json: { weights: WEIGHTS } });
    }
  });

  it('answers 400 for bad parameters', async () => {
    const cases: [string, string, string][] = [
      ['?by=day', 'by', 'invalid_value'],
      ['?by=page&by=workflow', 'by', 'repeated'],
      ['?goal=', 'goal', 'invalid_length'],
      [`?goal=${'g'.repeat(256)}`, 'goal', 'invalid_length'],
      ['?workflow_id=wf_123', 'workflow_id', 'invalid_format'],
      ['?by=page&goal=signup', 'goal', 'invalid_value'],
      ['?by=page&workflow_id=wf_0123456789abcdef0123', 'workflow_id', 'invalid_value'],
    ];
    for (const [query, field, reason] of cases) {
      const reply = await get(query);
      assert.equal(reply.status, 400, query);
      const error = errorOf(reply);
      assert.equal(error.code, 'invalid_request');
      assert.deepEqual([error.details.field, error.details.reason], [field, reason], query);
    }
  });

  it('another project sees nothing of this one', async () => {
    const other = await newProject(['analytics:read']);
    const key = other.keys[0]!;
    const id = (await get('?goal=signup')).body.trends[0]!.workflow_id!;
    for (const query of ['', '?by=page', '?by=workflow', `?workflow_id=${id}`, '?goal=signup']) {
      const reply = await get(query, key);
      assert.equal(reply.status, 200, query);
      assert.deepEqual(reply.body.trends, [], query);
    }
  });

  it('lists the workflows the worker wrote last: a goal dropped is gone from the next answer', async () => {
    const goals = (trends: Trend[]) => [...new Set(trends.map((t) => t.goal))].sort();
    assert.deepEqual(goals((await get('')).body.trends), ['export', 'signup']);
    const put = await call(pipeline.api, 'PUT', '/settings/goals', { key: write, json: { goals: ['signup'] } });
    assert.equal(put.status, 200);
    assert.equal(await refreshWorkflows(services(), projectId), 0);
    const after = (await get('')).body;
    assert.deepEqual(goals(after.trends), ['signup']);
    assert.equal(after.total, 2);
  });
});
