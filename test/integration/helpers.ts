import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { type RunningApi, startApi } from '../../api/server.js';
import { type Scope, createKey, ensureProject } from '../../store/api-keys.js';
import { loadConfig } from '../../lib/config.js';
import type { Admin } from '../../lib/kafka/client.js';
import { createLogger } from '../../lib/log.js';
import { type Services, connectServices, prepare } from '../../lib/services.js';
import { type ProcessorName, startProcessors } from '../../processors/main.js';
import type { WriteContext } from '../../processors/runtime/postgres-sink.js';
import type { Stoppable } from '../../lib/role.js';
import { type WorkerName, startWorkers } from '../../workers/main.js';
import { analyticsLag, eventsEnd } from '../../processors/analytics-sink/progress.js';
import { holdOutput } from './child-output.js';
import { type SealedEventRecord, newUserKey, sealEvent } from '../../domain/sealed-user.js';
import { type TrackedEventRecord, UUID } from '../../domain/tracked-event.js';
import { groupId, userKey } from '../../lib/kafka/topics.js';
import { ensureUserKeys, userRefOf } from '../../store/user-keys.js';

let shared: Services | undefined;

/** One pool/Kafka/registry client set per test process (the stack is shared by every file). */
export function services(): Services {
  shared ??= connectServices(loadConfig(), createLogger(process.env.LOG_LEVEL ?? 'warn'), 5);
  return shared;
}

export async function closeServices(): Promise<void> {
  await shared?.close();
  shared = undefined;
}

export async function startTestApi(): Promise<RunningApi> {
  return startApi({ ...loadConfig(), port: 0 }, services());
}

let projectCounter = 0;

/** A fresh project (unique name) with one key per requested scope set. */
export async function newProject(...scopeSets: Scope[][]): Promise<{ projectId: string; keys: string[] }> {
  const db = services().db;
  const projectId = await ensureProject(db, `test-${process.pid}-${Date.now()}-${++projectCounter}`);
  const keys: string[] = [];
  for (const scopes of scopeSets) keys.push((await createKey(db, projectId, scopes)).key);
  return { projectId, keys };
}

export interface Reply<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export async function call<T = Record<string, unknown>>(
  api: RunningApi,
  method: string,
  path: string,
  options: { key?: string; json?: unknown; body?: string; headers?: Record<string, string> } = {},
): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.key) headers.Authorization = `Bearer ${options.key}`;
  let body = options.body;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    headers['Content-Type'] ??= 'application/json';
  }
  const res = await fetch(`${api.baseUrl}${path}`, { method, headers, body });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: (text ? JSON.parse(text) : undefined) as T };
}

/**
 * Posts `events` to /events/batch in requests of 1,000, each answered 202 (asserted), `pauseMs`
 * apart when given.
 */
export async function postEvents(api: RunningApi, key: string, events: unknown[], pauseMs = 0): Promise<void> {
  for (let i = 0; i < events.length; i += 1000) {
    const reply = await call(api, 'POST', '/events/batch', { key, json: { events: events.slice(i, i + 1000) } });
    assert.equal(reply.status, 202);
    if (pauseMs > 0) await sleep(pauseMs);
  }
}

/** Polls until `probe` returns a value that is not undefined/false; fails with `what` after the timeout. */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(50);
  }
}

export async function count(sql: string, params: unknown[] = []): Promise<number> {
  const { rows } = await services().db.query<{ n: number }>(`select count(*)::int as n from (${sql}) q`, params);
  return rows[0]!.n;
}

/** The spec's error body: {"error":{"code","message","details"}}. */
export function errorOf(reply: Reply): { code: string; message: string; details: Record<string, unknown> } {
  const body = reply.body as { error?: { code: string; message: string; details: Record<string, unknown> } };
  if (!body?.error) throw new Error(`expected an error body, got ${JSON.stringify(reply.body)}`);
  return body.error;
}

/** Runs `work` with a connected Kafka admin client of the test's services, disconnected after. */
export async function withAdmin<T>(work: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = services().kafka.admin();
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.disconnect();
  }
}

/** The members of each processor's consumer group, in the order given; 0 for a group that is rebalancing. */
export function stableMembers(processors: string[]): Promise<number[]> {
  return withAdmin(async (admin) => {
    const { groups } = await admin.describeGroups(processors.map((p) => groupId(p)));
    return groups.map((g) => (g.state === 'Stable' ? g.members.length : 0));
  });
}

/** Waits until `processor` has applied everything now in the topic (its stored offsets reach the high watermarks). */
export async function waitForSink(processor: string, topic: string, timeoutMs = 30_000): Promise<void> {
  const ends = await withAdmin((admin) => admin.fetchTopicOffsets(topic));
  await waitFor(
    `${processor} to reach the end of ${topic}`,
    async () => {
      const { rows } = await services().db.query<{ partition: number; next_offset: number }>(
        'select partition, next_offset from processor_offsets where processor = $1 and topic = $2',
        [processor, topic],
      );
      const stored = new Map(rows.map((r) => [r.partition, r.next_offset]));
      return ends.every((e) => Number(e.high) === 0 || (stored.get(e.partition) ?? 0) >= Number(e.high));
    },
    timeoutMs,
  );
}

/** Waits until the analytics chain (sessionize, then the analytics sink) has applied every event now in pi.events.v1. */
export async function waitForAnalytics(timeoutMs = 30_000): Promise<void> {
  await withAdmin(async (admin) => {
    const target = await eventsEnd(admin);
    await waitFor(
      'the analytics chain to reach the end of the events',
      async () => (await analyticsLag(admin, services().db, target)) === 0,
      timeoutMs,
    );
  });
}

let isolated = 0;

/**
 * Gives the calling test file topics (and so consumer offsets) of its own, so its processors
 * never wade through the events of the files before it. Call first in `before`; everything
 * started afterwards (API, processors, child processes) uses them.
 */
export async function isolateTopics(): Promise<void> {
  process.env.PI_TOPIC_NAMESPACE = `${process.env.PI_TEST_RUN}-${process.pid}-${++isolated}`;
  await prepare(services());
}

export interface TestPipeline {
  api: RunningApi;
  sinks: Stoppable[];
}

/** Topics of the file's own, an API and the named processors (and workers) in this process. */
export async function startPipeline(processors: ProcessorName[], workers: WorkerName[] = []): Promise<TestPipeline> {
  await isolateTopics();
  return {
    api: await startTestApi(),
    sinks: [...(await startProcessors(services(), processors)), ...(await startWorkers(services(), workers))],
  };
}

export async function stopPipeline(pipeline: TestPipeline | undefined): Promise<void> {
  await pipeline?.api.close();
  await Promise.all(pipeline?.sinks.map((s) => s.stop()) ?? []);
  await closeServices();
}

/**
 * processors/main.ts in a process of its own, as `npm start` runs it, with `--only` the named
 * processors: a kill of it is a real crash. Its log (errors only, unless `env` sets LOG_LEVEL) is
 * held back, and printed if the test fails or the process exits with an error of its own.
 */
export function startProcessorsProcess(only: string, env: NodeJS.ProcessEnv = {}): ChildProcess {
  return startRoleProcess('processors', only, env);
}

/** A role (processors/main.ts or workers/main.ts) with `--only` in a process of its own. */
export function startRoleProcess(
  role: 'processors' | 'workers',
  only: string,
  env: NodeJS.ProcessEnv = {},
): ChildProcess {
  const child = spawn(process.execPath, ['--import', 'tsx', `${role}/main.ts`, '--only', only], {
    env: { ...process.env, LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  holdOutput(child, `${role} --only ${only}, pid ${child.pid}`);
  return child;
}

/** Stops a child process that still runs, a frozen (SIGSTOP) one included, and waits for its exit. */
export async function stopProcess(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGCONT');
  child.kill('SIGTERM');
  await exited;
}

/** `scripts/replay.ts` with the given arguments, as a data engineer runs it; its stderr (progress). */
export async function runReplay(...args: string[]): Promise<string> {
  const { stderr } = await promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/replay.ts', ...args], {
    env: process.env,
    timeout: 300_000,
  });
  return stderr;
}

/**
 * The project's rows of each table in a canonical order, as JSON, without `project_id` and the
 * `omit` columns (computation times that differ between two equal runs).
 */
export async function tableRows(
  projectId: string,
  tables: readonly string[],
  omit: string[] = [],
): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const table of tables) {
    const { rows } = await services().db.query<{ row: unknown }>(
      `select to_jsonb(t) - 'project_id' - $2::text[] as row from ${table} t where project_id = $1 order by 1`,
      [projectId, omit],
    );
    out[table] = rows.map((r) => r.row);
  }
  return out;
}

/**
 * A pi.events.v1 message as the API writes it (keyed by the user's pseudonym, sealed with the
 * user's key, made if missing), for tests that write to the topic straight. A project id that is
 * no uuid gets a made-up pseudonym and key: processors must refuse it, not choke on it.
 */
export async function sealedEventMessage(
  record: TrackedEventRecord,
): Promise<{ key: string; value: SealedEventRecord }> {
  if (!UUID.test(record.project_id)) {
    const ref = '0'.repeat(32);
    return { key: userKey(record.project_id, ref), value: sealEvent(record, ref, newUserKey()) };
  }
  const ref = await userRefOf(services().db, record.project_id, record.user_id);
  const key = (await ensureUserKeys(services().db, record.project_id, [ref])).get(ref)!;
  return { key: userKey(record.project_id, ref), value: sealEvent(record, ref, key) };
}

/**
 * The contexts the sink runtime gives successive writes of one partition: each begins at the
 * offset the last one stored (whether or not the sink learnt that it committed).
 */
export function partitionWrites(partition = 0): (messages: number) => WriteContext {
  let stored = 0;
  return (messages) => ({ partition, from: stored, to: (stored += messages), isolated: false });
}
