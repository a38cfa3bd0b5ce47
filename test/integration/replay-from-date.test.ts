import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RunningApi } from '../../api/server.js';
import type { TrackedEventInput } from '../../domain/tracked-event.js';
import { topicName } from '../../lib/kafka/topics.js';
import { PROCESSORS, startProcessors } from '../../processors/main.js';
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
  startTestApi,
  tableRows,
  waitForAnalytics,
  waitForSink,
} from './helpers.js';

const SINKS = Object.keys(PROCESSORS) as (keyof typeof PROCESSORS)[];

/** Runs a replay that must fail with `code`: 2 for a bad command line, 1 for a refusal. */
async function replayFails(code: 1 | 2, ...args: string[]): Promise<string> {
  const failed = await runReplay(...args).then(
    () => undefined,
    (err: { code: number; stderr: string }) => err,
  );
  assert.ok(failed, `replay ${args.join(' ')} should fail`);
  assert.equal(failed.code, code);
  return failed.stderr;
}

/** Every row the sinks own for the project, in a canonical order. */
const snapshot = (projectId: string) =>
  tableRows(
    projectId,
    SINKS.flatMap((n) => PROCESSORS[n].tables),
  );

async function sessionsOf(projectId: string, users: string[]): Promise<unknown[]> {
  const { rows } = await services().db.query<{ row: unknown }>(
    `select to_jsonb(s) - 'project_id' as row from sessions s where project_id = $1 and user_id = any($2) order by 1`,
    [projectId, users],
  );
  return rows.map((r) => r.row);
}

async function storedOffsets(): Promise<unknown[]> {
  const { rows } = await services().db.query<{ row: unknown }>(
    'select to_jsonb(o) as row from processor_offsets o where topic = $1 order by processor, topic, partition',
    [topicName('events')],
  );
  return rows.map((r) => r.row);
}

async function runSinksToEnd(): Promise<void> {
  const running = await startProcessors(services(), SINKS);
  try {
    await waitForSink('raw-sink', topicName('events'), 120_000);
    await waitForAnalytics(120_000);
  } finally {
    await Promise.all(running.map((r) => r.stop()));
  }
}

describe('scripts/replay --from: rebuilds what the events received since an instant gave', () => {
  let api: RunningApi;
  let projectId: string;
  let cut: Date;
  let live: Record<string, unknown[]>;
  const earlyUsers: string[] = []; // users whose events all arrived before the cut
  const lateUsers: string[] = []; // users whose events all arrived after it
  let secondPeriod = 0; // messages sent after the cut

  before(async () => {
    await isolateTopics();
    api = await startTestApi();
    const project = await newProject(['events:write']);
    projectId = project.projectId;
    const key = project.keys[0]!;
    const { events } = simulate(defaultOptions(7, 24, 3));
    const users = [...new Set(events.map((e) => e.user_id))].sort();
    const third = Math.floor(users.length / 3);
    earlyUsers.push(...users.slice(0, third));
    lateUsers.push(...users.slice(third, 2 * third));
    // The remaining users are mixed: every fourth event of theirs arrives after the cut, late
    // (it occurred between events that arrived before), and some early ones arrive twice.
    const first: TrackedEventInput[] = [];
    const second: TrackedEventInput[] = [];
    events.forEach((e, i) => {
      if (earlyUsers.includes(e.user_id)) first.push(e);
      else if (lateUsers.includes(e.user_id)) second.push(e);
      else (i % 4 === 0 ? second : first).push(e);
    });
    second.push(...first.filter((_, i) => i % 50 === 0)); // duplicates of early message ids
    const send = async (list: TrackedEventInput[]) => {
      for (let i = 0; i < list.length; i += 500) {
        const reply = await call(api, 'POST', '/events/batch', { key, json: { events: list.slice(i, i + 500) } });
        assert.equal(reply.status, 202);
      }
    };
    await send(first);
    // Stays a sleep: receive times are in ms, and the cut must fall strictly between the halves'.
    await sleep(20);
    cut = new Date();
    await sleep(20);
    await send(second);
    secondPeriod = second.length;
    await runSinksToEnd();
    live = await snapshot(projectId);
  });

  after(async () => {
    await api?.close();
    await closeServices();
  });

  it('takes out and re-reads only the events received since the cut, ending with the live tables', async () => {
    const db = services().db;
    // The scenario has what it must: sessions mixing events from both sides of the cut.
    const { rows: mixed } = await db.query<{ n: number }>(
      `select count(*)::int as n from sessions s where s.project_id = $1
         and exists (select 1 from session_events e where e.project_id = s.project_id and e.user_id = s.user_id
                       and e.occurred_at between s.started_at and s.ended_at and e.received_at < $2)
         and exists (select 1 from session_events e where e.project_id = s.project_id and e.user_id = s.user_id
                       and e.occurred_at between s.started_at and s.ended_at and e.received_at >= $2)`,
      [projectId, cut],
    );
    assert.ok(mixed[0]!.n > 0);

    const { rows: since } = await db.query<{ events: number; users: number }>(
      `select count(*)::int as events, count(distinct user_id)::int as users from session_events
       where project_id = $1 and received_at >= $2`,
      [projectId, cut],
    );
    assert.equal(
      await count('select 1 from raw_events where project_id = $1 and received_at >= $2', [projectId, cut]),
      since[0]!.events,
    );

    const stderr = await runReplay('--from', cut.toISOString());
    // Every message sent after the cut is read again by both sinks, and nothing before it.
    assert.match(stderr, new RegExp(`replaying ${SINKS.length * secondPeriod} messages`));
    assert.match(stderr, new RegExp(`raw-sink: ${since[0]!.events} raw events taken out`));
    assert.match(stderr, new RegExp(`analytics: ${since[0]!.events} events of ${since[0]!.users} users taken out`));
    assert.match(stderr, /replayed \d+ messages in/);
    assert.deepEqual(await snapshot(projectId), live);
  });

  it('applies a changed setting to the sessions of events received since the cut only', async () => {
    const db = services().db;
    const keep = await sessionsOf(projectId, earlyUsers);
    const rebuilt = await sessionsOf(projectId, lateUsers);
    await db.query(
      `update projects set settings = jsonb_set(settings, '{analytics}', '{"session": {"gapMs": 20000}}')
       where project_id = $1`,
      [projectId],
    );
    await runReplay('--from', cut.toISOString(), '--only', 'analytics');
    assert.deepEqual(await sessionsOf(projectId, earlyUsers), keep);
    const short = await sessionsOf(projectId, lateUsers);
    assert.ok(short.length > rebuilt.length, `${short.length} sessions with a 20 s gap, ${rebuilt.length} before`);
    // A full replay splits those users' sessions the same way.
    await runReplay('--only', 'analytics');
    assert.deepEqual(await sessionsOf(projectId, lateUsers), short);
  });

  it('refuses a bad --from, and running processors, changing nothing', async () => {
    // The sink's offsets of pi.sessions.v1 move when the processors start: the sessionizer reads
    // its held events again and writes their chains again, which change no row.
    const offsets = await storedOffsets();
    const tables = await snapshot(projectId);
    assert.match(await replayFails(2, '--from', 'yesterday'), /--from: expected a date \(2026-11-01\) or an instant/);
    assert.match(await replayFails(2, '--from', '2026-11-01T00:00:00'), /got '2026-11-01T00:00:00'/);
    assert.match(await replayFails(2, '--from', '2999-01-01'), /--from: 2999-01-01T00:00:00.000Z is in the future/);
    const running = await startProcessors(services(), ['analytics']);
    try {
      assert.match(
        await replayFails(1, '--from', cut.toISOString()),
        /stop the running processors first: .*pi\.analytics/,
      );
    } finally {
      await Promise.all(running.map((r) => r.stop()));
    }
    assert.deepEqual(await storedOffsets(), offsets);
    assert.deepEqual(await snapshot(projectId), tables);
  });
});
