import { startSite } from '../browser/site.js';
/**
 * Sign-in in real Chromium through the real pipeline: a visitor sees a feature and meets a dead
 * button anonymously, signs in with pi.identify, then rage-clicks inside the feature. The tracker
 * links its anonymous id to the user, and the analytics count one person, not two.
 */
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildTracker } from '../../scripts/build-tracker.js';
import { launchChromium } from '../browser/chromium.js';
import {
  call,
  newProject,
  startPipeline,
  stopPipeline,
  type TestPipeline,
  waitFor,
  waitForAnalytics,
} from './helpers.js';

interface Sent {
  path: string;
  body: { user_id?: string; anonymous_id?: string; events?: { user_id: string; event: string }[] };
  status?: number;
}

const appPage = (apiOrigin: string, key: string) => `<!doctype html>
<html><head><title>Stitching</title>
<script src="${apiOrigin}/tracker.js" data-api-key="${key}"></script>
</head><body>
<main id="app">
  <button id="dead">Does nothing</button>
  <section data-pi-feature="reports" style="height: 200px">
    <button id="apply" onclick="this.dataset.clicks = String(Number(this.dataset.clicks || 0) + 1)">Apply</button>
  </section>
</main>
</body></html>`;

describe('browser tracker: sign-in links the anonymous visitor to the user, in real Chromium', () => {
  let pipeline: TestPipeline;
  let browser: Browser;
  let site: Awaited<ReturnType<typeof startSite>>;
  let apiOrigin: string;
  let reader: string;
  let browserKey = '';
  let context: BrowserContext;
  let page: Page;
  const sent: Sent[] = [];

  /** The tracker's POSTs to the API with their bodies, and the status each got. */
  const record = (p: Page) => {
    p.on('response', (res) => {
      const req = res.request();
      if (!req.url().startsWith(`${apiOrigin}/v1/`) || req.method() !== 'POST') return;
      sent.push({
        path: new URL(req.url()).pathname,
        body: JSON.parse(req.postData() ?? '{}') as Sent['body'],
        status: res.status(),
      });
    });
  };
  const accepted = (s: Sent) => s.status !== undefined && s.status >= 200 && s.status < 300;
  const identifies = () => sent.filter((s) => s.path === '/v1/users/identify');
  const eventsSent = () => sent.flatMap((s) => s.body.events ?? []);

  before(async () => {
    await buildTracker();
    pipeline = await startPipeline(['raw-sink', 'analytics']);
    apiOrigin = new URL(pipeline.api.baseUrl).origin;
    const project = await newProject(['admin'], ['analytics:read']);
    const admin = project.keys[0]!;
    reader = project.keys[1]!;
    site = await startSite(() => appPage(apiOrigin, browserKey));
    const created = await call<{ key: string }>(pipeline.api, 'POST', '/api-keys', {
      key: admin,
      json: { name: 'web app', scopes: ['events:write'], allowed_origins: [site.origin] },
    });
    assert.equal(created.status, 201);
    browserKey = created.body.key;
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
  });

  after(async () => {
    await context?.close();
    await browser?.close();
    await site?.close();
    await stopPipeline(pipeline);
  });

  it('sees a feature anonymously, signs in, rage-clicks: one person in the feature and friction analytics', async () => {
    page = await context.newPage();
    record(page);
    await page.goto(`${site.origin}/app`);
    await page.waitForFunction('typeof window.pi === "object" && typeof window.pi.flush === "function"');
    // Anonymous: the panel is seen (≥ 1 s in view) and a button does nothing (the 2.5 s verdict).
    await page.waitForTimeout(1500);
    await page.click('#dead');
    await page.evaluate('window.pi.flush()');
    await waitFor('the impression and the dead click as answered', () => eventsSent().length >= 3);
    const anonymous = eventsSent().find((e) => e.event === 'feature_impression')?.user_id;
    assert.match(anonymous ?? '', /^anon-[0-9a-f-]{36}$/, JSON.stringify(eventsSent()));

    await page.evaluate(`window.pi.identify('u_42', { plan: 'pro' })`);
    const box = (await page.locator('#apply').boundingBox())!;
    for (let i = 0; i < 4; i++) await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
    // Signed in again on a later page load: nothing more to link.
    await page.evaluate(`window.pi.identify('u_42')`);
    await page.evaluate('window.pi.flush()');
    await waitFor('both identify calls answered', () => identifies().length === 2);

    assert.deepEqual(
      identifies().map((s) => s.body),
      [{ user_id: 'u_42', anonymous_id: anonymous, properties: { plan: 'pro' } }, { user_id: 'u_42' }],
    );
    assert.ok(identifies().every(accepted), JSON.stringify(identifies()));
    const afterSignIn = eventsSent().filter((e) => e.event === 'click' || e.event === 'feature_used');
    assert.ok(afterSignIn.filter((e) => e.user_id === 'u_42').length >= 5, 'four clicks and the uses carry u_42');

    await waitForAnalytics(60_000);
    const features = await call<{
      features: { name: string; visibility_rate: number; users_saw: number; users_used: number }[];
    }>(pipeline.api, 'GET', '/analytics/features?date_range=last_7_days', { key: reader });
    assert.equal(features.status, 200);
    const reports = features.body.features.find((f) => f.name === 'reports');
    assert.deepEqual(
      [reports?.visibility_rate, reports?.users_saw, reports?.users_used],
      [1, 1, 1],
      `one person who saw and used the feature, not two at 0.5: ${JSON.stringify(features.body)}`,
    );
    const friction = await call<{
      friction_points: {
        page: string;
        element: string | null;
        users_affected: number;
        signals: { rage_clicks: number; dead_clicks: number };
      }[];
    }>(pipeline.api, 'GET', '/analytics/friction?date_range=last_7_days', { key: reader });
    assert.equal(friction.status, 200);
    const point = (element: string | null) =>
      friction.body.friction_points.find((p) => p.page === '/app' && p.element === element);
    assert.equal(point('#apply')?.signals.rage_clicks, 1, JSON.stringify(friction.body));
    assert.equal(point('#apply')?.users_affected, 1);
    assert.equal(point('#dead')?.signals.dead_clicks, 1);
    assert.equal(point(null)?.users_affected, 1, 'the dead click before sign-in and the rage after: one user');
  });

  it('reset() (log-out) starts a new anonymous id, and the next sign-in links that one', async () => {
    const sentBefore = sent.length;
    await page.evaluate('window.pi.reset()');
    await page.evaluate(`window.pi.track('browsing_again')`);
    await page.evaluate('window.pi.flush()');
    await waitFor('the event answered', () => eventsSent().some((e) => e.event === 'browsing_again'));
    const fresh = eventsSent().find((e) => e.event === 'browsing_again')?.user_id;
    assert.match(fresh ?? '', /^anon-[0-9a-f-]{36}$/);
    const first = eventsSent().find((e) => e.event === 'feature_impression')!.user_id;
    assert.notEqual(fresh, first, 'a new anonymous id after reset()');
    await page.evaluate(`window.pi.identify('u_43')`);
    await page.evaluate('window.pi.flush()');
    await waitFor('the identify answered', () => identifies().length === 3);
    const later = sent.slice(sentBefore).filter((s) => s.path === '/v1/users/identify');
    assert.deepEqual(
      later.map((s) => s.body),
      [{ user_id: 'u_43', anonymous_id: fresh }],
    );
    assert.ok(later.every(accepted), JSON.stringify(later));
    // The new anonymous id is stored, not the old one: the next page of the site carries it on as u_43.
    assert.deepEqual(await page.evaluate(`[localStorage.getItem('pi_user_id'), localStorage.getItem('pi_anon_id')]`), [
      'u_43',
      null,
    ]);
  });
});
