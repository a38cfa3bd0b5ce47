import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunningApi } from '../../api/server.js';
import { refreshWorkflows } from '../../workers/workflows/refresh.js';
import { topicName } from '../../lib/kafka/topics.js';
import { refreshBehaviouralCohorts } from '../../workers/behavioural-cohorts/worker.js';
import { analyticsLag } from '../../processors/analytics-sink/progress.js';
import { analyticsSink } from '../../processors/analytics-sink/runner.js';
import { sessionizeProgress } from '../../processors/sessionize/runner.js';
import { defaultOptions } from '../../scripts/simulate.js';
import { simulate } from '../../scripts/simulate/generator.js';
import {
  call,
  closeServices,
  count,
  isolateTopics,
  newProject,
  runReplay,
  services,
  startProcessorsProcess,
  startTestApi,
  stopProcess,
  tableRows,
  waitFor,
  waitForAnalytics,
  waitForSink,
  withAdmin,
} from './helpers.js';

/**
 * The raw-sink and the analytics chain (sessionize → analytics) in one process (`npm start` runs the
 * analytics sink apart): each kill takes all three steps at once.
 */
const startProcessors = () => startProcessorsProcess('raw-sink,analytics');

/**
 * Workflows of a goal and the behavioural cohorts, computed from scratch from the current tables
 * (computed_at aside).
 */
async function derived(projectId: string): Promise<Record<string, unknown[]>> {
  const db = services().db;
  await db.query(
    `insert into workflow_goals (project_id, goal, requested, requested_at) values ($1, 'feature_used', true, now())
     on conflict (project_id, goal) do update set computed_at = null, requested_at = now()`,
    [projectId],
  );
  await refreshWorkflows(services(), projectId);
  await db.query('delete from behavioural_cohort_runs where project_id = $1', [projectId]);
  await db.query('delete from behavioural_cohorts where project_id = $1', [projectId]);
  await refreshBehaviouralCohorts(services(), projectId);
  const out = await tableRows(
    projectId,
    ['workflows', 'workflow_steps', 'behavioural_cohorts', 'behavioural_cohort_members'],
    ['computed_at'],
  );
  assert.ok(out.workflows!.length > 0 && out.behavioural_cohorts!.length > 0);
  return out;
}

describe('processors killed with SIGKILL at random moments, then replayed', () => {
  let api: RunningApi;
  let child: ChildProcess | undefined;
  /** The loop that kills and restarts the processors; `after` ends it before it stops the last child. */
  let killer: Promise<void> | undefined;
  const now: { phase: 'load' | 'catch-up' | 'done'; posted: number } = { phase: 'load', posted: 0 };

  after(async () => {
    now.phase = 'done';
    await killer?.catch(() => undefined);
    await stopProcess(child);
    await api?.close();
    await closeServices();
  });

  // About 70 s on this machine, ~10 s per kill going to Kafka noticing the dead member: the test has
  // a budget of its own, so that on a slower machine a named wait (not mocha) says what stalled.
  it('ends with the tables of an uninterrupted run, and scripts/replay rebuilds the same tables', async () => {
    await isolateTopics();
    api = await startTestApi();
    const { projectId, keys } = await newProject(['events:write']);
    const { events, answers } = simulate(defaultOptions(11, 2400, 4)); // ~100k events
    const batches: (typeof events)[] = [];
    for (let i = 0; i < events.length; i += 1000) batches.push(events.slice(i, i + 1000));
    // Each kill lands at a seeded random moment 0–1.5 s after the restarted processors have applied
    // something (a kill during start-up proves little): mid-batch, mid-commit, between batches. The
    // load is paced (~3k events/s) and its last 40 % waits for two kills to have landed, then goes
    // at full speed to leave a backlog; one more kill lands while that backlog is applied.
    let seed = 20261122;
    const draw = (lo: number, hi: number) => lo + ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % (hi - lo));
    // Progress of every step: raw-sink and analytics offsets stored in Postgres, the sessionizer's read offsets.
    const applied = async () => {
      const { rows } = await services().db.query<{ n: string }>(
        'select coalesce(sum(next_offset), 0) as n from processor_offsets where topic = any($1)',
        [[topicName('events'), topicName('sessions')]],
      );
      let sum = Number(rows[0]!.n);
      for (const read of (await withAdmin(sessionizeProgress)).values()) sum += read;
      return sum;
    };
    /** Everything posted so far is in every table. */
    const caughtUp = async () => {
      const raw = await count("select 1 from processor_offsets where processor = 'raw-sink'");
      const rawAt = Number(
        (
          await services().db.query<{ n: string }>(
            "select coalesce(sum(next_offset), 0) as n from processor_offsets where processor = 'raw-sink'",
          )
        ).rows[0]!.n,
      );
      return (
        raw > 0 && rawAt >= events.length && (await withAdmin((admin) => analyticsLag(admin, services().db))) === 0
      );
    };
    const started = Date.now();
    const kills: { phase: 'load' | 'catch-up'; applied: number; posted: number; atS: number }[] = [];

    const phase = () => now.phase; // read afresh after each await
    child = startProcessors();
    killer = (async () => {
      for (;;) {
        const before = await applied();
        if (phase() === 'done' || (now.posted === events.length && (await caughtUp()))) return;
        await waitFor(
          `the restarted processors to apply something (kills so far: ${JSON.stringify(kills)})`,
          async () => phase() === 'done' || (await applied()) > before,
          120_000,
        );
        // Stays a sleep: a random moment of the run is what the kill is meant to hit.
        await sleep(draw(0, 1500));
        const at = await applied();
        const p = phase();
        if (p === 'done') return;
        if (now.posted === events.length && (await caughtUp())) return;
        kills.push({ phase: p, applied: at, posted: now.posted, atS: Math.round((Date.now() - started) / 1000) });
        child.kill('SIGKILL');
        await once(child, 'exit');
        child = startProcessors();
        if (p === 'catch-up') now.phase = 'done';
      }
    })();
    // A failure of the killer fails the test where it is awaited (or waited on), never unhandled.
    let killerFailed: Error | undefined;
    killer.catch((err: unknown) => (killerFailed = err instanceof Error ? err : new Error(String(err))));
    for (const [b, batch] of batches.entries()) {
      if (b === Math.floor(batches.length * 0.6)) {
        await waitFor(
          'two kills during the load',
          () => {
            if (killerFailed) throw killerFailed;
            return kills.length >= 2;
          },
          180_000,
        );
      }
      const reply = await call(api, 'POST', '/events/batch', { key: keys[0], json: { events: batch } });
      assert.equal(reply.status, 202);
      now.posted += batch.length;
      // Stays a sleep: the load is paced so that the kills fall while it runs, not after it.
      if (b < batches.length * 0.6) await sleep(300);
    }
    now.phase = 'catch-up';
    await killer;
    await waitForSink('raw-sink', topicName('events'), 180_000);
    await waitForAnalytics(180_000);
    child.kill('SIGTERM');
    await once(child, 'exit');

    assert.ok(kills.filter((k) => k.phase === 'load').length >= 2, `kills during the load: ${JSON.stringify(kills)}`);
    assert.ok(
      kills.some((k) => k.phase === 'catch-up'),
      `a kill while a backlog was being applied: ${JSON.stringify(kills)}`,
    );
    assert.equal(await count('select 1 from raw_events where project_id = $1', [projectId]), answers.events);
    assert.equal(await count('select 1 from session_events where project_id = $1', [projectId]), answers.events);
    assert.equal(await count('select 1 from sessions where project_id = $1', [projectId]), answers.sessions);
    const afterKills = await tableRows(projectId, analyticsSink.tables);
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

    assert.match(await runReplay('--only', 'analytics'), /replayed \d+ messages/);
    assert.deepEqual(await tableRows(projectId, analyticsSink.tables), afterKills);
    // What the workers derive from those tables (workflows, behavioural cohorts) is the same too.
    assert.deepEqual(await derived(projectId), derivedAfterKills);
  }).timeout(10 * 60_000);
});
