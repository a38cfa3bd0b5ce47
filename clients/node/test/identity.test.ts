import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, type Schemas } from '../dist/index.js';
import { client, unique, waitFor } from './support.js';

/** The 409 of an identify that the stitching rules refuse, with its reason. */
const refusedBecause = (reason: string) => (err: unknown) => {
  assert.ok(err instanceof ApiError, String(err));
  assert.deepEqual([err.status, err.code, err.details], [409, 'conflict', { field: 'anonymous_id', reason }]);
  return true;
};

describe('identity stitching: a sign-up funnel', () => {
  const api = client();

  it('anonymous events, then identify with the anonymous id: one person; the id links to no second user', async () => {
    const anonymousId = unique('anon');
    const userId = unique('signed-up');
    const feature = unique('feature');
    const tracker = client({ flushInterval: 0 });
    const at = (s: number) => new Date(Date.now() - 3_600_000 + s * 1000);
    // Before sign-up the person is known by the anonymous id only: seen and used, data_volume 10.
    tracker.track({ userId: anonymousId, event: 'page_view', properties: { page: '/signup' }, timestamp: at(0) });
    tracker.track({
      userId: anonymousId,
      event: 'feature_impression',
      properties: { page: '/signup', feature },
      timestamp: at(1),
    });
    tracker.track({
      userId: anonymousId,
      event: 'feature_used',
      properties: { page: '/signup', feature, ui_context: { data_volume: 10 } },
      timestamp: at(2),
    });
    assert.equal(await tracker.flush(30_000), true);

    const user = await api.identify({ userId, properties: { plan: 'trial' }, anonymousId });
    assert.equal(user.user_id, userId);
    // After sign-up, under the user id: used again, data_volume 30.
    tracker.track({
      userId,
      event: 'feature_used',
      properties: { page: '/welcome', feature, ui_context: { data_volume: 30 } },
      timestamp: at(3),
    });
    assert.equal(await tracker.flush(30_000), true);
    await tracker.shutdown();

    // The mean data volume is 20 only once both uses are counted; two people would be users_used 2.
    let last: Schemas['FeatureList']['features'][number] | undefined;
    const item = await waitFor(
      'both uses of the feature counted as one person',
      async () => {
        last = (await api.features({ date_range: 'last_7_days', include_context: true })).features.find(
          (f) => f.name === feature,
        );
        return last?.context?.avg_data_volume_when_used === 20 && last.users_saw === 1 && last.users_used === 1 && last;
      },
      90_000,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; the feature last read: ${JSON.stringify(last)}`);
    });
    assert.equal(item.engagement_conversion, 1);
    assert.equal((await api.getUser(userId)).user_id, userId);

    // The same link again is harmless; a second user, or a signed-up user's id as anonymous id, is refused.
    assert.equal((await api.identify({ userId, anonymousId })).user_id, userId);
    await assert.rejects(
      api.identify({ userId: unique('other'), anonymousId }),
      refusedBecause('linked_to_another_user'),
    );
    await assert.rejects(
      api.identify({ userId: unique('other'), anonymousId: userId }),
      refusedBecause('identified_user'),
    );
  });
});
