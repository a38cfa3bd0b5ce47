import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { type RunningApi, startApi } from '../../api/server.js';
import { loadConfig } from '../../lib/config.js';
import { type Kafka, createKafka } from '../../lib/kafka/client.js';
import { userKey } from '../../lib/kafka/topics.js';
import { toRecord } from '../../domain/tracked-event.js';
import { ApiError } from '../../api/errors.js';
import { Publisher } from '../../api/publisher.js';
import { createLogger } from '../../lib/log.js';
import type { Stoppable } from '../../lib/role.js';
import { startProcessors } from '../../processors/main.js';
import { FreezingProxy } from './freezing-proxy.js';
import { type Reply, call, closeServices, errorOf, isolateTopics, newProject, services, waitFor } from './helpers.js';

const DEADLINE_MS = 3000;

describe('ingest with a silent broker (a proxy between the API and Kafka falls silent)', function () {
  this.timeout(120_000);
  let proxy: FreezingProxy;
  let api: RunningApi;
  let sinks: Stoppable[];
  let key: string;
  let projectId: string;
  let kafka: Kafka;

  before(async () => {
    await isolateTopics();
    // The raw sink reads the broker directly: only the API's connections go through the proxy.
    sinks = await startProcessors(services(), ['raw-sink']);
    const config = { ...loadConfig(), port: 0, ingestDeadlineMs: DEADLINE_MS };
    const [host, port] = config.kafkaBrokers[0]!.split(':') as [string, string];
    proxy = await FreezingProxy.start({ host, port: Number(port) });
    kafka = createKafka(config, createLogger('silent'), 'frozen-broker-test', proxy.socketFactory());
    api = await startApi(config, { ...services(), kafka, log: createLogger('silent') });
    const project = await newProject(['events:write']);
    projectId = project.projectId;
    key = project.keys[0]!;
  });

  after(async () => {
    proxy?.thaw();
    await api?.close();
    await Promise.all(sinks?.map((s) => s.stop()) ?? []);
    await proxy?.close();
    await closeServices();
  });

  const event = (messageId: string) => ({ user_id: 'frozen-u', event: 'clicked', message_id: messageId });
  const storedCopies = async (ids: string[]) => {
    const { rows } = await services().db.query<{ message_id: string }>(
      'select message_id from raw_events where project_id = $1 and message_id = any($2)',
      [projectId, ids],
    );
    return rows.map((r) => r.message_id);
  };
  const timed = async (request: () => Promise<Reply>) => {
    const start = performance.now();
    const reply = await request();
    return { reply, ms: performance.now() - start };
  };

  it('answers 503 with Retry-After within the deadline, and the same events sent again are stored once', async () => {
    const single = crypto.randomUUID();
    const batch = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
    proxy.freeze();
    const [one, many] = await Promise.all([
      timed(() => call(api, 'POST', '/events', { key, json: event(single) })),
      timed(() => call(api, 'POST', '/events/batch', { key, json: { events: batch.map(event) } })),
    ]);
    for (const { reply, ms } of [one, many]) {
      assert.equal(reply.status, 503, JSON.stringify(reply.body));
      assert.equal(errorOf(reply).code, 'service_unavailable');
      assert.ok(Number(reply.headers.get('retry-after')) >= 1, 'Retry-After');
      assert.ok(ms >= DEADLINE_MS - 100 && ms < DEADLINE_MS + 2000, `answered after ${Math.round(ms)} ms`);
    }
    // The public health answers at once from the last probe (never probing for the caller), and
    // says degraded once a probe found Kafka silent.
    await waitFor('GET /health to say degraded', async () => {
      const { reply, ms } = await timed(() => call(api, 'GET', '/health'));
      assert.ok(ms < 500, `GET /health took ${Math.round(ms)} ms`);
      return reply.status === 503 && (reply.body as { status: string }).status === 'degraded';
    });
    proxy.thaw();
    // The client's retry, after Retry-After: the same message ids.
    const again = await call(api, 'POST', '/events', { key, json: event(single) });
    const batchAgain = await call(api, 'POST', '/events/batch', { key, json: { events: batch.map(event) } });
    assert.deepEqual([again.status, batchAgain.status], [202, 202]);
    const ids = [single, ...batch];
    const stored = await waitFor('the four events', async () => {
      const copies = await storedCopies(ids);
      return copies.length >= ids.length && copies;
    });
    assert.deepEqual(stored.sort(), ids.sort(), 'each event stored once');
  });

  it('loses nothing acknowledged and stores nothing twice under a paced load through a 6 s silence', async () => {
    const answers: { id: string; status: number; ms: number }[] = [];
    const inFlight: Promise<void>[] = [];
    const send = (id: string) =>
      timed(() => call(api, 'POST', '/events', { key, json: event(id) })).then(({ reply, ms }) => {
        answers.push({ id, status: reply.status, ms });
      });
    // 10 requests per second for 10 s; the broker falls silent from 2 s to 8 s.
    for (let i = 0; i < 100; i++) {
      if (i === 20) proxy.freeze();
      if (i === 80) proxy.thaw();
      inFlight.push(send(crypto.randomUUID()));
      await sleep(100);
    }
    await Promise.all(inFlight);
    const acknowledged = answers.filter((a) => a.status === 202);
    const refused = answers.filter((a) => a.status === 503);
    assert.equal(acknowledged.length + refused.length, 100, 'every request answered 202 or 503');
    assert.ok(refused.length > 0, 'the silence was noticed');
    assert.ok(Math.max(...answers.map((a) => a.ms)) < DEADLINE_MS + 2000, 'every answer within the deadline');
    // The clients retry what was refused, with the same message ids.
    for (const { id } of refused) {
      const reply = await call(api, 'POST', '/events', { key, json: event(id) });
      assert.equal(reply.status, 202);
    }
    const ids = answers.map((a) => a.id);
    const stored = await waitFor('every event of the load', async () => {
      const copies = await storedCopies(ids);
      return copies.length >= ids.length && copies;
    });
    assert.equal(new Set(stored).size, stored.length, 'no event stored twice');
    assert.deepEqual(new Set(stored), new Set(ids), 'no event lost');
    const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
    console.log(
      `      frozen broker: ${answers.length} requests, ${acknowledged.length} acknowledged, ${refused.length} answered 503 ` +
        `(then retried), ${ids.length - new Set(stored).size} lost, ${stored.length - new Set(stored).size} stored twice, ` +
        `p99 ${Math.round(ms[Math.ceil(ms.length * 0.99) - 1]!)} ms, max ${Math.round(ms.at(-1)!)} ms`,
    );
  });

  it('refuses at once, without queueing, beyond the sends already waiting on a silent broker', async () => {
    const publisher = await Publisher.start(kafka, services().registry, createLogger('silent'), ['events'], {
      deadlineMs: DEADLINE_MS,
      maxWaiting: 2,
    });
    const publish = async () => {
      const record = toRecord(projectId, event(crypto.randomUUID()), Date.now());
      const start = performance.now();
      const outcome = await publisher
        .publish('events', [{ key: userKey(projectId, record.user_id), value: record, timestamp: record.received_at }])
        .then(
          () => 'sent',
          (err: unknown) => (err instanceof ApiError ? err.status : err),
        );
      return { outcome, ms: performance.now() - start };
    };
    try {
      proxy.freeze();
      const waiting = [publish(), publish()];
      const third = await publish();
      assert.equal(third.outcome, 503);
      assert.ok(third.ms < 500, `refused after ${Math.round(third.ms)} ms`);
      for (const { outcome, ms } of await Promise.all(waiting)) {
        assert.equal(outcome, 503);
        assert.ok(ms >= DEADLINE_MS - 100, `the waiting ones wait for the deadline (${Math.round(ms)} ms)`);
      }
      proxy.thaw();
      // The late sends land once the broker answers; then a new one goes through.
      await waitFor('a send after the silence', async () => (await publish()).outcome === 'sent');
    } finally {
      proxy.thaw();
      await publisher.stop();
    }
  });
});
