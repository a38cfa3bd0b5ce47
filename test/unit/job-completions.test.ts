import assert from 'node:assert/strict';
import type { Properties } from '../../domain/jobs/audience.js';
import { type ActiveJob, type GoalEvent, type JobCompletion, jobCompletions } from '../../domain/jobs/completions.js';

const CREATED = 1_700_000_000_000;

const job = (job_id: string, over: Partial<ActiveJob> = {}): ActiveJob => ({
  job_id,
  goal: 'report_exported',
  created_at: CREATED,
  target_audience: null,
  ...over,
});

/** A goal event `at` ms after the jobs were created, received 50 ms later. */
const ev = (message_id: string, user_id: string, at: number, over: Partial<GoalEvent> = {}): GoalEvent => ({
  user_id,
  event: 'report_exported',
  message_id,
  occurred_at: CREATED + at,
  received_at: CREATED + at + 50,
  ...over,
});

const users: Record<string, Properties> = {
  pro: { plan: 'pro', mrr: 300 },
  free: { plan: 'free', mrr: 0 },
  bigpro: { plan: 'pro', mrr: 5000 },
};
const propertiesOf = (userId: string): Properties => users[userId] ?? {};

/** [job, user, message] of each completion, order-free; completed_at is checked against the event. */
function brief(completions: JobCompletion[], events: GoalEvent[]): string[] {
  return completions
    .map((c) => {
      const e = events.find((x) => x.message_id === c.message_id)!;
      assert.equal(c.completed_at, e.occurred_at);
      assert.equal(c.user_id, e.user_id);
      return `${c.job_id} ${c.user_id} ${c.message_id}`;
    })
    .sort();
}

describe('job completions', () => {
  const segment = (criteria?: string) => ({
    type: 'segment' as const,
    ...(criteria === undefined ? {} : { criteria }),
  });
  const cases: [string, GoalEvent[], ActiveJob[], string[]][] = [
    ['a goal event completes the job', [ev('m1', 'pro', 1000)], [job('j1')], ['j1 pro m1']],
    ['another event does not', [ev('m1', 'pro', 1000, { event: 'report_viewed' })], [job('j1')], []],
    ['no jobs, no completions', [ev('m1', 'pro', 1000)], [], []],
    ['no events, no completions', [], [job('j1')], []],
    // the job's creation
    [
      'an event received before the job was created is ignored',
      [ev('m1', 'pro', -1000, { received_at: CREATED - 1 })],
      [job('j1')],
      [],
    ],
    [
      'an event received the moment the job was created counts',
      [ev('m1', 'pro', -10, { received_at: CREATED })],
      [job('j1')],
      ['j1 pro m1'],
    ],
    [
      'arrival decides, not occurrence: occurred before, received after the creation counts',
      [ev('m1', 'pro', -60_000, { received_at: CREATED + 5 })],
      [job('j1')],
      ['j1 pro m1'],
    ],
    [
      'an early event is skipped and the user’s next one completes',
      [ev('m1', 'pro', -5000, { received_at: CREATED - 4950 }), ev('m2', 'pro', 2000)],
      [job('j1')],
      ['j1 pro m2'],
    ],
    // audience
    [
      'audience all: every user',
      [ev('m1', 'pro', 1), ev('m2', 'free', 2), ev('m3', 'stranger', 3)],
      [job('j1', { target_audience: { type: 'all' } })],
      ['j1 free m2', 'j1 pro m1', 'j1 stranger m3'],
    ],
    [
      "segment plan == 'pro': only pro users",
      [ev('m1', 'pro', 1), ev('m2', 'free', 2), ev('m3', 'bigpro', 3), ev('m4', 'stranger', 4)],
      [job('j1', { target_audience: segment("plan == 'pro'") })],
      ['j1 bigpro m3', 'j1 pro m1'],
    ],
    [
      'segment with a compound criterion',
      [ev('m1', 'pro', 1), ev('m2', 'free', 2), ev('m3', 'bigpro', 3)],
      [job('j1', { target_audience: segment("plan in ['pro', 'enterprise'] && mrr >= 1000") })],
      ['j1 bigpro m3'],
    ],
    [
      'segment without criteria: every user',
      [ev('m1', 'pro', 1), ev('m2', 'free', 2)],
      [job('j1', { target_audience: segment() })],
      ['j1 free m2', 'j1 pro m1'],
    ],
    [
      'a user outside the segment does not block the next user',
      [ev('m1', 'free', 1), ev('m2', 'pro', 2)],
      [job('j1', { target_audience: segment("plan == 'pro'") })],
      ['j1 pro m2'],
    ],
    // once per (job, user), the earliest event
    [
      'the earliest event wins, whatever the batch order',
      [ev('m3', 'pro', 3000), ev('m1', 'pro', 1000), ev('m2', 'pro', 2000)],
      [job('j1')],
      ['j1 pro m1'],
    ],
    [
      'each user completes once',
      [ev('a1', 'pro', 10), ev('b1', 'free', 20), ev('a2', 'pro', 30), ev('b2', 'free', 5)],
      [job('j1')],
      ['j1 free b2', 'j1 pro a1'],
    ],
    [
      'ties on occurred_at are broken by message_id',
      [ev('m_b', 'pro', 1000), ev('m_a', 'pro', 1000), ev('m_c', 'pro', 1000)],
      [job('j1')],
      ['j1 pro m_a'],
    ],
    // several jobs
    [
      'one event completes every job with that goal',
      [ev('m1', 'pro', 1000)],
      [job('j1'), job('j2'), job('j3', { goal: 'invite_sent' })],
      ['j1 pro m1', 'j2 pro m1'],
    ],
    [
      'jobs with the same goal judge audience and creation each on their own',
      [ev('m1', 'free', 1000), ev('m2', 'pro', 2000)],
      [
        job('j_all'),
        job('j_pro', { target_audience: segment("plan == 'pro'") }),
        job('j_late', { created_at: CREATED + 1500 }),
      ],
      ['j_all free m1', 'j_all pro m2', 'j_late pro m2', 'j_pro pro m2'],
    ],
    [
      'jobs with different goals pick their own events',
      [ev('m1', 'pro', 1000, { event: 'invite_sent' }), ev('m2', 'pro', 2000)],
      [job('j1'), job('j2', { goal: 'invite_sent' })],
      ['j1 pro m2', 'j2 pro m1'],
    ],
  ];
  for (const [name, events, jobs, expected] of cases) {
    it(name, () => assert.deepEqual(brief(jobCompletions(events, jobs, propertiesOf), events), expected));
  }

  it('judges the audience on the properties it is given now', () => {
    const events = [ev('m1', 'u', 1)];
    const jobs = [job('j1', { target_audience: segment("plan == 'pro'") })];
    assert.equal(jobCompletions(events, jobs, () => ({ plan: 'free' })).length, 0);
    assert.equal(jobCompletions(events, jobs, () => ({ plan: 'pro' })).length, 1);
  });

  it('leaves the caller’s batch as it was', () => {
    const events = [ev('m2', 'pro', 2000), ev('m1', 'pro', 1000)];
    const copy = structuredClone(events);
    jobCompletions(events, [job('j1')], propertiesOf);
    assert.deepEqual(events, copy);
  });

  describe('completion_id', () => {
    const idOf = (events: GoalEvent[], jobId = 'j1', userId = 'pro') =>
      jobCompletions(events, [job(jobId)], propertiesOf).find((c) => c.user_id === userId)!.completion_id;
    const base = idOf([ev('m1', 'pro', 1000)]);

    it('looks like jc_ and 24 hex digits', () => assert.match(base, /^jc_[0-9a-f]{24}$/));

    const same: [string, string][] = [
      ['another event of the same user', idOf([ev('m9', 'pro', 7000)])],
      ['another batch with more users', idOf([ev('x', 'free', 1), ev('m1', 'pro', 1000)])],
    ];
    for (const [name, id] of same) it(`is the same for ${name}`, () => assert.equal(id, base));

    const different: [string, string][] = [
      ['another user', idOf([ev('m1', 'free', 1000)], 'j1', 'free')],
      ['another job', idOf([ev('m1', 'pro', 1000)], 'j2')],
    ];
    for (const [name, id] of different) it(`differs for ${name}`, () => assert.notEqual(id, base));

    it('does not mix up job and user ids that concatenate alike', () => {
      const a = jobCompletions([ev('m1', 'bc', 1)], [job('a')], () => ({}))[0]!.completion_id;
      const b = jobCompletions([ev('m1', 'c', 1)], [job('ab')], () => ({}))[0]!.completion_id;
      assert.notEqual(a, b);
    });

    it('is unique across the completions of one batch', () => {
      const completions = jobCompletions(
        [ev('m1', 'pro', 1), ev('m2', 'free', 2)],
        [job('j1'), job('j2')],
        propertiesOf,
      );
      assert.equal(completions.length, 4);
      assert.equal(new Set(completions.map((c) => c.completion_id)).size, 4);
    });
  });
});
