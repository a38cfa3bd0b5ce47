import assert from 'node:assert/strict';
import { DEFAULT_ANALYTICS } from '../../domain/analytics-config.js';
import { type AlertLevel, frictionTrend } from '../../domain/metrics.js';
import {
  type PageDay,
  byPage,
  dailyHistory,
  WorkflowTrends,
  byAttention,
  workflowName,
  workflowPages,
} from '../../domain/friction/trends.js';

const weights = DEFAULT_ANALYTICS.weights;

const row = (page: string, day: string, facts: Partial<PageDay> = {}): PageDay => ({
  page,
  day,
  views: 0,
  clicks: 0,
  dead_clicks: 0,
  rage_clicks: 0,
  loop_views: 0,
  backtracks: 0,
  active_ms: 0,
  idle_ms: 0,
  ...facts,
});

describe('friction trends per workflow', () => {
  it('takes the index of a day from its summed facts, not the mean of the pages’ indices', () => {
    // /a: 1 dead of 1 click (rate 1); /b: 0 dead of 3 clicks. Summed: 1 of 4 → 0.25 · 0.25.
    const history = dailyHistory(
      [row('/a', '2025-03-02', { clicks: 1, dead_clicks: 1 }), row('/b', '2025-03-02', { clicks: 3 })],
      weights,
    );
    assert.deepEqual(history, [{ date: '2025-03-02', friction_index: 0.0625 }]);
    const meanOfIndices = (0.25 * 1 + 0) / 2;
    assert.notEqual(history[0]!.friction_index, meanOfIndices);
  });

  it('gives one entry per day with facts, oldest first', () => {
    const history = dailyHistory(
      [
        row('/a', '2025-03-03', { views: 2, backtracks: 1 }),
        row('/a', '2025-03-01', { views: 4, loop_views: 1 }),
        row('/b', '2025-03-03', { views: 2, backtracks: 1 }),
      ],
      weights,
    );
    assert.deepEqual(history, [
      { date: '2025-03-01', friction_index: 0.05 }, // 0.2 · 1/4
      { date: '2025-03-03', friction_index: 0.075 }, // 0.15 · 2/4
    ]);
  });

  it('counts each page of a path once, and no markers', () => {
    assert.deepEqual(workflowPages(['/a', '/b', '/a', '...', 'signup', '/c']), ['/a', '/b', 'signup', '/c']);
    assert.deepEqual(workflowPages(['other']), []);
    assert.deepEqual(workflowPages([]), []);
  });

  it('sums the daily rows of the path’s pages; steps without page rows add nothing', () => {
    const rows = byPage([
      row('/a', '2025-03-01', { clicks: 2, dead_clicks: 1 }),
      row('/b', '2025-03-01', { clicks: 2, rage_clicks: 2 }),
      row('/b', '2025-03-02', { active_ms: 1000, idle_ms: 500 }),
      row('/elsewhere', '2025-03-01', { clicks: 10, dead_clicks: 10 }),
    ]);
    // Day 1: 4 clicks, 1 dead, 2 in rage → 0.25 · 1/4 + 0.25 · 2/4; day 2: idle 1/2 → 0.15 · 0.5.
    const expected = [
      { date: '2025-03-01', friction_index: 0.1875 },
      { date: '2025-03-02', friction_index: 0.075 },
    ];
    const trends = new WorkflowTrends(rows, weights);
    const history = (path: string[]) => trends.of(path).friction_history;
    assert.deepEqual(history(['/a', 'export_clicked', '/b']), expected);
    assert.deepEqual(history(['/a', '/b', '/a']), expected, 'a page seen twice counts once');
    assert.deepEqual(history(['export_clicked', 'other']), []);
    assert.deepEqual(history(['/b']), [
      { date: '2025-03-01', friction_index: 0.25 },
      { date: '2025-03-02', friction_index: 0.075 },
    ]);
  });

  it('computes each set of pages once, whatever the order or repeats of a path, with its trend', () => {
    const rows = byPage([
      row('/a', '2025-03-01', { clicks: 2, dead_clicks: 1 }),
      row('/b', '2025-03-02', { clicks: 1 }),
    ]);
    const trends = new WorkflowTrends(rows, weights);
    const first = trends.of(['/a', 'signup', '/b']);
    assert.equal(trends.of(['/b', '/a', '/b', 'other', 'no_rows_page']), first, 'the same pages with rows: one answer');
    assert.notEqual(trends.of(['/a']), first);
    assert.deepEqual(first, {
      friction_history: dailyHistory([...rows.get('/a')!, ...rows.get('/b')!], weights),
      ...frictionTrend(first.friction_history),
    });
  });

  it('lists trends that need attention first: alert level, then the steepest rise, then by name', () => {
    const t = (workflow: string, alert_level: AlertLevel, percent_change: number) => ({
      workflow,
      alert_level,
      percent_change,
    });
    const sorted = [
      t('b', 'none', 0),
      t('a', 'warning', 30),
      t('c', 'critical', 12),
      t('d', 'warning', 80),
      t('a', 'none', 0),
      t('e', 'info', 11),
    ].sort(byAttention);
    assert.deepEqual(
      sorted.map((x) => x.workflow),
      ['c', 'd', 'a', 'e', 'a', 'b'],
    );
  });

  it('uses the weights it is given', () => {
    const only = { dead_click: 0, rage_click: 0, loop: 0, backtrack: 0, idle: 2 };
    const rows = byPage([row('/a', '2025-03-01', { clicks: 2, dead_clicks: 2, active_ms: 100, idle_ms: 25 })]);
    assert.deepEqual(new WorkflowTrends(rows, only).of(['/a']).friction_history, [
      { date: '2025-03-01', friction_index: 0.25 },
    ]);
  });

  it('names a workflow by its goal and steps', () => {
    assert.equal(workflowName('checkout', ['/cart', '/pay']), 'checkout: /cart → /pay');
    assert.equal(workflowName('checkout', []), 'checkout: (goal at session start)');
  });
});
