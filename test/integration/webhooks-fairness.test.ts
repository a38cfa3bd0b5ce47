import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { type RunningApi, startApi } from '../../api/server.js';
import { loadConfig } from '../../lib/config.js';
import { type RunningSender, REQUEST_TIMEOUT_MS, startWebhookSender } from '../../workers/webhooks/sender.js';
import { call, closeServices, isolateTopics, newProject, services, waitFor } from './helpers.js';
import { type Received, type Responder, startReceiver } from './https-receiver.js';
import { completeJob, senderServices } from './webhook-fixtures.js';

const PER_PROJECT = 2;
/** B's deliveries must arrive this soon after they are queued, whatever A's endpoint does. */
const BYSTANDER_BOUND_MS = 2000;

describe('webhook deliveries are fair between projects', function () {
  this.timeout(120_000);
  let api: RunningApi;
  const closing: { close(): Promise<void> }[] = [];
  const senders: RunningSender[] = [];

  before(async () => {
    await isolateTopics();
    api = await startApi({ ...loadConfig(), port: 0, webhookAllowHosts: ['localhost'] }, services());
  });

  // A test's projects leave nothing pending for the next test's senders.
  const projects: string[] = [];
  afterEach(async () => {
    await Promise.all(senders.splice(0).map((s) => s.stop()));
    await Promise.all(closing.splice(0).map((r) => r.close()));
    await services().db.query('delete from webhook_deliveries where project_id = any($1::uuid[])', [
      projects.splice(0),
    ]);
  });

  after(async () => {
    await api.close();
    await closeServices();
  });

  /** A project with a job.completed subscription to a receiver of its own. */
  async function tenant(respond: Responder) {
    const receiver = await startReceiver(respond);
    closing.push(receiver);
    const { projectId, keys } = await newProject(['admin']);
    projects.push(projectId);
    const reply = await call(api, 'POST', '/webhooks', {
      key: keys[0]!,
      json: { url: receiver.url('/hook'), events: ['job.completed'] },
    });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    return { projectId, receiver };
  }

  async function sender(config: Partial<ReturnType<typeof loadConfig>> = {}) {
    const s = await startWebhookSender(senderServices(undefined, config));
    senders.push(s);
    return s;
  }

  const userOf = (r: Received) => (JSON.parse(r.body) as { data: { user_id: string } }).data.user_id;

  it("keeps B's latency while A's black-hole endpoint piles up deliveries", async () => {
    // A's endpoint takes every request and never answers: each attempt costs the sender its timeout.
    const a = await tenant(() => ({ status: 200, delayMs: 600_000 }));
    const b = await tenant(() => ({ status: 204 }));
    for (let i = 0; i < 40; i++) await completeJob(a.projectId, `a-${i}`);
    await sender({ webhookProjectConcurrency: PER_PROJECT, webhookConcurrency: 8 });
    await waitFor('A to occupy its slots', () => a.receiver.received.length >= PER_PROJECT);

    let mostLeasedOfA = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await services().db.query<{ n: number }>(
          `select count(*)::int as n from webhook_deliveries
           where project_id = $1 and status = 'pending' and locked_until >= now()`,
          [a.projectId],
        );
        mostLeasedOfA = Math.max(mostLeasedOfA, rows[0]!.n);
        await sleep(100);
      }
    })();
    // B's load, each delivery queued once the previous one arrived, at least 12 and on until A's
    // first attempts timed out and its next ones took the slots: B is measured across A's timeouts.
    const queuedAt = new Map<string, number>();
    for (let i = 0; i < 12 || a.receiver.received.length <= PER_PROJECT; i++) {
      queuedAt.set(`b-${i}`, Date.now());
      await completeJob(b.projectId, `b-${i}`);
      await waitFor(`B's delivery b-${i}`, () => b.receiver.received.length > i, 3 * REQUEST_TIMEOUT_MS);
    }
    sampling = false;
    await sampler;

    const latencies = b.receiver.received.map((r) => r.at - queuedAt.get(userOf(r))!);
    assert.ok(Math.max(...latencies) <= BYSTANDER_BOUND_MS, `B's latencies ${latencies.join(', ')} ms`);
    assert.ok(mostLeasedOfA <= PER_PROJECT, `A held ${mostLeasedOfA} deliveries at once`);
    const { rows } = await services().db.query<{ pending: number }>(
      `select count(*)::int as pending from webhook_deliveries where project_id = $1 and status = 'pending'`,
      [a.projectId],
    );
    assert.ok(rows[0]!.pending >= 30, `A's deliveries pile up (${rows[0]!.pending} pending)`);
  });

  it("holds at most the sender's own number of deliveries in flight and still sends them all", async () => {
    const answerMs = 300;
    const c = await tenant(() => ({ status: 204, delayMs: answerMs }));
    for (let i = 0; i < 5; i++) await completeJob(c.projectId, `c-${i}`);
    await sender({ webhookConcurrency: 1 });
    await waitFor('5 deliveries', () => c.receiver.received.length === 5);
    const at = c.receiver.received.map((r) => r.at);
    // One at a time: each request arrives after the previous one was answered.
    for (let i = 1; i < at.length; i++) assert.ok(at[i]! - at[i - 1]! >= answerMs, `gaps ${at.join(', ')}`);
  });

  it('keeps a claim while its outcome waits to be recorded: the lease is renewed, nothing is sent twice', async () => {
    // The answer comes late enough for the test to lock the attempt's row first.
    const c = await tenant(() => ({ status: 204, delayMs: 1500 }));
    // The recording of the attempt waits on this lock for longer than the lease.
    const blocker = await services().db.connect();
    try {
      await sender({ webhookLeaseMs: 6000 });
      await sender({ webhookLeaseMs: 6000 });
      await blocker.query('begin');
      await completeJob(c.projectId, 'c-slow-record');
      await waitFor('the request', () => c.receiver.received.length === 1);
      const { rowCount } = await blocker.query('select 1 from webhook_attempts where project_id = $1 for update', [
        c.projectId,
      ]);
      assert.equal(rowCount, 1);
      /** The delivery's lease: until when, and whether it holds now (Postgres's clock). */
      const lease = async () => {
        const { rows } = await services().db.query<{ until: Date; held: boolean }>(
          'select locked_until as until, locked_until >= now() as held from webhook_deliveries where project_id = $1',
          [c.projectId],
        );
        return rows[0]!;
      };
      const claimed = await lease();
      // Past the end of the lease the claim took, the row is still leased: the lease was renewed.
      await waitFor('the claimed lease to end and a renewed one to hold', async () => {
        const now = await lease();
        return now.held && now.until > claimed.until;
      });
      await waitFor('the end of the lease the claim took', async () => {
        const { rows } = await services().db.query<{ past: boolean }>('select now() > $1 as past', [claimed.until]);
        return rows[0]!.past;
      });
      // A sender that looks now (beside the two that poll) finds nothing of C's to take over.
      const late = await sender({ webhookLeaseMs: 6000 });
      await late.drain();
      assert.equal(c.receiver.received.length, 1, 'no second sender took the delivery over');
      assert.ok((await lease()).held, 'still leased by the first sender');
      await blocker.query('commit');
    } finally {
      blocker.release();
    }
    const done = await waitFor('the success recorded', async () => {
      const { rows } = await services().db.query<{ status: string; attempts: number }>(
        'select status, attempts from webhook_deliveries where project_id = $1',
        [c.projectId],
      );
      return rows[0]?.status === 'succeeded' && rows[0];
    });
    assert.equal(done.attempts, 1);
    assert.equal(c.receiver.received.length, 1);
  });
});
