import assert from 'node:assert/strict';
import type { RunningApi } from '../../api/server.js';
import { rebuiltBy } from '../../store/tables.js';
import {
  call,
  count,
  errorOf,
  newProject,
  postEvents,
  runReplay,
  services,
  startPipeline,
  stopPipeline,
  tableRows,
  type TestPipeline,
  waitForAnalytics,
  waitForSink,
} from './helpers.js';
import { topicName } from '../../lib/kafka/topics.js';
import { refreshJobs } from '../../workers/jobs/worker.js';
import { refreshWorkflows } from '../../workers/workflows/refresh.js';
import { refreshCohortMembership } from '../../workers/cohort-membership/worker.js';

interface Sent {
  user_id: string;
  event: string;
  properties: Record<string, unknown>;
  timestamp: string;
  message_id: string;
}

/** Columns that differ between two runs of the same events (when they were received and stored). */
const RUN_COLUMNS = ['received_at', 'kafka_offset', 'created_at', 'updated_at', 'computed_at'];
/** The analytics step's tables, but the events themselves (compared by what they hold, below). */
const TABLES = rebuiltBy('analytics').filter((t) => t !== 'session_events');

describe('identity stitching: one person before and after sign-in', () => {
  let pipeline: TestPipeline;
  let api: RunningApi;
  /** The project the person signs in to, and one that was sent every event under the user from the start. */
  let stitched: { projectId: string; admin: string };
  let reference: { projectId: string; admin: string };
  const startedAt = Date.now();
  const base = startedAt - 2 * 3_600_000;
  let n = 0;
  const event = (user: string, name: string, properties: Record<string, unknown>, atS: number): Sent => ({
    user_id: user,
    event: name,
    properties,
    timestamp: new Date(base + atS * 1000).toISOString(),
    message_id: `m-${++n}`,
  });
  /** The events as the reference project gets them: every anonymous id replaced by its user. */
  const asUsers = (events: Sent[]) =>
    events.map((e) => ({ ...e, user_id: { 'anon-1': 'u_42', 'anon-2': 'u_7' }[e.user_id] ?? e.user_id }));
  const sent: Sent[] = [];
  /** Each project's job (goal: report_exported) and custom cohort (one session or more). */
  const made = new Map<string, { job: string; cohort: string }>();
  const refreshWorkers = async (projectId: string) => {
    await refreshWorkflows(services(), projectId);
    await refreshJobs(services(), projectId);
    await refreshCohortMembership(services());
  };
  const send = async (events: Sent[]) => {
    sent.push(...events);
    await postEvents(api, stitched.admin, events);
    await waitForAnalytics(60_000);
    // The workers' passes after each step: they follow the moves by their change logs.
    await refreshWorkers(stitched.projectId);
  };
  const identify = (json: Record<string, unknown>) =>
    call(api, 'POST', '/users/identify', { key: stitched.admin, json });

  before(async () => {
    pipeline = await startPipeline(['raw-sink', 'analytics']);
    api = pipeline.api;
    for (const p of [(stitched = { projectId: '', admin: '' }), (reference = { projectId: '', admin: '' })]) {
      const project = await newProject(['admin']);
      [p.projectId, p.admin] = [project.projectId, project.keys[0]!];
      const job = await call<{ id: string }>(api, 'POST', '/jobs', {
        key: p.admin,
        json: { name: 'Export a report', goal: 'report_exported' },
      });
      const active = await call(api, 'PATCH', `/jobs/${job.body.id}`, { key: p.admin, json: { status: 'active' } });
      assert.equal(active.status, 200);
      const cohort = await call<{ id: string }>(api, 'POST', '/cohorts', {
        key: p.admin,
        json: { name: 'active', criteria: { sessions: { gte: 1 } } },
      });
      assert.equal(cohort.status, 201);
      made.set(p.projectId, { job: job.body.id, cohort: cohort.body.id });
    }
  });

  after(() => stopPipeline(pipeline));

  it('moves a visitor’s events into the user they sign in as, across partitions and held state', async () => {
    // u_7 is a known user, held by the analytics step, who comes back on a new device (anon-2).
    await send([
      event('u_7', 'page_view', { page: '/home' }, 0),
      event('u_7', 'feature_used', { feature: 'reports', page: '/home' }, 10),
    ]);
    // A visitor sees the reports panel, then signs in as u_42 and rage-clicks save.
    await send([
      event('anon-1', 'page_view', { page: '/home' }, 100),
      event('anon-1', 'feature_impression', { feature: 'reports', page: '/home' }, 105),
      event('anon-1', 'report_started', { page: '/reports' }, 106),
      event('anon-2', 'page_view', { page: '/pricing' }, 4000),
      event('anon-2', 'feature_impression', { feature: 'export', page: '/pricing' }, 4005),
    ]);
    const linked = await identify({ user_id: 'u_42', anonymous_id: 'anon-1', properties: { plan: 'pro' } });
    assert.equal(linked.status, 201);
    assert.equal((await identify({ user_id: 'u_7', previous_id: 'anon-2' })).status, 201);
    await send([
      ...[0, 1, 2, 3, 4].map((i) => event('u_42', 'click', { element: '#save', page: '/home' }, 110 + i * 0.2)),
      event('u_42', 'feature_used', { feature: 'reports', page: '/home' }, 120),
      event('u_42', 'report_exported', { page: '/reports' }, 125),
      event('u_7', 'feature_used', { feature: 'export', page: '/pricing' }, 4010),
      // A page that had not heard of the sign-in yet still sends under the anonymous id.
      event('anon-1', 'page_view', { page: '/reports' }, 130),
    ]);
    await waitForSink('raw-sink', topicName('events'), 60_000);

    // The reference knows the same users, with the same properties (segments split by them).
    for (const json of [{ user_id: 'u_42', properties: { plan: 'pro' } }, { user_id: 'u_7' }]) {
      assert.equal((await call(api, 'POST', '/users/identify', { key: reference.admin, json })).status, 201);
    }
    await postEvents(api, reference.admin, asUsers(sent));
    await waitForAnalytics(60_000);

    // One person each: the tables equal those of a run that knew the user from the first event.
    const omit = RUN_COLUMNS;
    assert.deepEqual(
      await tableRows(stitched.projectId, TABLES, omit),
      await tableRows(reference.projectId, TABLES, omit),
    );
    const events = (projectId: string) => tableRows(projectId, ['session_events'], omit).then((t) => t.session_events);
    assert.deepEqual(await events(stitched.projectId), await events(reference.projectId));
    assert.equal(await count('select 1 from user_metrics where project_id = $1', [stitched.projectId]), 2);
    assert.equal(
      await count("select 1 from sessions where project_id = $1 and user_id = 'u_42'", [stitched.projectId]),
      1,
      'the session spanning the sign-in is one session',
    );

    const features = (p: { admin: string }) =>
      call<{ features: { name: string; users_saw: number }[] }>(api, 'GET', '/analytics/features', {
        key: p.admin,
      });
    const got = await features(stitched);
    assert.deepEqual(got.body, (await features(reference)).body);
    // Seen by the visitor before sign-in, by u_7 after: two people, not a visitor and a user apart.
    assert.equal(got.body.features.find((f) => f.name === 'reports')?.users_saw, 2, JSON.stringify(got.body));

    // Later events of the user on their own partition read the moved rows back, not a stale held chain.
    await send([event('u_7', 'page_view', { page: '/settings' }, 4020)]);
    await postEvents(api, reference.admin, asUsers(sent.slice(-1)));
    await waitForAnalytics(60_000);
    assert.deepEqual(
      await tableRows(stitched.projectId, TABLES, omit),
      await tableRows(reference.projectId, TABLES, omit),
    );
  });

  it('counts one person in the workflows, the job and the cohort', async () => {
    await refreshWorkers(reference.projectId);
    const answers = async (p: { projectId: string; admin: string }) => {
      const { job, cohort } = made.get(p.projectId)!;
      const get = async (path: string) => {
        const reply = await call<Record<string, unknown>>(api, 'GET', path, { key: p.admin });
        assert.equal(reply.status, 200, `${path}: ${JSON.stringify(reply.body)}`);
        return JSON.parse(JSON.stringify(reply.body).replaceAll(job, 'JOB').replaceAll(cohort, 'COHORT')) as unknown;
      };
      return {
        job: await get(`/analytics/jobs/${job}`),
        workflows: await get('/analytics/workflows?goal=report_exported'),
        cohort: await get(`/cohorts/${cohort}/users`),
      };
    };
    const got = await answers(stitched);
    assert.deepEqual(got, await answers(reference));
    assert.match(JSON.stringify(got.cohort), /"total":2\b/, JSON.stringify(got.cohort));
  });

  it('gives the same tables again on a replay, from offset 0 and from a date', async () => {
    const before = await tableRows(stitched.projectId, TABLES, RUN_COLUMNS);
    await Promise.all(pipeline.sinks.splice(0).map((s) => s.stop()));
    await runReplay('--only', 'analytics');
    assert.deepEqual(await tableRows(stitched.projectId, TABLES, RUN_COLUMNS), before);
    await runReplay('--only', 'analytics', '--from', new Date(startedAt).toISOString());
    assert.deepEqual(await tableRows(stitched.projectId, TABLES, RUN_COLUMNS), before);
  });

  it('keeps the rules: one user per anonymous id, identified users never merged', async () => {
    const other = await identify({ user_id: 'u_99', anonymous_id: 'anon-1' });
    assert.equal(other.status, 409);
    assert.deepEqual(errorOf(other).details, { field: 'anonymous_id', reason: 'linked_to_another_user' });
    const identified = await identify({ user_id: 'u_99', anonymous_id: 'u_42' });
    assert.equal(identified.status, 409);
    assert.equal(errorOf(identified).details.reason, 'identified_user');
    const alias = await identify({ user_id: 'anon-1', anonymous_id: 'anon-9' });
    assert.equal(alias.status, 409);
    assert.equal(errorOf(alias).details.reason, 'linked_anonymous_id');
    assert.equal(
      await count("select 1 from users where project_id = $1 and user_id = 'u_99'", [stitched.projectId]),
      0,
    );
    const same = await identify({ user_id: 'u_99', anonymous_id: 'u_99' });
    assert.equal(same.status, 400);
    assert.equal(errorOf(same).details.reason, 'same_as_user_id');
    assert.equal(
      (await identify({ user_id: 'u_42', anonymous_id: 'anon-1' })).status,
      200,
      'linking again is harmless',
    );
    const reserved = await call(api, 'POST', '/events', {
      key: stitched.admin,
      json: { user_id: 'u_42', event: '$identify' },
    });
    assert.equal(reserved.status, 400);
    assert.equal(errorOf(reserved).details.reason, 'reserved');
  });

  it('erases the person: the user and every anonymous id linked to them', async () => {
    const { projectId, admin } = stitched;
    assert.ok((await count("select 1 from raw_events where project_id = $1 and user_id = 'anon-1'", [projectId])) > 0);
    // Given the anonymous id, the person it belongs to goes.
    const erased = await call<{ rows_deleted: number }>(api, 'DELETE', '/users/anon-1', { key: admin });
    assert.equal(erased.status, 200);
    for (const user of ['u_42', 'anon-1']) {
      for (const table of ['raw_events', 'session_events', 'sessions', 'users', 'user_metrics']) {
        assert.equal(
          await count(`select 1 from ${table} where project_id = $1 and user_id = $2`, [projectId, user]),
          0,
          `${table} of ${user}`,
        );
      }
    }
    assert.equal(
      await count("select 1 from identity_links where project_id = $1 and user_id = 'u_42'", [projectId]),
      0,
    );
    assert.equal(await count("select 1 from identity_links where project_id = $1 and user_id = 'u_7'", [projectId]), 1);
  });
});
