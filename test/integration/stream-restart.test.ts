import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { databaseName, loadConfig, withDatabase } from '../../lib/config.js';
import { LISTENER_APPLICATION } from '../../lib/notify.js';
import { type RunningSender, startWebhookSender } from '../../workers/webhooks/sender.js';
import { EmbeddedPostgres } from '../../scripts/local-stack/postgres.js';
import type { RunningApi } from '../../api/server.js';
import { startApi } from '../../api/server.js';
import { call, closeServices, isolateTopics, newProject, services, waitFor } from './helpers.js';
import { startReceiver, testPki } from './https-receiver.js';
import { type StreamClient, subscribedClient } from './stream-client.js';

/**
 * Postgres restarts under running listeners (the stream and the webhook sender): they reconnect
 * on their own and publish what was written while they were away.
 */
describe('listeners survive a Postgres restart', function () {
  this.timeout(120_000);
  const postgres = new EmbeddedPostgres(loadConfig().embeddedPostgresPort, () => undefined);
  let api: RunningApi;
  let sender: RunningSender;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let client: StreamClient;
  let projectId: string;

  before(async function () {
    // Only the embedded server of scripts/stack can be restarted from here.
    if (!postgres.running()) this.skip();
    await isolateTopics();
    api = await startApi(
      { ...loadConfig(), port: 0, webhookAllowHosts: ['localhost'], pollIntervalMs: 60_000 },
      services(),
    );
    const s = services();
    sender = await startWebhookSender({
      ...s,
      config: {
        ...s.config,
        webhookCaFile: testPki().caFile,
        webhookAllowHosts: ['localhost'],
        pollIntervalMs: 60_000,
      },
    });
    receiver = await startReceiver();
    // Deliveries earlier files left pending (a black-hole tenant's retries) would wake the sender's
    // timer for the next due retry, which claims every due delivery: here only the catch-up on
    // reconnection may deliver.
    await services().db.query(`update webhook_deliveries set status = 'failed' where status = 'pending'`);
    const project = await newProject(['admin']);
    projectId = project.projectId;
    const sub = await call(api, 'POST', '/webhooks', {
      key: project.keys[0],
      json: { url: receiver.url('/restart'), events: ['job.completed'] },
    });
    assert.equal(sub.status, 201);
    client = await subscribedClient(api.streamUrl, project.keys[0]!, ['job_completions']);
  });

  after(async () => {
    client?.ws.close();
    await sender?.stop();
    await receiver?.close();
    await api?.close();
    await closeServices();
  });

  it('catches up on a completion written while the listeners were cut off', async () => {
    const database = databaseName(process.env.DATABASE_URL!);
    // ALTER DATABASE from another database; the insert from a connection opened beforehand.
    const admin = new pg.Client({ connectionString: withDatabase(process.env.DATABASE_URL!, 'postgres') });
    const writer = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await writer.connect();
    try {
      // Listeners cannot come back until connections are allowed again.
      await admin.query(`alter database ${pg.escapeIdentifier(database)} allow_connections false`);
      const { rowCount } = await admin.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = $2',
        [database, LISTENER_APPLICATION],
      );
      assert.equal(rowCount, 2, 'the stream and the sender were listening');
      await writer.query(
        `insert into job_completions (project_id, job_id, user_id, completion_id, completed_at, message_id)
         values ($1, 'job_cut', 'u-cut', 'jc_cut', now(), 'm')`,
        [projectId],
      );
      // Stays a sleep: no marker shows a silence. The insert's NOTIFY wakes a live listener in ms.
      await sleep(1500);
      assert.equal(
        client.messages.filter((m) => m.channel).length,
        0,
        'nothing while cut off (polls are a minute away)',
      );
      assert.equal(receiver.received.length, 0);
    } finally {
      await admin.query(`alter database ${pg.escapeIdentifier(database)} allow_connections true`);
      await admin.end();
      await writer.end();
    }
    const message = await client.next((m) => m.channel === 'job_completions', 20_000);
    assert.equal((message.data as { job_id: string }).job_id, 'job_cut');
    await waitFor('the webhook', () => receiver.received.length === 1, 20_000);
    receiver.received.length = 0;
    client.messages.length = 0;
  });

  it('delivers, on the stream and by webhook, a completion written right after the restart', async () => {
    await postgres.stop();
    await postgres.start();
    // Written before the listeners are back (their reconnection backs off); the poll is a
    // minute away, so only the catch-up on reconnection can find it in time.
    await waitFor(
      'the database',
      () =>
        services()
          .db.query(
            `insert into job_completions (project_id, job_id, user_id, completion_id, completed_at, message_id)
             values ($1, 'job_restart', 'u-restart', 'jc_restart', now(), 'm')`,
            [projectId],
          )
          .then(
            () => true,
            () => false,
          ),
      30_000,
    );
    const message = await client.next((m) => m.channel === 'job_completions', 30_000);
    assert.equal((message.data as { job_id: string }).job_id, 'job_restart');
    await waitFor('the webhook', () => receiver.received.length === 1, 30_000);
    assert.equal((JSON.parse(receiver.received[0]!.body) as { data: { user_id: string } }).data.user_id, 'u-restart');
  });
});
