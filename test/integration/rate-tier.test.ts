import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { RunningApi } from '../../api/server.js';
import { call, closeServices, errorOf, newProject, services, startTestApi } from './helpers.js';

const run = promisify(execFile);

/** `npm run project:set -- …` as an operator runs it: a child process with the test's environment. */
async function projectSet(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'scripts/project-set.ts', ...args], {
      env: process.env,
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code?: number; stdout: string; stderr: string };
    if (typeof failed.code !== 'number') throw err;
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function tierRow(projectId: string): Promise<{ rate_tier: string; rate_limit_per_hour: number | null }> {
  const { rows } = await services().db.query<{ rate_tier: string; rate_limit_per_hour: number | null }>(
    'select rate_tier, rate_limit_per_hour from projects where project_id = $1',
    [projectId],
  );
  return rows[0]!;
}

interface RateLimitBody {
  tier: string;
  limit_per_hour: number;
  window: { start: string; reset: number; used: number; remaining: number };
}

describe('rate tiers set by operators (npm run project:set) and GET /settings/rate-limit', () => {
  let api: RunningApi;
  before(async () => {
    api = await startTestApi();
  });
  after(async () => {
    await api.close();
    await closeServices();
  });

  const nameOf = async (projectId: string) =>
    (await services().db.query<{ name: string }>('select name from projects where project_id = $1', [projectId]))
      .rows[0]!.name;

  it('sets pro, then enterprise with its own limit: the next request of the project is counted against it', async () => {
    const { projectId, keys } = await newProject(['admin']);
    const [admin] = keys as [string];
    const name = await nameOf(projectId);
    const before = await call(api, 'GET', '/jobs', { key: admin });
    assert.equal(before.headers.get('x-ratelimit-limit'), '1000');

    const pro = await projectSet(['--project', name, '--tier', 'pro']);
    assert.equal(pro.code, 0, pro.stderr);
    assert.equal(
      pro.stdout.trim(),
      `project ${name} (${projectId}): tier pro, 10000 requests per hour (was tier standard, 1000 requests per hour)`,
    );
    const afterPro = await call(api, 'GET', '/jobs', { key: admin });
    assert.equal(afterPro.headers.get('x-ratelimit-limit'), '10000');
    // The counter of the window carries on: the tier changes the limit, not what was used.
    const usedSoFar = 10000 - Number(afterPro.headers.get('x-ratelimit-remaining'));
    assert.ok(usedSoFar === 2 || usedSoFar === 1, `used ${usedSoFar} (1 only when the clock hour turned)`);

    const enterprise = await projectSet(['--project', name, '--tier', 'enterprise', '--limit', '3']);
    assert.equal(enterprise.code, 0, enterprise.stderr);
    assert.match(
      enterprise.stdout,
      /: tier enterprise, 3 requests per hour \(was tier pro, 10000 requests per hour\)\n$/,
    );
    assert.deepEqual(await tierRow(projectId), { rate_tier: 'enterprise', rate_limit_per_hour: 3 });
    // Two requests of this hour were counted before (none when the clock hour just turned): a 429
    // comes after one more success, or after three.
    const limits: (string | null)[] = [];
    let successes = 0;
    for (;;) {
      const reply = await call(api, 'GET', '/jobs', { key: admin });
      limits.push(reply.headers.get('x-ratelimit-limit'));
      if (reply.status === 429) break;
      assert.equal(reply.status, 200);
      assert.ok(++successes <= 3, 'more than 3 requests passed a limit of 3 per hour');
    }
    assert.ok(successes === 1 || successes === 3, `${successes} requests passed`);
    assert.deepEqual(new Set(limits), new Set(['3']));

    const standard = await projectSet(['--project', name, '--tier', 'standard']);
    assert.equal(standard.code, 0, standard.stderr);
    assert.deepEqual(await tierRow(projectId), { rate_tier: 'standard', rate_limit_per_hour: null });
    const back = await call(api, 'GET', '/jobs', { key: admin });
    assert.equal(back.status, 200);
    assert.equal(back.headers.get('x-ratelimit-limit'), '1000');
  });

  it('refuses bad arguments with exit 2 and one line, and changes nothing', async () => {
    const { projectId } = await newProject(['admin']);
    const name = await nameOf(projectId);
    const cases: [string[], RegExp][] = [
      [['--project', name, '--tier', 'enterprise'], /--limit .*required with --tier enterprise/],
      [['--project', name, '--tier', 'pro', '--limit', '5000'], /--limit applies to --tier enterprise only/],
      [['--project', name, '--tier', 'gold'], /--tier: expected standard, pro, enterprise; got "gold"/],
      [['--project', name, '--tier', 'enterprise', '--limit', '0'], /--limit: expected a whole number/],
      [['--project', name, '--tier', 'enterprise', '--limit', '2.5'], /--limit: expected a whole number/],
      [['--project', name], /--tier is required/],
      [['--tier', 'pro'], /--project <name> is required/],
      [['--project', name, '--tier', 'pro', '--owner', 'x'], /Unknown option '--owner'/],
    ];
    for (const [args, message] of cases) {
      const { code, stdout, stderr } = await projectSet(args);
      assert.equal(code, 2, `${args.join(' ')} → exit ${code}`);
      assert.equal(stdout, '');
      const lines = stderr.split('\n').filter(Boolean);
      assert.equal(lines.length, 1, `one line for ${args.join(' ')}: ${stderr}`);
      assert.match(lines[0]!, message);
    }
    assert.deepEqual(await tierRow(projectId), { rate_tier: 'standard', rate_limit_per_hour: null });

    const unknown = await projectSet(['--project', `no-such-${projectId}`, '--tier', 'pro']);
    assert.equal(unknown.code, 1);
    assert.match(unknown.stderr, /no project named "no-such-/);
  });

  it("GET /settings/rate-limit answers the tier, limit and this window's use, as the headers do", async () => {
    const { projectId, keys } = await newProject(['admin']);
    const [admin] = keys as [string];
    await projectSet(['--project', await nameOf(projectId), '--tier', 'enterprise', '--limit', '500']);
    const first = await call(api, 'GET', '/jobs', { key: admin });
    const reply = await call<RateLimitBody>(api, 'GET', '/settings/rate-limit', { key: admin });
    assert.equal(reply.status, 200);
    const { tier, limit_per_hour, window } = reply.body;
    assert.equal(tier, 'enterprise');
    assert.equal(limit_per_hour, 500);
    assert.equal(String(limit_per_hour), reply.headers.get('x-ratelimit-limit'));
    assert.equal(String(window.remaining), reply.headers.get('x-ratelimit-remaining'));
    assert.equal(String(window.reset), reply.headers.get('x-ratelimit-reset'));
    assert.equal(new Date(window.start).getTime(), (window.reset - 3600) * 1000);
    const sameHour = first.headers.get('x-ratelimit-reset') === reply.headers.get('x-ratelimit-reset');
    assert.equal(window.used, sameHour ? 2 : 1, 'the GET /jobs before and this request');
    assert.equal(window.remaining, 500 - window.used);
  });

  it("is read-only and an admin's alone: a project's own keys cannot raise the tier", async () => {
    const { projectId, keys } = await newProject(['admin'], ['analytics:read'], ['events:write']);
    const [admin, reader, writer] = keys as [string, string, string];
    for (const key of [reader, writer]) {
      const denied = await call(api, 'GET', '/settings/rate-limit', { key });
      assert.equal(denied.status, 403);
      assert.equal(errorOf(denied).code, 'forbidden');
    }
    const body = { tier: 'enterprise', limit_per_hour: 1_000_000 };
    for (const method of ['PUT', 'PATCH', 'POST']) {
      const refused = await call(api, method, '/settings/rate-limit', { key: admin, json: body });
      assert.equal(refused.status, 405, `${method} answered ${refused.status}`);
      assert.equal(errorOf(refused).code, 'method_not_allowed');
    }
    assert.deepEqual(await tierRow(projectId), { rate_tier: 'standard', rate_limit_per_hour: null });
    const after = await call<RateLimitBody>(api, 'GET', '/settings/rate-limit', { key: admin });
    assert.deepEqual([after.body.tier, after.body.limit_per_hour], ['standard', 1000]);
  });
});
