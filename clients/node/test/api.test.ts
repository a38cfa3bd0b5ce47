import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError } from '../dist/index.js';
import { RUN, client, storedRows, unique, waitFor } from './support.js';

describe('users and the typed read helpers', () => {
  const api = client();

  it('identify, updateUser and deleteUser; the deleted user leaves the export', async () => {
    const userId = unique('user');
    const created = await api.identify({ userId, properties: { plan: 'pro', seats: 3 } });
    assert.deepEqual([created.user_id, created.properties], [userId, { plan: 'pro', seats: 3 }]);
    const updated = await api.updateUser({ userId, properties: { seats: null, company: 'Acme' } });
    assert.deepEqual(updated.properties, { plan: 'pro', company: 'Acme' });
    assert.deepEqual((await api.getUser(userId)).properties, { plan: 'pro', company: 'Acme' });
    const event = unique('erased');
    const tracker = client({ flushInterval: 0 });
    const messageId = tracker.track({ userId, event });
    assert.equal(await tracker.flush(30_000), true);
    await tracker.shutdown();
    await waitFor('the event before erasure', async () => (await storedRows(api, event, [messageId])).length > 0);
    const deleted = await api.deleteUser({ userId });
    assert.deepEqual([deleted.user_id, deleted.deleted], [userId, true]);
    assert.ok(deleted.rows_deleted >= 1);
    await waitFor('the export without the user', async () => (await storedRows(api, event, [messageId])).length === 0);
    await assert.rejects(api.updateUser({ userId: unique('nobody'), properties: {} }), (err: unknown) => {
      assert.ok(err instanceof ApiError);
      assert.deepEqual([err.status, err.code], [404, 'not_found']);
      return true;
    });
  });

  it('analytics helpers answer after events: features, friction, event context', async () => {
    const feature = unique('feature');
    const tracker = client({ flushInterval: 0 });
    const userId = `${RUN}-reader`;
    const at = (s: number) => new Date(Date.now() - 3_600_000 + s * 1000);
    tracker.track({ userId, event: 'page_view', properties: { page: '/n' }, timestamp: at(0) });
    tracker.track({ userId, event: 'feature_impression', properties: { page: '/n', feature }, timestamp: at(1) });
    tracker.track({ userId, event: 'feature_used', properties: { page: '/n', feature }, timestamp: at(2) });
    tracker.track({
      userId,
      event: 'click',
      properties: { page: '/n', element: '#x', ui_response: false },
      timestamp: at(3),
    });
    assert.equal(await tracker.flush(30_000), true);
    await tracker.shutdown();
    const found = await waitFor('the feature in /analytics/features', async () =>
      (await api.features({ date_range: 'last_7_days', include_context: true })).features.find(
        (f) => f.name === feature,
      ),
    );
    assert.deepEqual([found.users_saw, found.users_used, found.engagement_conversion], [1, 1, 1]);
    const detail = await api.feature(feature, { date_range: 'last_7_days' });
    assert.equal(detail.name, feature);
    const friction = await api.friction({ page: '/n' });
    assert.ok(Array.isArray(friction.friction_points));
    const context = await api.eventContext('click');
    assert.ok(context.total_occurrences >= 1);
  });

  it('jobs: create, read, update, list, analytics, delete', async () => {
    const created = await api.createJob({ name: `${RUN} onboarding`, goal: unique('goal'), priority: 'high' });
    assert.equal(created.status, 'draft');
    const job = await api.updateJob(created.id, { status: 'active', priority: 'medium' });
    assert.deepEqual([job.status, job.priority], ['active', 'medium']);
    assert.equal((await api.getJob(created.id)).name, `${RUN} onboarding`);
    assert.ok((await api.listJobs({ status: 'active' })).jobs.some((j) => j.id === created.id));
    assert.equal((await api.jobAnalytics(created.id)).job_id, created.id);
    assert.deepEqual(await api.deleteJob(created.id), { id: created.id, deleted: true });
    await assert.rejects(api.createJob({} as never), (err: unknown) => err instanceof ApiError && err.status === 400);
  });

  it('custom cohorts and webhooks', async () => {
    const cohort = await api.createCohort({ name: `${RUN} active`, criteria: { days_active: { gte: 1 } } });
    assert.equal(cohort.type, 'custom');
    assert.ok((await api.listCohorts()).cohorts.some((c) => c.id === cohort.id));
    assert.equal((await api.cohortUsers(cohort.id)).cohort_id, cohort.id);
    const hook = await api.createWebhook({ url: 'https://hooks.example.com/node', events: ['job.completed'] });
    assert.match(hook.secret, /^whsec_/);
    assert.ok((await api.listWebhooks()).webhooks.some((w) => w.id === hook.id));
    assert.equal((await api.getWebhook(hook.id)).status, 'active');
    // Moved to a name that never resolves before the test delivery: nothing is sent anywhere.
    const moved = await api.updateWebhook(hook.id, { url: 'https://hooks.example.invalid/node', status: 'paused' });
    assert.deepEqual(
      [moved.url, moved.status, moved.events],
      ['https://hooks.example.invalid/node', 'paused', hook.events],
    );
    await assert.rejects(
      api.updateWebhook(hook.id, { url: 'http://hooks.example.invalid/node' }),
      (err: unknown) => err instanceof ApiError && err.status === 400,
    );
    const test = await api.testWebhook(hook.id);
    assert.deepEqual([test.webhook_id, test.event, test.status], [hook.id, 'test', 'pending']);
    const logged = await api.listDeliveries({ webhook_id: hook.id });
    assert.deepEqual(
      logged.deliveries.map((d) => [d.id, d.event]),
      [[test.delivery_id, 'test']],
    );
    assert.deepEqual(await api.deleteWebhook(hook.id), { id: hook.id, deleted: true });
  });
});
