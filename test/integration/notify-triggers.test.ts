import assert from 'node:assert/strict';
import pg from 'pg';
import { closeServices, newProject, services, waitFor } from './helpers.js';

/** The triggers announce each published row, and each queued delivery, with ids only. */
describe('NOTIFY triggers', () => {
  let listener: pg.Client;
  const heard: { channel: string; payload: Record<string, unknown> }[] = [];

  before(async () => {
    listener = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await listener.connect();
    listener.on('notification', (n) =>
      heard.push({ channel: n.channel, payload: JSON.parse(n.payload ?? '{}') as Record<string, unknown> }),
    );
    await listener.query('listen pi_stream');
    await listener.query('listen pi_webhooks');
  });

  after(async () => {
    await listener.end();
    await closeServices();
  });

  it('fires for alerts, completions, episodes and cohort changes, and for every outbox row', async () => {
    const { projectId } = await newProject();
    const db = services().db;
    await db.query(
      `insert into webhook_subscriptions (project_id, webhook_id, url, events, secret)
       values ($1, 'wh_all', 'https://hooks.example.com/in', '{job.completed,user.friction_detected,cohort.changed}', 'whsec_AAAA')`,
      [projectId],
    );
    await db.query(
      `insert into friction_alerts (project_id, alert_id, page, day, friction_index, users_affected)
       values ($1, 'fa_1', '/a', '2026-11-20', 0.5, 3)`,
      [projectId],
    );
    await db.query(
      `insert into job_completions (project_id, job_id, user_id, completion_id, completed_at, message_id)
       values ($1, 'job_1', 'u1', 'jc_1', now(), 'm1')`,
      [projectId],
    );
    await db.query(
      `insert into friction_episodes (project_id, episode_id, user_id, session_id, signal, page, element, friction_index, detected_at)
       values ($1, 'fe_1', 'u1', 's1', 'rage_click', '/a', '#b', 0.4, now())`,
      [projectId],
    );
    await db.query(
      `insert into cohort_changes (project_id, change_id, cohort_id, name, type, added, removed, size)
       values ($1, 'cc_1', 'coh_1', 'c', 'custom', '{u1}', '{}', 1)`,
      [projectId],
    );
    await waitFor('seven notifications', () => heard.length >= 7);
    const stream = heard.filter((h) => h.channel === 'pi_stream').map((h) => h.payload);
    assert.deepEqual(stream, [
      { table: 'friction_alerts', project_id: projectId, id: 'fa_1' },
      { table: 'job_completions', project_id: projectId, id: 'jc_1' },
      { table: 'friction_episodes', project_id: projectId, id: 'fe_1' },
      { table: 'cohort_changes', project_id: projectId, id: 'cc_1' },
    ]);
    const outbox = heard.filter((h) => h.channel === 'pi_webhooks').map((h) => h.payload);
    const { rows } = await db.query<{ delivery_id: string; event: string }>(
      'select delivery_id, event from webhook_deliveries where project_id = $1 order by created_at, event',
      [projectId],
    );
    assert.deepEqual(rows.map((r) => r.event).sort(), ['cohort.changed', 'job.completed', 'user.friction_detected']);
    assert.deepEqual(outbox.map((p) => p.id).sort(), rows.map((r) => r.delivery_id).sort());
    for (const p of outbox) assert.deepEqual(Object.keys(p).sort(), ['id', 'project_id']);
  });
});
