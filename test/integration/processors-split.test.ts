import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import type { RunningApi } from '../../api/server.js';
import { analyticsSink } from '../../processors/analytics-sink/runner.js';
import { rawSink } from '../../processors/raw-sink/runner.js';
import { SESSIONIZE } from '../../processors/sessionize/runner.js';
import { defaultOptions } from '../../scripts/simulate.js';
import { simulate } from '../../scripts/simulate/generator.js';
import {
  closeServices,
  count,
  isolateTopics,
  newProject,
  postEvents,
  stableMembers,
  startProcessorsProcess,
  startTestApi,
  stopProcess,
  waitFor,
  waitForAnalytics,
} from './helpers.js';

/** Members per group (0 while it rebalances): the raw sink, sessionize, the analytics sink. */
const members = () => stableMembers([rawSink.name, SESSIONIZE, analyticsSink.name]);

describe('the processors as npm start runs them: raw sink and sessionize in one process, the analytics sink in another', () => {
  let api: RunningApi;
  const processes: (ChildProcess | undefined)[] = [];

  after(async () => {
    await Promise.all(processes.map(stopProcess));
    await api?.close();
    await closeServices();
  });

  it('runs only the steps each was given, and together they store every event and session', async () => {
    await isolateTopics();
    api = await startTestApi();
    const { projectId, keys } = await newProject(['events:write']);
    const { events, answers } = simulate(defaultOptions(19, 120, 2));

    await postEvents(api, keys[0]!, events);
    // The role says `started` once every step it runs has joined its group (kafkajs's run resolves
    // after the join): from then on its groups' members are all it will have.
    const analytics = startProcessorsProcess('analytics-sink', { LOG_LEVEL: 'info' });
    processes.push(analytics);
    let output = '';
    analytics.stdout!.on('data', (text: string) => (output += text));
    await waitFor(
      'the analytics-sink process to start',
      () => /"role":"processors","msg":"started"/.test(output),
      60_000,
    );
    await waitFor('the analytics sink alone in its group', async () => (await members())[2] === 1, 60_000);
    assert.deepEqual(await members(), [0, 0, 1], 'no raw-sink or sessionize member: that process runs the sink only');
    assert.equal(await count('select 1 from raw_events where project_id = $1', [projectId]), 0);
    assert.equal(await count('select 1 from session_events where project_id = $1', [projectId]), 0);

    processes.push(startProcessorsProcess('raw-sink,sessionize'));
    await waitForAnalytics(120_000);
    // One member each: the second process did not join the analytics sink's group.
    await waitFor('one member in each group', async () => (await members()).every((n) => n === 1), 30_000);
    // Each process names its Postgres sessions after its role and parts (lib/role.ts), for pg_stat_activity.
    for (const name of ['pi-processors analytics-sink', 'pi-processors raw-sink,sessionize']) {
      const sessions = await count(
        'select 1 from pg_stat_activity where datname = current_database() and application_name = $1',
        [name],
      );
      assert.ok(sessions > 0, `a Postgres session named ${name}`);
    }
    await waitFor(
      'the raw sink to store every event',
      async () => (await count('select 1 from raw_events where project_id = $1', [projectId])) === answers.events,
      60_000,
    );
    assert.equal(await count('select 1 from session_events where project_id = $1', [projectId]), answers.events);
    assert.equal(await count('select 1 from sessions where project_id = $1', [projectId]), answers.sessions);
  }).timeout(4 * 60_000);
});
