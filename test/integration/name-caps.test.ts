import assert from 'node:assert/strict';
import { FOLDED, NAME_CAPS } from '../../domain/name-caps.js';
import {
  call,
  count,
  newProject,
  postEvents,
  services,
  startPipeline,
  stopPipeline,
  type TestPipeline,
  waitForAnalytics,
} from './helpers.js';

/**
 * A flood of unique names (issue 46: anyone with a page's browser key can send one) stops at the
 * project's daily cap: beyond it, new names are folded into "(other)" and counted, while the names
 * the project used in the week before are kept.
 */
describe('caps on distinct names per project and day', function () {
  this.timeout(180_000);
  let pipeline: TestPipeline;

  before(async () => {
    pipeline = await startPipeline(['raw-sink', 'analytics']);
  });
  after(() => stopPipeline(pipeline));

  it('folds the features beyond the day’s cap, keeps the established ones, and says so', async () => {
    const { api } = pipeline;
    const { projectId, keys } = await newProject(['admin']);
    const key = keys[0]!;
    const today = Date.now() - 60_000;
    const impression = (feature: string, at: number, user = 'u-1') => ({
      user_id: user,
      event: 'feature_impression',
      properties: { feature, page: '/home' },
      timestamp: new Date(at).toISOString(),
    });
    // The project's own feature, used two days ago.
    await postEvents(api, key, [impression('export', today - 2 * 86_400_000)]);
    await waitForAnalytics(60_000);
    const flood = Array.from({ length: NAME_CAPS.feature + 5 }, (_, i) =>
      impression(`junk-${String(i).padStart(5, '0')}`, today, `u-${i % 50}`),
    );
    await postEvents(api, key, flood);
    await postEvents(api, key, [impression('export', today)]);
    await waitForAnalytics(120_000);

    const date = new Date(today).toISOString().slice(0, 10);
    const { rows } = await services().db.query<{ feature: string }>(
      'select distinct feature from feature_daily where project_id = $1 and day = $2',
      [projectId, date],
    );
    const features = rows.map((r) => r.feature);
    assert.equal(features.filter((f) => f.startsWith('junk-')).length, NAME_CAPS.feature);
    assert.ok(features.includes(FOLDED), 'the rest folded into one name');
    assert.ok(features.includes('export'), 'an established name is never folded');
    // The raw store keeps what was sent.
    assert.equal(
      await count("select 1 from raw_events where project_id = $1 and properties->>'feature' like 'junk-%'", [
        projectId,
      ]),
      NAME_CAPS.feature + 5,
    );
    const shown = await call<{ days: { date: string; feature: { new_names: number; folded_events: number } }[] }>(
      api,
      'GET',
      '/settings/name-caps',
      { key },
    );
    assert.equal(shown.status, 200);
    const day = shown.body.days.find((d) => d.date === date)!;
    assert.deepEqual(day.feature, { new_names: NAME_CAPS.feature, folded_events: 5 });
  });
});
