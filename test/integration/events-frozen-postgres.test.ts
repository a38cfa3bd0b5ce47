import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type RunningApi, apiPoolLimits, startApi } from '../../api/server.js';
import { loadConfig } from '../../lib/config.js';
import { LEASE_MS, outlastLeases } from '../../lib/lease.js';
import { createLogger } from '../../lib/log.js';
import type { Stoppable } from '../../lib/role.js';
import { type Services, connectServices } from '../../lib/services.js';
import { startProcessors } from '../../processors/main.js';
import { FreezingProxy } from './freezing-proxy.js';
import { call, closeServices, errorOf, isolateTopics, newProject, services, waitFor } from './helpers.js';

const DEADLINE_MS = 5000;
const FROZEN_MS = 3500;

/** What one POST /events got, `sentAt` ms after Postgres fell silent. */
interface Answer {
  id: string;
  sentAt: number;
  status: number;
  ms: number;
  retryAfter: string | null;
  code?: string;
}

describe('ingest with a silent Postgres (a proxy between the API and Postgres falls silent)', function () {
  this.timeout(120_000);
  let proxy: FreezingProxy;
  let limited: Services;
  let api: RunningApi;
  let sinks: Stoppable[];
  let key: string;
  let projectId: string;
  /** Requests the API's rate limiter admitted (the answers carrying X-RateLimit-*). */
  let admitted = 0;

  before(async () => {
    await isolateTopics();
    // The raw sink reads and writes Postgres directly: only the API's connections go through the proxy.
    sinks = await startProcessors(services(), ['raw-sink']);
    const direct = loadConfig();
    const url = new URL(direct.databaseUrl);
    proxy = await FreezingProxy.start({ host: url.hostname, port: Number(url.port) });
    url.port = String(proxy.port);
    const config = {
      ...direct,
      port: 0,
      databaseUrl: url.toString(),
      ingestDeadlineMs: DEADLINE_MS,
      pgStatementTimeoutMs: 3000,
      pgAcquireTimeoutMs: 3000,
    };
    limited = connectServices(config, createLogger('silent'), 5, apiPoolLimits(config));
    limited.db.on('error', () => undefined);
    api = await startApi(config, { ...services(), db: limited.db, log: createLogger('silent') });
    const project = await newProject(['events:write']);
    projectId = project.projectId;
    key = project.keys[0]!;
  });

  after(async () => {
    proxy?.thaw();
    await api?.close();
    await Promise.all(sinks?.map((s) => s.stop()) ?? []);
    await limited?.close();
    await proxy?.close();
    await closeServices();
  });

  const post = async (id: string): Promise<Omit<Answer, 'sentAt'>> => {
    const start = performance.now();
    const reply = await call(api, 'POST', '/events', {
      key,
      json: { user_id: 'pg-frozen-u', event: 'clicked', message_id: id },
    });
    const ms = performance.now() - start;
    if (reply.headers.get('x-ratelimit-remaining') !== null) admitted++;
    return {
      id,
      status: reply.status,
      ms,
      retryAfter: reply.headers.get('retry-after'),
      ...(reply.status !== 202 && { code: errorOf(reply).code }),
    };
  };

  it('acknowledges at once within the lease, then answers 503 within a lease; nothing lost, every request counted', async () => {
    // The user's key made, the project's secret kept; then, a lease later, the key and the
    // erasure epoch read afresh just before Postgres falls silent.
    const warm = [crypto.randomUUID(), crypto.randomUUID()];
    assert.equal((await post(warm[0]!)).status, 202);
    await outlastLeases();
    assert.equal((await post(warm[1]!)).status, 202);

    proxy.freeze();
    const frozenAt = performance.now();
    const inFlight: Promise<Answer>[] = [];
    for (let sentAt = 0; sentAt < FROZEN_MS; sentAt = performance.now() - frozenAt) {
      inFlight.push(post(crypto.randomUUID()).then((a) => ({ ...a, sentAt })));
      await sleep(50);
    }
    proxy.thaw();
    const answers = await Promise.all(inFlight);

    for (const a of answers) {
      assert.ok(a.status === 202 || a.status === 503, `sent at ${Math.round(a.sentAt)} ms: ${a.status}`);
      // Never a wait for Postgres beyond a lease: the deadline is far.
      assert.ok(a.ms < LEASE_MS + 500, `sent at ${Math.round(a.sentAt)} ms, answered after ${Math.round(a.ms)} ms`);
    }
    const early = answers.filter((a) => a.sentAt < 400);
    assert.ok(early.length >= 4, `${early.length} requests in the first 400 ms`);
    for (const a of early) {
      assert.equal(a.status, 202, `sent at ${Math.round(a.sentAt)} ms, within the lease`);
      assert.ok(a.ms < 500, `acknowledged after ${Math.round(a.ms)} ms, sent at ${Math.round(a.sentAt)} ms`);
    }
    // Past the lease, and before a read started then could still answer after the thaw.
    const late = answers.filter((a) => a.sentAt >= 1.1 * LEASE_MS && a.sentAt < 2.4 * LEASE_MS);
    assert.ok(late.length >= 4, `${late.length} requests past the lease`);
    for (const a of late) {
      assert.deepEqual([a.status, a.code], [503, 'service_unavailable'], `sent at ${Math.round(a.sentAt)} ms`);
      assert.ok(Number(a.retryAfter) >= 1, 'Retry-After');
    }

    // Postgres answers again: the clients retry what was refused, with the same message ids.
    await waitFor('ingest after the silence', async () => (await post(crypto.randomUUID())).status === 202);
    const refused = answers.filter((a) => a.status !== 202);
    for (const { id } of refused) assert.equal((await post(id)).status, 202, `retry of ${id}`);
    const ids = [...warm, ...answers.map((a) => a.id)];
    const stored = await waitFor('every event of the load', async () => {
      const { rows } = await services().db.query<{ message_id: string }>(
        'select message_id from raw_events where project_id = $1 and message_id = any($2)',
        [projectId, ids],
      );
      return rows.length >= ids.length && rows.map((r) => r.message_id);
    });
    assert.equal(new Set(stored).size, stored.length, 'no event stored twice');
    assert.deepEqual(new Set(stored), new Set(ids), 'no event lost');
    // The requests admitted while Postgres was silent are counted once it answers.
    const counted = async () =>
      (
        await services().db.query<{ requests: number }>(
          'select coalesce(sum(requests), 0)::int as requests from rate_limit_windows where project_id = $1',
          [projectId],
        )
      ).rows[0]!.requests;
    await waitFor(
      `the project's count to hold the ${admitted} admitted requests`,
      async () => (await counted()) === admitted,
    );

    const acknowledged = answers.filter((a) => a.status === 202);
    const max = (list: Answer[]) => Math.round(Math.max(...list.map((a) => a.ms)));
    console.log(
      `      frozen postgres: ${answers.length} requests over ${FROZEN_MS} ms, ${acknowledged.length} acknowledged ` +
        `(max ${max(acknowledged)} ms), ${refused.length} answered 503 (max ${max(refused)} ms, then retried), ` +
        `${ids.length - new Set(stored).size} lost, ${stored.length - new Set(stored).size} stored twice`,
    );
  });
});
