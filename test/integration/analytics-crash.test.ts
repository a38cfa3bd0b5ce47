import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { promisify } from 'node:util';
import type { RunningApi } from '../../api/server.js';
import { refreshWorkflows } from '../../lib/paths/workflows.js';
import { topicName } from '../../lib/topics.js';
import { refreshBehaviouralCohorts } from '../../processors/cohorts/behavioural.js';
import { analyticsSink } from '../../processors/analytics/sink.js';
import { defaultOptions } from '../../scripts/simulate.js';
import { simulate } from '../../scripts/simulate/generator.js';
import {
  call,
  closeServices,
  count,
  isolateTopics,
  newProject,
  services,
  startTestApi,
  waitFor,
  waitForSink,
} from './helpers.js';

const run = promisify(execFile);

function startAnalyticsProcess(): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', 'processors/main.ts', '--only', 'analytics'], {
    env: { ...process.env, LOG_LEVEL: 'error' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Every row the analytics sink owns for the project, in a canonical order. */
async function snapshot(projectId: string): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of analyticsSink.tables) {
    const { rows } = await services().db.query<{ row: unknown }>(
      `select to_jsonb(t) - 'project_id' as row from ${table} t where project_id = $1 order by 1`,
      [projectId],
    );
    out[table] = rows.map((r) => r.row);
  }
  return out;
}

/**
 * Workflows of a goal and the behavioural cohorts, computed from scratch from the current tables
 * (computed_at aside).
 */
async function derived(projectId: string): Promise<Record<string, unknown[]>> {
  const db = services().db;
  await db.query(
    `insert into workflow_goals (project_id, goal, requested) values ($1, 'feature_used', true)
     on conflict (project_id, goal) do update set computed_at = null`,
    [projectId],
  );
  await refreshWorkflows(services(), projectId);
  await db.query('delete from behavioural_cohort_runs where project_id = $1', [projectId]);
  await db.query('delete from behavioural_cohorts where project_id = $1', [projectId]);
  await refreshBehaviouralCohorts(services(), projectId);
  const out: Record<string, unknown[]> = {};
  for (const table of ['workflows', 'workflow_steps', 'behavioural_cohorts', 'behavioural_cohort_members']) {
    const { rows } = await db.query<{ row: unknown }>(
      `select to_jsonb(t) - 'project_id' - 'computed_at' as row from ${table} t where project_id = $1 order by 1`,
      [projectId],
    );
    out[table] = rows.map((r) => r.row);
  }
  assert.ok(out.workflows!.length > 0 && out.behavioural_cohorts!.length > 0);
  return out;
}

describe('analytics processor killed with SIGKILL at random moments, then replayed', () => {
  let api: RunningApi;
  let child: ChildProcess | undefined;

  after(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
    await api?.close();
    await closeServices();
  });

  it('ends with the tables of an uninterrupted run, and scripts/replay rebuilds the same tables', async () => {
    await isolateTopics();
    api = await startTestApi();
    const { projectId, keys } = await newProject(['events:write']);
    const { events, answers } = simulate(defaultOptions(11, 2400, 4)); // ~100k events
    const batches: (typeof events)[] = [];
    for (let i = 0; i < events.length; i += 1000) batches.push(events.slice(i, i + 1000));
    // Kill points chosen by a seeded draw: after these batches, and again while catching up.
    let seed = 20261121;
    const draw = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n) + 1;
    const kills = new Set([draw(batches.length), draw(batches.length), draw(batches.length)]);

    child = startAnalyticsProcess();
    for (let b = 0; b < batches.length; b++) {
      const reply = await call(api, 'POST', '/events/batch', { key: keys[0], json: { events: batches[b] } });
      assert.equal(reply.status, 202);
      if (kills.has(b + 1)) {
        await waitFor(
          'the processor to be working',
          async () => (await count('select 1 from session_events where project_id = $1', [projectId])) > 0,
          60_000,
        );
        child.kill('SIGKILL');
        await once(child, 'exit');
        child = startAnalyticsProcess();
      }
    }
    await waitForSink('analytics', topicName('events'), 180_000);
    child.kill('SIGTERM');
    await once(child, 'exit');

    assert.equal(await count('select 1 from session_events where project_id = $1', [projectId]), answers.events);
    assert.equal(await count('select 1 from sessions where project_id = $1', [projectId]), answers.sessions);
    const afterKills = await snapshot(projectId);
    // Announced episodes (published once, never rebuilt) are exactly the final rage bursts and
    // loops: none lost to a kill, none announced twice by a redone batch.
    const announced = async (sql: string) =>
      (await services().db.query<{ k: string }>(sql, [projectId])).rows.map((r) => r.k);
    const episodes = await announced(
      `select concat_ws('|', user_id, signal, page, element, (extract(epoch from detected_at) * 1000)::bigint) as k
       from friction_episodes where project_id = $1 order by 1`,
    );
    const signals = await announced(
      `select concat_ws('|', user_id, kind, page, element,
                        (extract(epoch from at) * 1000)::bigint + (select coalesce(sum(t), 0) from unnest(timings_ms) t)) as k
       from friction_signals where project_id = $1 and kind in ('rage_click', 'confusion_loop') order by 1`,
    );
    assert.ok(episodes.length > 0);
    assert.deepEqual(episodes, signals);
    const derivedAfterKills = await derived(projectId);

    const { stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/replay.ts', '--only', 'analytics'], {
      env: process.env,
      timeout: 300_000,
    });
    assert.match(stderr, /replayed \d+ messages/);
    assert.deepEqual(await snapshot(projectId), afterKills);
    // What the workers derive from those tables (workflows, behavioural cohorts) is the same too.
    assert.deepEqual(await derived(projectId), derivedAfterKills);
  });
});
