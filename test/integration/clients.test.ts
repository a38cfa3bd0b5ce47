import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { newProject, startPipeline, stopPipeline, type TestPipeline } from './helpers.js';

/**
 * The Node, Python and Ruby clients (clients/) against this service: their own suites, run by
 * clients/run-tests.sh, each with a project of its own. They read stored events back through the
 * raw export (raw-sink) and the analytics answers (analytics). Ruby is installed from Debian if absent.
 */
describe('the Node, Python and Ruby clients (clients/run-tests.sh)', function () {
  this.timeout(600_000);
  let pipeline: TestPipeline | undefined;

  before(async () => {
    pipeline = await startPipeline(['raw-sink', 'analytics']);
  });
  after(() => stopPipeline(pipeline));

  for (const suite of ['node', 'python', 'ruby']) {
    it(`the ${suite} client passes its suite against the running API`, async () => {
      const { keys } = await newProject(['admin']);
      const child = spawn('clients/run-tests.sh', [suite], {
        env: { ...process.env, PI_BASE_URL: pipeline!.api.baseUrl, PI_API_KEY: keys[0] },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      const [code] = (await once(child, 'exit')) as [number | null];
      assert.equal(code, 0, `clients/run-tests.sh ${suite} failed: its output is above`);
    });
  }
});
