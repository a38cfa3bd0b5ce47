import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunningApi } from '../../api/server.js';

import { defaultOptions, runSimulate } from '../../scripts/simulate.js';
import { type Answers, simulate } from '../../scripts/simulate/generator.js';
import {
  call,
  count,
  newProject,
  services,
  startPipeline,
  stopPipeline,
  type TestPipeline,
  waitForAnalytics,
} from './helpers.js';

const close = (actual: unknown, expected: number, what: string) =>
  assert.ok(
    typeof actual === 'number' && Math.abs(actual - expected) <= 1e-9,
    `${what}: ${String(actual)} ≠ ${expected}`,
  );

const SEED = 7;
const USERS = 30;
const SESSIONS = 3;

// The answers are read back from the file `scripts/simulate.ts --out` writes, as a user of the CLI would.
describe("the simulator's answers equal the API's", () => {
  let api: RunningApi;
  let pipeline: TestPipeline;
  let projectId: string;
  let read: string;
  let answers: Answers;

  before(async () => {
    pipeline = await startPipeline(['analytics']);
    api = pipeline.api;
    const project = await newProject(['events:write'], ['analytics:read']);
    projectId = project.projectId;
    read = project.keys[1]!;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pi-simulate-'));
    try {
      const out = path.join(dir, 'answers.json');
      const args = ['--base-url', api.baseUrl, '--key', project.keys[0]!, '--out', out];
      const code = await runSimulate([
        ...args,
        '--seed',
        `${SEED}`,
        '--users',
        `${USERS}`,
        '--sessions',
        `${SESSIONS}`,
      ]);
      assert.equal(code, 0);
      answers = JSON.parse(fs.readFileSync(out, 'utf8')) as Answers;
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    await waitForAnalytics(120_000);
  });
  after(() => stopPipeline(pipeline));

  it('writes to --out every answer the generator states', () => {
    assert.deepEqual(answers, simulate(defaultOptions(SEED, USERS, SESSIONS)).answers);
  });

  it('finds every planted friction pattern, and nothing else', async () => {
    assert.equal(await count('select 1 from sessions where project_id = $1', [projectId]), answers.sessions);
    const reply = await call<{
      friction_points: {
        page: string;
        element: string | null;
        signals: Record<string, number>;
        users_affected: number;
      }[];
    }>(api, 'GET', '/analytics/friction?date_range=last_7_days&include_zero=true&per_page=100', { key: read });
    const pagePoints = reply.body.friction_points.filter((p) => p.element === null);
    assert.ok(pagePoints.length >= 5);
    for (const point of pagePoints) {
      const expected = answers.pages[point.page] ?? {
        dead_clicks: 0,
        rage_clicks: 0,
        confusion_loops: 0,
        avg_idle_time: 0,
        users_affected: 0,
      };
      const { avg_idle_time, ...counts } = point.signals;
      assert.deepEqual(
        { ...counts, users_affected: point.users_affected },
        {
          dead_clicks: expected.dead_clicks,
          rage_clicks: expected.rage_clicks,
          confusion_loops: expected.confusion_loops,
          users_affected: expected.users_affected,
        },
        point.page,
      );
      close(avg_idle_time, expected.avg_idle_time, `${point.page} avg_idle_time`);
    }
    const { rows } = await services().db.query<{ page: string; backtracks: number }>(
      'select page, sum(backtracks)::int as backtracks from friction_page_daily where project_id = $1 group by page',
      [projectId],
    );
    for (const row of rows) assert.equal(row.backtracks, answers.pages[row.page]?.backtracks ?? 0, row.page);
  });

  it('scores every page and element as generated (Friction Index, default weights)', async () => {
    const reply = await call<{
      friction_points: {
        page: string;
        element: string | null;
        friction_index: number;
        signals: Record<string, number>;
        users_affected: number;
      }[];
    }>(api, 'GET', '/analytics/friction?date_range=last_7_days&per_page=100', { key: read });
    const points = reply.body.friction_points;
    const key = (p: { page: string; element: string | null }) => `${p.page} ${p.element}`;
    // The same points in the same order: index down, then page, then element.
    assert.deepEqual(points.map(key), answers.friction_points.map(key));
    // Planted friction makes indexes of every kind, not zeros alone.
    assert.ok(answers.friction_points.some((p) => p.element !== null && p.facts.dead_clicks > 0));
    assert.ok(answers.friction_points.some((p) => p.element !== null && p.facts.rage_clicks > 0));
    assert.ok(answers.friction_points.some((p) => p.facts.loop_views > 0));
    assert.ok(answers.friction_points.some((p) => p.facts.backtracks > 0));
    assert.ok(answers.friction_points.some((p) => p.facts.idle_ms > 0));
    answers.friction_points.forEach((expected, i) => {
      const point = points[i]!;
      const what = key(expected);
      close(point.friction_index, expected.friction_index, `${what} friction_index`);
      const { avg_idle_time, ...counts } = point.signals;
      const { avg_idle_time: expectedIdle, ...expectedCounts } = expected.signals;
      assert.deepEqual(
        { ...counts, users_affected: point.users_affected },
        { ...expectedCounts, users_affected: expected.users_affected },
        what,
      );
      close(avg_idle_time, expectedIdle, `${what} avg_idle_time`);
    });
  });

  it('reports every feature as generated', async () => {
    const reply = await call<{ features: Record<string, unknown>[] }>(
      api,
      'GET',
      '/analytics/features?date_range=last_7_days&per_page=100',
      { key: read },
    );
    const expected = answers.features;
    assert.deepEqual(
      reply.body.features.map((f) => f.name),
      Object.keys(expected),
    );
    assert.ok(Object.values(expected).some((e) => e.avg_days_to_discovery > 0));
    for (const f of reply.body.features) {
      const e = expected[f.name as string]!;
      const name = String(f.name);
      assert.equal(f.users_saw, e.users_saw, `${name} users_saw`);
      assert.equal(f.users_used, e.users_used, `${name} users_used`);
      assert.equal(f.quadrant, e.quadrant, `${name} quadrant`);
      close(f.visibility_rate, e.visibility_rate, `${name} VR`);
      close(f.engagement_conversion, e.engagement_conversion, `${name} EC`);
      close(f.avg_days_to_discovery, e.avg_days_to_discovery, `${name} avg_days_to_discovery`);
      close(f.discovery_gap_score, e.discovery_gap_score, `${name} DGS`);
      const context = f.context as Record<string, number>;
      close(context.visible_in_empty_state, e.visible_in_empty_state, `${name} empty state`);
      close(context.avg_data_volume_when_used, e.avg_data_volume_when_used, `${name} data volume`);
    }
  });

  it('splits impressions by UI context as generated', async () => {
    const reply = await call<{ context_breakdown: Record<string, { count: number }> }>(
      api,
      'GET',
      '/analytics/context/events/feature_impression?date_range=last_7_days',
      { key: read },
    );
    assert.deepEqual(
      {
        with_data_present: reply.body.context_breakdown.with_data_present!.count,
        empty_state: reply.body.context_breakdown.empty_state!.count,
      },
      answers.impression_contexts,
    );
  });

  it('counts every event name by context, with its success rate and friction, as generated', async () => {
    const names = Object.keys(answers.event_contexts);
    assert.ok(names.includes('feature_impression') && names.includes('page_view'));
    // Planted friction right after a page view fails it: success rates below 1 are checked too.
    const views = answers.event_contexts.page_view!.with_data_present;
    assert.ok(views.successes > 0 && views.successes < views.count);
    for (const name of names) {
      const expected = answers.event_contexts[name]!;
      const reply = await call<{
        total_occurrences: number;
        context_breakdown: Record<
          string,
          { count: number; success_rate: number; friction_index: number; contextual_success_rate: number }
        >;
      }>(api, 'GET', `/analytics/context/events/${name}?date_range=last_7_days`, { key: read });
      assert.equal(reply.status, 200, name);
      assert.equal(reply.body.total_occurrences, expected.total_occurrences, `${name} total_occurrences`);
      for (const context of ['with_data_present', 'empty_state'] as const) {
        const actual = reply.body.context_breakdown[context]!;
        const what = `${name} ${context}`;
        assert.equal(actual.count, expected[context].count, `${what} count`);
        close(actual.success_rate, expected[context].success_rate, `${what} success_rate`);
        close(actual.friction_index, expected[context].friction_index, `${what} friction_index`);
        close(
          actual.contextual_success_rate,
          expected[context].contextual_success_rate,
          `${what} contextual_success_rate`,
        );
      }
    }
  });
});
