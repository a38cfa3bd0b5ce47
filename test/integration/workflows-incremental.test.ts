import assert from 'node:assert/strict';
import { refreshWorkflows } from '../../workers/workflows/refresh.js';
import { DEFAULT_PATH_RULES, type Attempt, attempts, mineWorkflows } from '../../domain/workflows/mining.js';
import { type StepEvent, stepsOf } from '../../domain/workflows/steps.js';
import { seededRandom } from '../../domain/random.js';
import type { DateRange } from '../../domain/date-range.js';
import { DAY_MS, isoDay } from '../../domain/time.js';
import { workflowsInRange } from '../../store/workflow-windows.js';
import {
  call,
  newProject,
  services,
  startPipeline,
  stopPipeline,
  tableRows,
  type TestPipeline,
  waitForAnalytics,
} from './helpers.js';

const GOALS = ['signup', 'feature_used'];
const MINUTE = 60_000;

/**
 * The workflows a full recomputation gives: every stored session (or those of the days of `range`)
 * read with its events and mined from scratch, as the worker did before it kept attempts (no kept
 * state is read here).
 */
async function minedFromScratch(projectId: string, range?: DateRange) {
  const { rows } = await services().db.query<StepEvent & { session_id: string; user_id: string }>(
    `select s.session_id, s.user_id, e.event, (extract(epoch from e.occurred_at) * 1000)::bigint as at,
            e.kafka_offset as "offset", jsonb_build_object('page', e.properties->'page', 'feature', e.properties->'feature') as properties
     from sessions s join session_events e on e.project_id = s.project_id and e.user_id = s.user_id
       and e.occurred_at between s.started_at and s.ended_at
     where s.project_id = $1 and ($2::date is null or s.day between $2 and $3)`,
    [projectId, range?.start ?? null, range?.end ?? null],
  );
  const sessions = new Map<string, { user: string; events: StepEvent[] }>();
  for (const r of rows) {
    const s = sessions.get(r.session_id) ?? { user: r.user_id, events: [] };
    s.events.push(r);
    sessions.set(r.session_id, s);
  }
  const users = new Set([...sessions.values()].map((s) => s.user)).size;
  return GOALS.flatMap((goal) => {
    const all = [...sessions.values()].flatMap((s) =>
      attempts(stepsOf(s.events, goal), goal).map((a): Attempt => ({ ...a, user: s.user })),
    );
    return mineWorkflows(goal, all, DEFAULT_PATH_RULES, users).map((w, rank) => ({ ...w, rank }));
  });
}

async function storedWorkflows(projectId: string) {
  const { rows } = await services().db.query<Record<string, unknown> & { goal: string; rank: number }>(
    `select workflow_id, goal, path, occurrences, frequency, users, user_share, completion_rate,
            avg_time_seconds as avg_time, efficiency_score, optimal_steps, actual_avg_steps, rank
     from workflows where project_id = $1 order by goal, rank`,
    [projectId],
  );
  return rows;
}

const byGoalAndRank = <T extends { goal: string; rank: number }>(ws: T[]) =>
  [...ws].sort((a, b) => (a.goal < b.goal ? -1 : a.goal > b.goal ? 1 : a.rank - b.rank));

describe('workflows kept per change equal a full recomputation', function () {
  this.timeout(300_000);
  let pipeline: TestPipeline;
  before(async () => {
    pipeline = await startPipeline(['raw-sink', 'analytics']);
  });
  after(() => stopPipeline(pipeline));

  it('after random sequences of new events, late events and erasures', async () => {
    const { projectId, keys } = await newProject(['events:write', 'admin']);
    const key = keys[0]!;
    const api = pipeline.api;
    assert.equal((await call(api, 'PUT', '/settings/goals', { key, json: { goals: GOALS } })).status, 200);
    const random = seededRandom(0x77f);
    const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
    const users = Array.from({ length: 8 }, (_, i) => `u${i}`);
    // From 40 minutes before yesterday's midnight: the sessions fall on two days.
    const start = Math.floor(Date.now() / DAY_MS) * DAY_MS - DAY_MS - 40 * MINUTE;
    const windows = [
      { start: isoDay(start), end: isoDay(start) },
      { start: isoDay(start + DAY_MS), end: isoDay(Date.now()) },
    ];
    const latest = new Map<string, number>();
    let n = 0;
    const event = (user: string, at: number) => {
      const kind = pick(['page', 'page', 'page', 'feature', 'click', 'signup']);
      return {
        user_id: user,
        message_id: `m-${n++}`,
        timestamp: new Date(at).toISOString(),
        event: kind === 'page' ? 'page_view' : kind === 'feature' ? 'feature_used' : kind,
        properties:
          kind === 'page'
            ? { page: pick(['/a', '/b', '/c']) }
            : kind === 'feature'
              ? { feature: pick(['f', 'g']) }
              : {},
      };
    };
    let erasures = 0;
    for (let step = 0; step < 24; step++) {
      const op = step < 4 ? 'burst' : pick(['burst', 'burst', 'late', 'late', 'erase']);
      if (op === 'erase' && latest.size > 0) {
        const user = pick([...latest.keys()]);
        assert.equal((await call(api, 'DELETE', `/users/${user}`, { key })).status, 200);
        latest.delete(user);
        erasures++;
      } else {
        const events = [];
        for (const user of [pick(users), pick(users)]) {
          if (op === 'late' && latest.has(user)) {
            // Before the user's latest event: inside a session, or in a gap it may now bridge.
            for (let i = 0; i < 3; i++)
              events.push(event(user, start + Math.floor(random() * (latest.get(user)! - start))));
          } else {
            // After the user's latest: the same session or, past the 30 min gap, a new one.
            let at = (latest.get(user) ?? start) + pick([1, 2, 5, 45]) * MINUTE;
            for (let i = 0; i < 2 + Math.floor(random() * 6); i++) {
              events.push(event(user, at));
              at += Math.floor(random() * 90_000);
            }
            latest.set(user, at);
          }
        }
        const reply = await call(api, 'POST', '/events/batch', { key, json: { events } });
        assert.equal(reply.status, 202);
      }
      await waitForAnalytics();
      await refreshWorkflows(services(), projectId);
      assert.deepEqual(
        byGoalAndRank(await storedWorkflows(projectId)),
        byGoalAndRank(await minedFromScratch(projectId)).map(({ workflow_id, goal, path, rank, ...w }) => ({
          workflow_id,
          goal,
          path,
          occurrences: w.occurrences,
          frequency: w.frequency,
          users: w.users,
          user_share: w.user_share,
          completion_rate: w.completion_rate,
          avg_time: w.avg_time,
          efficiency_score: w.efficiency_score,
          optimal_steps: w.optimal_steps,
          actual_avg_steps: w.actual_avg_steps,
          rank,
        })),
        `step ${step} (${op})`,
      );
      // A window's answer from the daily sums equals mining the sessions of its days from scratch.
      for (const range of windows) {
        assert.deepEqual(
          await workflowsInRange(services().db, projectId, GOALS, range),
          (await minedFromScratch(projectId, range)).map(({ rank: _, ...w }) => w),
          `step ${step} (${op}), ${range.start} to ${range.end}`,
        );
      }
    }
    for (const range of windows) {
      assert.ok((await minedFromScratch(projectId, range)).length > 0, `workflows from ${range.start} to ${range.end}`);
    }
    assert.ok(erasures > 0, 'the sequence erased users');
    assert.ok((await storedWorkflows(projectId)).length > 2, 'the sequence made workflows');

    // The kept sums equal those a rebuild from all sessions makes (what a replay asks for).
    const tables = ['workflow_goals', 'workflows', 'workflow_steps', 'workflow_paths', 'workflow_first_steps'];
    const dated = ['workflow_path_days', 'workflow_first_step_days', 'workflow_length_days', 'workflow_path_reach'];
    const kept = await tableRows(
      projectId,
      [...tables, ...dated, 'workflow_lengths', 'workflow_attempts'],
      ['computed_at'],
    );
    await services().db.query('insert into workflow_changes (project_id) values ($1)', [projectId]);
    assert.equal(await refreshWorkflows(services(), projectId), GOALS.length);
    assert.deepEqual(
      await tableRows(projectId, [...tables, ...dated, 'workflow_lengths', 'workflow_attempts'], ['computed_at']),
      kept,
    );
  });
});
