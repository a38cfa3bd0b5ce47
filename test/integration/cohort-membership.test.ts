import assert from 'node:assert/strict';
import { type CohortCriteria, compileCohortCriteria } from '../../domain/cohorts/criteria.js';
import { seededRandom } from '../../domain/random.js';
import { TIME_RELATIVE_PASS_MS, refreshCohortMembership } from '../../workers/cohort-membership/worker.js';
import {
  call,
  newProject,
  services,
  startPipeline,
  stopPipeline,
  type TestPipeline,
  waitForAnalytics,
} from './helpers.js';

const MINUTE = 60_000;

/** The members by definition: the criteria over every user_metrics row of the project, now. */
async function evaluated(projectId: string, criteria: CohortCriteria): Promise<string[]> {
  const { sql, params } = compileCohortCriteria(criteria, 2);
  const { rows } = await services().db.query<{ user_id: string }>(
    `select m.user_id from user_metrics m where m.project_id = $1 and ${sql} order by m.user_id`,
    [projectId, ...params],
  );
  return rows.map((r) => r.user_id);
}

async function members(projectId: string, cohortId: string): Promise<string[]> {
  const { rows } = await services().db.query<{ user_id: string }>(
    'select user_id from cohort_members where project_id = $1 and cohort_id = $2 order by user_id',
    [projectId, cohortId],
  );
  return rows.map((r) => r.user_id);
}

/** The members the published changes add up to, and the size each change announced last. */
async function changesFolded(projectId: string, cohortId: string) {
  const { rows } = await services().db.query<{ added: string[]; removed: string[]; size: number }>(
    'select added, removed, size from cohort_changes where project_id = $1 and cohort_id = $2 order by changed_at',
    [projectId, cohortId],
  );
  const folded = new Set<string>();
  for (const r of rows) {
    r.added.forEach((u) => folded.add(u));
    r.removed.forEach((u) => folded.delete(u));
  }
  return { members: [...folded].sort(), size: rows.at(-1)?.size ?? 0 };
}

describe('custom cohort membership kept per changed user', function () {
  this.timeout(180_000);
  let pipeline: TestPipeline;
  let projectId: string;
  let key: string;
  before(async () => {
    pipeline = await startPipeline(['raw-sink', 'analytics']);
    const project = await newProject(['events:write', 'admin']);
    [projectId, key] = [project.projectId, project.keys[0]!];
  });
  after(() => stopPipeline(pipeline));

  const post = async (events: object[]) => {
    assert.equal((await call(pipeline.api, 'POST', '/events/batch', { key, json: { events } })).status, 202);
    await waitForAnalytics();
  };
  const create = async (criteria: CohortCriteria) => {
    const reply = await call<{ id: string }>(pipeline.api, 'POST', '/cohorts', {
      key,
      json: { name: 'c', criteria },
    });
    assert.equal(reply.status, 201);
    return reply.body.id;
  };

  it('equals an evaluation over every user after random traffic and erasures', async () => {
    const random = seededRandom(0xc0);
    const pick = <T>(xs: T[]) => xs[Math.floor(random() * xs.length)]!;
    const users = Array.from({ length: 12 }, (_, i) => `v${i}`);
    const start = Date.now() - 3 * 24 * 60 * MINUTE;
    const cohorts: [CohortCriteria, string][] = [];
    const definitions: CohortCriteria[] = [
      { events: { gte: 6 } },
      { sessions: { gte: 2 }, features_used: { between: [1, 2] } },
    ];
    for (const criteria of definitions) {
      cohorts.push([criteria, await create(criteria)]);
    }
    let at = start;
    for (let step = 0; step < 14; step++) {
      if (step % 5 === 4) {
        const user = pick(users);
        assert.equal((await call(pipeline.api, 'DELETE', `/users/${user}`, { key })).status, 200);
      } else {
        const events = [pick(users), pick(users)].flatMap((user) => {
          at += pick([1, 40]) * MINUTE;
          return Array.from({ length: 1 + Math.floor(random() * 4) }, (_, i) => ({
            user_id: user,
            event: random() < 0.4 ? 'feature_used' : 'page_view',
            properties: { page: '/p', feature: pick(['a', 'b', 'c']) },
            timestamp: new Date(at + i * 1000).toISOString(),
          }));
        });
        await post(events);
      }
      await refreshCohortMembership(services());
      for (const [criteria, id] of cohorts) {
        const expected = await evaluated(projectId, criteria);
        assert.deepEqual(await members(projectId, id), expected, `step ${step}: ${JSON.stringify(criteria)}`);
        assert.deepEqual(await changesFolded(projectId, id), { members: expected, size: expected.length });
      }
    }
    assert.ok((await members(projectId, cohorts[0]![1])).length > 0, 'the traffic filled a cohort');
    assert.equal(await refreshCohortMembership(services()), 0, 'nothing changed, nothing recorded');
  });

  it('evaluates time-relative criteria over every user at a lower rate', async () => {
    const user = `idle-${Date.now()}`;
    await post([
      { user_id: user, event: 'page_view', properties: { page: '/p' }, timestamp: new Date().toISOString() },
    ]);
    const { rows } = await services().db.query<{ days: number }>(
      `select extract(epoch from now() - last_seen_at) / 86400 as days from user_metrics
       where project_id = $1 and user_id = $2`,
      [projectId, user],
    );
    // A bound the user crosses in about two seconds, without any event of theirs.
    const id = await create({ last_seen_days: { lte: Number(rows[0]!.days) + 2 / 86400 } });
    await refreshCohortMembership(services());
    assert.deepEqual(await members(projectId, id), [user]);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    await refreshCohortMembership(services());
    assert.deepEqual(await members(projectId, id), [user], 'between full passes only changed users are evaluated');
    await services().db.query(
      `update cohort_evaluations set evaluated_at = now() - $3::float8 * interval '1 millisecond'
       where project_id = $1 and cohort_id = $2`,
      [projectId, id, TIME_RELATIVE_PASS_MS],
    );
    assert.equal(await refreshCohortMembership(services()), 1);
    assert.deepEqual(await members(projectId, id), [], 'the full pass finds the user past the bound');
  });
});
