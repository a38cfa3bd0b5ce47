/**
 * Integration tests run against the real stack: `scripts/stack` parts are started if they are
 * not running (and stopped again at the end only if this run started them). Each run gets a
 * database and a topic namespace of its own, named after the run, so two runs against one stack
 * (two checkouts, CI beside a developer) never see or drop each other's data.
 */
import type { ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { databaseName, loadConfig, withDatabase } from '../../lib/config.js';
import { createKafka } from '../../lib/kafka/client.js';
import { createLogger } from '../../lib/log.js';
import { connectServices, prepare } from '../../lib/services.js';
import { stackDown, stackStatus, stackUp } from '../../scripts/local-stack/stack.js';
import { dropHeldOutput, printHeldOutput } from './child-output.js';

let startedByTests: Awaited<ReturnType<typeof stackUp>> = [];
let baseUrl = '';
let testDb = '';

/** Runs that died without their teardown leave a database behind; older than this, it is dropped. */
const ABANDONED_AFTER_MS = 6 * 3_600_000;

const adminClient = async () => {
  const admin = new pg.Client({ connectionString: withDatabase(baseUrl, 'postgres') });
  await admin.connect();
  return admin;
};

export async function mochaGlobalSetup(): Promise<void> {
  // kafkajs logs retried broker answers (no leader yet, coordinator moving) at warn and error all
  // through a run; a real failure reaches the tests as an error of ours. Set it to see them.
  process.env.PI_KAFKA_LOG_LEVEL ??= 'nothing';
  const base = loadConfig();
  baseUrl = base.databaseUrl;
  startedByTests = await stackUp(base, (m) => console.error(`[stack] ${m}`));

  const run = `${Date.now().toString(36)}${process.pid.toString(36)}`;
  const prefix = `${databaseName(base.databaseUrl)}_test_`;
  testDb = `${prefix}${run}`;
  const admin = await adminClient();
  try {
    const { rows } = await admin.query<{ datname: string }>(
      `select datname from pg_database where starts_with(datname, $1)`,
      [prefix],
    );
    for (const { datname } of rows) {
      const born = parseInt(datname.slice(prefix.length, prefix.length + 8), 36);
      if (Date.now() - born > ABANDONED_AFTER_MS) {
        await admin.query(`drop database if exists ${pg.escapeIdentifier(datname)} with (force)`);
      }
    }
    await admin.query(`create database ${pg.escapeIdentifier(testDb)}`);
  } finally {
    await admin.end();
  }

  process.env.DATABASE_URL = withDatabase(base.databaseUrl, testDb);
  process.env.PI_TEST_RUN = `test-${run}`;
  process.env.PI_TOPIC_NAMESPACE = process.env.PI_TEST_RUN;
  process.env.LOG_LEVEL ??= 'warn';
  const config = loadConfig();
  const services = connectServices(config, createLogger('warn'), 2);
  await prepare(services);
  await services.close();
}

export async function mochaGlobalTeardown(): Promise<void> {
  let failure: Error | undefined;
  try {
    await removeTestData();
  } catch (err) {
    failure = err instanceof Error ? err : new Error(String(err));
  }
  // Also after a failed clean-up: what stays open is reported, not hung on.
  const leaks = await leftOpen();
  if (failure && leaks) console.error(leaks);
  if (failure) throw failure;
  if (leaks) throw new Error(leaks);
}

async function removeTestData(): Promise<void> {
  const config = loadConfig();
  const admin = createKafka(config, createLogger('error')).admin();
  await admin.connect();
  const ours = (await admin.listTopics()).filter((t) => t.startsWith(process.env.PI_TEST_RUN!));
  if (ours.length > 0) await admin.deleteTopics({ topics: ours });
  await admin.disconnect();
  if (!testDb.includes('_test_')) throw new Error(`refusing to drop ${testDb}: not a test database`);
  const pgAdmin = await adminClient();
  try {
    await pgAdmin.query(`drop database if exists ${pg.escapeIdentifier(testDb)} with (force)`);
  } finally {
    await pgAdmin.end();
  }
  await stackDown(config, (m) => console.error(`[stack] ${m}`), startedByTests);
  // Never leave behind a process this run started.
  const left = (await stackStatus(config)).filter((s) => startedByTests.includes(s.name) && s.state !== 'down');
  if (left.length > 0) throw new Error(`still running after the tests: ${left.map((s) => s.name).join(', ')}`);
}

/** The children's output of a test that failed is the test's; of one that passed, noise. */
export const mochaHooks = {
  afterEach(this: Mocha.Context) {
    if (this.currentTest?.state === 'failed') printHeldOutput(`"${this.currentTest.fullTitle()}" failed`);
    else dropHeldOutput();
  },
};

/** How long closed sockets, servers and children get to finish closing before it counts as a leak. */
const CLOSING_GRACE_MS = 5_000;

/**
 * Everything the tests opened must be closed by now (graphile-worker fails a test that leaves a
 * pool or worker behind). What stays open is described, then let go (children killed, handles
 * unref'd), so that mocha ends with the report instead of hanging on it.
 */
async function leftOpen(): Promise<string | undefined> {
  const deadline = Date.now() + CLOSING_GRACE_MS;
  let open = openHandles();
  while (open.length > 0 && Date.now() < deadline) {
    await sleep(100);
    open = openHandles();
  }
  if (open.length === 0) return undefined;
  // A ref'd timer cannot be let go from here: should one keep the process alive, end it.
  setTimeout(() => process.exit(1), 2_000).unref();
  for (const { handle } of open) {
    if (isChild(handle)) handle.kill('SIGKILL');
    (handle as { unref?: () => void } | undefined)?.unref?.();
  }
  return `left open after the tests:\n  ${open.map((o) => o.what).join('\n  ')}`;
}

const isChild = (handle: unknown): handle is ChildProcess =>
  typeof (handle as ChildProcess | undefined)?.kill === 'function' && 'spawnargs' in (handle as object);

/** Handles and timers keeping the process alive, stdio aside. */
function openHandles(): { handle?: unknown; what: string }[] {
  const handles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles();
  const open: { handle?: unknown; what: string }[] = handles
    .filter((h) => !isStdio(h))
    .map((handle) => ({ handle, what: describeHandle(handle) }));
  // Timers are not among the handles; only their number is known.
  const timers = process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
  if (timers > 0) open.push({ what: `${timers} timer(s) (setTimeout/setInterval not cleared or unref'd)` });
  return open;
}

function isStdio(handle: unknown): boolean {
  const fd = (handle as { fd?: number; _handle?: { fd?: number } })._handle?.fd ?? (handle as { fd?: number }).fd;
  return handle === process.stdout || handle === process.stderr || (fd !== undefined && fd >= 0 && fd <= 2);
}

function describeHandle(handle: unknown): string {
  const h = handle as Record<string, unknown> & { constructor: { name: string } };
  if (isChild(handle)) return `child process ${handle.pid}: ${handle.spawnargs.join(' ')}`;
  if (typeof h.address === 'function' && typeof h.listen === 'function') {
    return `server listening on ${JSON.stringify((h.address as () => unknown).call(h))}`;
  }
  if ('remotePort' in h || 'localPort' in h) {
    return `${h.constructor.name} ${String(h.localAddress)}:${String(h.localPort)} → ${String(h.remoteAddress)}:${String(h.remotePort)}`;
  }
  return h.constructor.name;
}
