import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import type { RunningApi } from '../../api/server.js';
import { sessionizeLag } from '../../processors/analytics-sink/progress.js';
import { analyticsSink } from '../../processors/analytics-sink/runner.js';
import { SESSIONIZE } from '../../processors/sessionize/runner.js';
import { defaultOptions } from '../../scripts/simulate.js';
import { simulate } from '../../scripts/simulate/generator.js';
import {
  closeServices,
  count,
  isolateTopics,
  newProject,
  postEvents,
  runReplay,
  stableMembers,
  startProcessorsProcess,
  startTestApi,
  stopProcess,
  tableRows,
  waitFor,
  waitForAnalytics,
  withAdmin,
} from './helpers.js';

/** Members of each group of the analytics chain, or 0 for a group that is rebalancing. */
const chainMembers = () => stableMembers([SESSIONIZE, analyticsSink.name]);

describe('two processes share the analytics chain; one freezes past its session and wakes as a zombie', () => {
  let api: RunningApi;
  const processes: (ChildProcess | undefined)[] = [];

  after(async () => {
    await Promise.all(processes.map(stopProcess));
    await api?.close();
    await closeServices();
  });

  it('hands the frozen partitions over, fences the zombie, and ends with the tables of a replay', async () => {
    await isolateTopics();
    api = await startTestApi();
    const { projectId, keys } = await newProject(['events:write']);
    const { events, answers } = simulate(defaultOptions(5, 600, 3));
    const thirds = [0, 1, 2].map((t) => events.slice((t * events.length) / 3, ((t + 1) * events.length) / 3));
    // Paced: the processes are mid-batch, not idle, when one freezes.
    const post = (part: typeof events) => postEvents(api, keys[0]!, part, 100);
    const [frozen, survivor] = [startProcessorsProcess('analytics'), startProcessorsProcess('analytics')];
    processes.push(frozen, survivor);
    const bothIn = async () => (await chainMembers()).every((n) => n === 2);
    await waitFor('both processes in the sessionize and analytics groups', bothIn, 60_000);

    await post(thirds[0]!);
    // Frozen mid-load (a long GC pause, a suspended VM): it holds partitions of both groups and,
    // most likely, an open sessionize transaction and a sink transaction.
    frozen.kill('SIGSTOP');
    await post(thirds[1]!);
    // Its sink transaction holds locks on daily rows every partition writes: the survivor waits
    // on them until Postgres ends the frozen transaction (SINK_IDLE_IN_TRANSACTION_MS, 30 s).
    await waitFor(
      'the groups to drop the frozen process',
      async () => (await chainMembers()).every((n) => n === 1),
      120_000,
    );
    // The survivor sessionizes every partition, the frozen one's too: its producers fenced the
    // frozen transactions.
    await waitFor(
      'the survivor to sessionize every partition',
      async () => (await withAdmin(sessionizeLag)) === 0,
      90_000,
    );

    frozen.kill('SIGCONT');
    await post(thirds[2]!);
    // Its next commit is refused (an old producer epoch), its sink's session is gone: it must
    // rejoin both groups, not leave a consumer stopped in a running process.
    await waitFor('the woken process back in both groups', bothIn, 90_000);
    await waitForAnalytics(120_000);
    assert.equal(frozen.exitCode, null, 'the woken process recovered from being fenced instead of exiting');
    assert.equal(await count('select 1 from session_events where project_id = $1', [projectId]), answers.events);
    assert.equal(await count('select 1 from sessions where project_id = $1', [projectId]), answers.sessions);
    const live = await tableRows(projectId, analyticsSink.tables);
    await Promise.all(processes.map(stopProcess));

    assert.match(await runReplay('--only', 'analytics'), /replayed \d+ messages/);
    assert.deepEqual(await tableRows(projectId, analyticsSink.tables), live);
  }).timeout(6 * 60_000);
});
