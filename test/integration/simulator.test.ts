import assert from 'node:assert/strict';
import type { RunningApi } from '../../api/server.js';
import { topicName } from '../../lib/topics.js';

import { defaultOptions, sendSimulation } from '../../scripts/simulate.js';
import type { Simulation } from '../../scripts/simulate/generator.js';
import {
  call,
  count,
  newProject,
  services,
  startPipeline,
  stopPipeline,
  type TestPipeline,
  waitForSink,
} from './helpers.js';

const close = (actual: unknown, expected: number, what: string) =>
  assert.ok(
    typeof actual === 'number' && Math.abs(actual - expected) <= 1e-9,
    `${what}: ${String(actual)} ≠ ${expected}`,
  );

describe("the simulator's answers equal the API's", () => {
  let api: RunningApi;
  let pipeline: TestPipeline;
  let projectId: string;
  let read: string;
  let simulation: Simulation;

  before(async () => {
    pipeline = await startPipeline(['analytics']);
    api = pipeline.api;
    const project = await newProject(['events:write'], ['analytics:read']);
    projectId = project.projectId;
    read = project.keys[1]!;
    simulation = await sendSimulation(api.baseUrl, project.keys[0]!, defaultOptions(7, 30, 3));
    await waitForSink('analytics', topicName('events'), 120_000);
  });
  after(() => stopPipeline(pipeline));

  it('finds every planted friction pattern, and nothing else', async () => {
    const { answers } = simulation;
    assert.equal(await count('select 1 from sessions where project_id = $1', [projectId]), answers.sessions);
    const reply = await call<{
      friction_points: { page: string; element: string; signals: Record<string, number>; users_affected: number }[];
    }>(api, 'GET', '/analytics/friction?date_range=last_7_days', { key: read });
    const pagePoints = reply.body.friction_points.filter((p) => p.element === '*');
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

  it('reports every feature as generated', async () => {
    const reply = await call<{ features: Record<string, unknown>[] }>(
      api,
      'GET',
      '/analytics/features?date_range=last_7_days',
      {
        key: read,
      },
    );
    const expected = simulation.answers.features;
    assert.deepEqual(
      reply.body.features.map((f) => f.name),
      Object.keys(expected),
    );
    for (const f of reply.body.features) {
      const e = expected[f.name as string]!;
      assert.equal(f.users_saw, e.users_saw, `${String(f.name)} users_saw`);
      assert.equal(f.users_used, e.users_used, `${String(f.name)} users_used`);
      close(f.visibility_rate, e.visibility_rate, `${String(f.name)} VR`);
      close(f.engagement_conversion, e.engagement_conversion, `${String(f.name)} EC`);
      const context = f.context as Record<string, number>;
      close(context.visible_in_empty_state, e.visible_in_empty_state, `${String(f.name)} empty state`);
      close(context.avg_data_volume_when_used, e.avg_data_volume_when_used, `${String(f.name)} data volume`);
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
      simulation.answers.impression_contexts,
    );
  });
});
