import assert from 'node:assert/strict';
import { analyticsConfig } from '../../domain/analytics-config.js';
import { type FrictionTotals, frictionIndex } from '../../domain/friction/index.js';
import { type DropOffInput, type KnownUser, dropOffPoints, targetedUsers } from '../../domain/jobs/targeting.js';
import { seededRandom } from '../../domain/random.js';
import type { DateRange } from '../../domain/date-range.js';
import { DAY_MS, isoDay } from '../../domain/time.js';
import { jobNumbers } from '../../store/job-state.js';
import { stepSql } from '../../domain/workflows/steps.js';
import { summedFacts } from '../../store/friction-facts.js';
import { refreshJobs } from '../../workers/jobs/worker.js';
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

const MINUTE = 60_000;

/** Whom an active job targets by definition: every known user the audience holds. */
async function targetsFromScratch(projectId: string, job: { job_id: string; target_audience: null | object }) {
  const { rows } = await services().db.query<KnownUser>(
    `select coalesce(u.user_id, m.user_id) as user_id, u.properties
     from (select user_id, properties from users where project_id = $1) u
     full join (select user_id from user_metrics where project_id = $1) m using (user_id)`,
    [projectId],
  );
  return targetedUsers(job as Parameters<typeof targetedUsers>[0], rows);
}

/**
 * A job's numbers counted from every stored row, as the worker did before it kept sums (no kept
 * state read); with `range`, of the users whose first event received after the job's creation
 * happened in its days, with the page friction of its days.
 */
async function analyticsFromScratch(projectId: string, jobId: string, range?: DateRange) {
  const params = [projectId, jobId, range?.start ?? null, range?.end ?? null];
  const starters = `($3::date is null or user_id in (
       select e.user_id from session_events e join jobs j on j.project_id = e.project_id and e.received_at >= j.created_at
       where e.project_id = $1 and j.job_id = $2 group by e.user_id
       having (min(e.occurred_at) at time zone 'utc')::date between $3 and $4))`;
  const { rows } = await services().db.query<{
    targeted: number;
    completed: number;
    avg: number | null;
    shown: number;
    accepted: number;
  }>(
    `with targeted as (
       select user_id from job_targets where project_id = $1 and job_id = $2 and ${starters}
       union select user_id from job_completions where project_id = $1 and job_id = $2 and ${starters})
     select (select count(*)::int from targeted) as targeted,
            (select count(*)::int from job_completions where project_id = $1 and job_id = $2 and ${starters}) as completed,
            (select avg(greatest(0, extract(epoch from c.completed_at - s.started)))::float8
             from job_completions c join jobs j using (project_id, job_id)
             cross join lateral (select min(e.occurred_at) as started from session_events e
                                 where e.project_id = c.project_id and e.user_id = c.user_id
                                   and e.received_at >= j.created_at) s
             where c.project_id = $1 and c.job_id = $2 and ${starters}) as avg,
            (select count(*)::int from job_interventions
             where project_id = $1 and job_id = $2 and kind = 'shown' and ${starters}) as shown,
            (select count(*)::int from job_interventions
             where project_id = $1 and job_id = $2 and kind = 'accepted' and ${starters}) as accepted`,
    params,
  );
  const t = rows[0]!;
  const { rows: steps } = await services().db.query<Omit<DropOffInput, 'friction_index'> & FrictionTotals>(
    `with targeted as (select user_id from job_targets where project_id = $1 and job_id = $2 and ${starters}),
     taken as (
       select * from (
         select e.user_id, ${stepSql('e', 'j.goal')} as step, e.occurred_at, e.kafka_offset
         from session_events e join targeted using (user_id), jobs j
         where e.project_id = $1 and j.project_id = $1 and j.job_id = $2 and e.received_at >= j.created_at) s
       where step is not null),
     last_step as (
       select distinct on (user_id) user_id, step from taken
       where not exists (select 1 from job_completions c where c.project_id = $1 and c.job_id = $2 and c.user_id = taken.user_id)
       order by user_id, occurred_at desc, kafka_offset desc),
     counted as (
       select s.step, count(distinct s.user_id)::int as reached,
              (select count(*)::int from last_step l where l.step = s.step) as dropped
       from taken s group by s.step)
     select c.step, c.reached, c.dropped, ${summedFacts('p')}
     from counted c
     left join friction_page_daily p on p.project_id = $1 and p.page = c.step
       and p.day >= (select created_at::date from jobs where project_id = $1 and job_id = $2)
       and ($3::date is null or p.day between $3 and $4)
     where c.dropped > 0
     group by c.step, c.reached, c.dropped`,
    params,
  );
  const weights = analyticsConfig({}).weights;
  return {
    users_targeted: t.targeted,
    users_completed: t.completed,
    completion_rate: t.targeted > 0 ? t.completed / t.targeted : 0,
    avg_time_to_completion: t.avg ?? 0,
    interventions_shown: t.shown,
    interventions_accepted: t.accepted,
    intervention_acceptance_rate: t.shown > 0 ? t.accepted / t.shown : 0,
    drop_off_points: dropOffPoints(steps.map((s) => ({ ...s, friction_index: frictionIndex(s, weights) }))),
  };
}

async function stored(projectId: string, jobId: string) {
  const { rows } = await services().db.query(
    `select users_targeted, users_completed, completion_rate, avg_time_to_completion, interventions_shown,
            interventions_accepted, intervention_acceptance_rate, drop_off_points
     from job_analytics where project_id = $1 and job_id = $2`,
    [projectId, jobId],
  );
  return rows[0] as unknown;
}

describe('jobs kept per changed user equal a full recomputation', function () {
  this.timeout(300_000);
  let pipeline: TestPipeline;
  before(async () => {
    pipeline = await startPipeline(['raw-sink', 'analytics']);
  });
  after(() => stopPipeline(pipeline));

  it('after random property changes, events, goals, interventions, erasures and status moves', async () => {
    const { projectId, keys } = await newProject(['events:write', 'admin']);
    const key = keys[0]!;
    const api = pipeline.api;
    const random = seededRandom(0x70b5);
    const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
    const users = Array.from({ length: 10 }, (_, i) => `w${i}`);
    const jobs: { job_id: string; target_audience: null | object; active: boolean }[] = [];
    for (const target_audience of [null, { type: 'segment', criteria: "plan == 'pro'" }]) {
      const created = await call<{ id: string }>(api, 'POST', '/jobs', {
        key,
        json: { name: 'j', goal: 'goal_done', ...(target_audience ? { target_audience } : {}) },
      });
      assert.equal(created.status, 201);
      assert.equal(
        (await call(api, 'PATCH', `/jobs/${created.body.id}`, { key, json: { status: 'active' } })).status,
        200,
      );
      jobs.push({ job_id: created.body.id, target_audience, active: true });
    }
    // From 10 minutes before yesterday's midnight: users start on two days.
    let at = Math.floor(Date.now() / DAY_MS) * DAY_MS - DAY_MS - 10 * MINUTE;
    const windows = [
      { start: isoDay(at), end: isoDay(at) },
      { start: isoDay(at + DAY_MS), end: isoDay(Date.now()) },
    ];
    for (let step = 0; step < 26; step++) {
      const op = pick(['identify', 'events', 'events', 'events', 'late', 'erase', 'status']);
      const user = pick(users);
      if (op === 'identify') {
        const reply = await call(api, 'POST', '/users/identify', {
          key,
          json: { user_id: user, properties: { plan: pick(['pro', 'free']) } },
        });
        assert.ok([200, 201].includes(reply.status));
      } else if (op === 'erase') {
        assert.equal((await call(api, 'DELETE', `/users/${user}`, { key })).status, 200);
      } else if (op === 'status') {
        const job = pick(jobs);
        job.active = !job.active;
        const status = job.active ? 'active' : 'paused';
        assert.equal((await call(api, 'PATCH', `/jobs/${job.job_id}`, { key, json: { status } })).status, 200);
      } else {
        const base = op === 'late' ? at - Math.floor(random() * 120) * MINUTE : (at += 3 * MINUTE);
        const events = Array.from({ length: 2 + Math.floor(random() * 4) }, (_, i) => {
          const kind = pick(['page', 'page', 'feature', 'goal', 'shown', 'accepted']);
          const job = pick(jobs).job_id;
          return {
            user_id: user,
            timestamp: new Date(base + i * 7_000).toISOString(),
            event: {
              page: 'page_view',
              feature: 'feature_used',
              goal: 'goal_done',
              shown: 'intervention_shown',
              accepted: 'intervention_accepted',
            }[kind],
            properties:
              kind === 'page'
                ? { page: pick(['/a', '/b', '/c']) }
                : kind === 'feature'
                  ? { feature: 'f' }
                  : kind === 'shown' || kind === 'accepted'
                    ? { job_id: job }
                    : {},
          };
        });
        assert.equal((await call(api, 'POST', '/events/batch', { key, json: { events } })).status, 202);
        await waitForAnalytics();
        // The pass reads the user's events from the earliest stored now, not all of them (migration 31).
        const { rows: since } = await services().db.query<{ since: Date | null }>(
          'select min(events_since) as since from job_user_changes where project_id = $1 and user_id = $2',
          [projectId, user],
        );
        assert.equal(since[0]!.since?.getTime(), base, `step ${step} (${op}): events_since`);
      }
      await refreshJobs(services());
      for (const job of jobs) {
        if (job.active) {
          const { rows } = await services().db.query<{ user_id: string }>(
            'select user_id from job_targets where project_id = $1 and job_id = $2 order by user_id',
            [projectId, job.job_id],
          );
          assert.deepEqual(
            rows.map((r) => r.user_id),
            await targetsFromScratch(projectId, job),
            `step ${step} (${op}): targets`,
          );
        }
        assert.deepEqual(
          await stored(projectId, job.job_id),
          await analyticsFromScratch(projectId, job.job_id),
          `step ${step} (${op})`,
        );
        // A window's numbers from the daily sums equal a count of the users who started in it.
        for (const range of windows) {
          assert.deepEqual(
            await jobNumbers(services().db, projectId, job.job_id, range),
            await analyticsFromScratch(projectId, job.job_id, range),
            `step ${step} (${op}), ${range.start} to ${range.end}`,
          );
        }
      }
    }
    for (const range of windows) {
      const inRange = await Promise.all(jobs.map((j) => analyticsFromScratch(projectId, j.job_id, range)));
      assert.ok(
        inRange.some((n) => n.users_targeted > 0),
        `users started from ${range.start} to ${range.end}`,
      );
    }
    const numbers = await Promise.all(jobs.map((j) => analyticsFromScratch(projectId, j.job_id)));
    assert.ok(
      numbers.some((n) => n.users_completed > 0 && n.drop_off_points.length > 0 && n.interventions_shown > 0),
      'the sequence completed, dropped off and intervened',
    );

    // The kept facts and sums equal those a pass over every user makes (what a job edit or a replay asks for).
    const tables = [
      'job_targets',
      'job_user_facts',
      'job_user_steps',
      'job_sums',
      'job_step_sums',
      'job_day_sums',
      'job_step_day_sums',
      'job_analytics',
    ];
    const kept = await tableRows(projectId, tables, ['computed_at', 'since']);
    await services().db.query('insert into job_changes (project_id) values ($1)', [projectId]);
    await refreshJobs(services());
    assert.deepEqual(await tableRows(projectId, tables, ['computed_at', 'since']), kept);
  });
});
