import { startSite } from '../browser/site.js';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { topicName } from '../../lib/kafka/topics.js';
import { buildTracker } from '../../scripts/build-tracker.js';
import { launchChromium } from '../browser/chromium.js';
import {
  call,
  errorOf,
  newProject,
  startPipeline,
  stopPipeline,
  type TestPipeline,
  waitFor,
  waitForAnalytics,
  waitForSink,
} from './helpers.js';

interface Exported {
  user_id: string;
  event: string;
  occurred_at: string;
  properties: Record<string, unknown>;
}

const appPage = (apiOrigin: string, key: string) => `<!doctype html>
<html><head><title>Tracker test</title>
<script src="${apiOrigin}/tracker.js" data-api-key="${key}"></script>
</head><body>
<main id="app">
  <button id="dead">Does nothing</button>
  <button id="rage" onclick="this.dataset.clicks = String(Number(this.dataset.clicks || 0) + 1)">Apply filters</button>
  <label>Password <input id="secret" type="password"></label>
  <section data-pi-feature="reports" style="height: 200px">
    <div data-pi-empty-state>No reports yet</div>
    <button id="new-report" onclick="this.insertAdjacentHTML('afterend', '<p>Draft</p>')">New report</button>
  </section>
  <div style="height: 4000px"></div>
  <section data-pi-feature="never_seen">Below the fold</section>
</main>
</body></html>`;

describe('browser tracker: a page on another origin, in real Chromium, through the real pipeline', () => {
  let pipeline: TestPipeline;
  let browser: Browser;
  let site: Awaited<ReturnType<typeof startSite>>;
  let foreign: Awaited<ReturnType<typeof startSite>>;
  let apiOrigin: string;
  let admin: string;
  let reader: string;
  let browserKey = '';
  const run = crypto.randomUUID().slice(0, 8);
  const secret = `hunter2-${run}-typed`;
  const userId = `user-${run}`;
  let exported: Exported[] = [];

  const today = () => new Date().toISOString().slice(0, 10);
  const exportAll = async () => {
    const res = await fetch(
      `${pipeline.api.baseUrl}/analytics/export/events?format=json&date_range=custom&start=${today()}&end=${today()}`,
      { headers: { Authorization: `Bearer ${reader}` } },
    );
    assert.equal(res.status, 200);
    return { text: await res.text() };
  };
  /** Every request the page makes to the API's /v1 (the tracker's own traffic). */
  const apiRequests = (page: Page) => {
    const seen: string[] = [];
    page.on('request', (r) => {
      if (r.url().startsWith(`${apiOrigin}/v1/`) && r.method() === 'POST') seen.push(new URL(r.url()).pathname);
    });
    return seen;
  };
  const openApp = async (context: BrowserContext, origin = site.origin) => {
    const page = await context.newPage();
    const requests = apiRequests(page);
    await page.goto(`${origin}/app`);
    await page.waitForFunction('typeof window.pi === "object" && typeof window.pi.flush === "function"');
    return { page, requests };
  };

  before(async () => {
    await buildTracker();
    pipeline = await startPipeline(['raw-sink', 'analytics']);
    apiOrigin = new URL(pipeline.api.baseUrl).origin;
    const project = await newProject(['admin'], ['analytics:read']);
    [admin, reader] = project.keys as [string, string];
    site = await startSite(() => appPage(apiOrigin, browserKey));
    foreign = await startSite(() => appPage(apiOrigin, browserKey));
    const created = await call<{ key: string; allowed_origins: string[] }>(pipeline.api, 'POST', '/api-keys', {
      key: admin,
      json: { name: 'web app', scopes: ['events:write'], allowed_origins: [`${site.origin}/`] },
    });
    assert.equal(created.status, 201);
    assert.deepEqual(created.body.allowed_origins, [site.origin], 'stored as browsers send it');
    browserKey = created.body.key;
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await site?.close();
    await foreign?.close();
    await stopPipeline(pipeline);
  });

  it('serves /tracker.js gzipped, cacheable and versioned', async () => {
    const res = await fetch(`${apiOrigin}/tracker.js`, { headers: { 'Accept-Encoding': 'gzip' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-encoding'), 'gzip');
    assert.match(res.headers.get('content-type')!, /^application\/javascript/);
    assert.equal(res.headers.get('cache-control'), 'public, max-age=300');
    const version = res.headers.get('x-tracker-version')!;
    assert.equal(res.headers.get('etag'), `"${version}"`);
    assert.match(await res.text(), /data-api-key/);
    // fetch() adds Cache-Control: no-cache to a conditional request unless told otherwise.
    const again = await fetch(`${apiOrigin}/tracker.js`, {
      headers: { 'If-None-Match': `"${version}"`, 'Cache-Control': 'max-age=0' },
    });
    assert.equal(again.status, 304);
    for (const path of [`/tracker.${version}.js`, `/tracker.js?v=${version}`]) {
      const pinned = await fetch(`${apiOrigin}${path}`);
      assert.equal(pinned.status, 200, path);
      assert.equal(pinned.headers.get('cache-control'), 'public, max-age=31536000, immutable', path);
    }
    assert.equal((await fetch(`${apiOrigin}/tracker.0000000000000000.js`)).status, 404);
  });

  it('lets a page read answers only when its key lists the page origin, and the refusal of the key always', async () => {
    const preflight = (origin: string) =>
      fetch(`${pipeline.api.baseUrl}/events/batch`, {
        method: 'OPTIONS',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization,content-type',
        },
      });
    const allowed = await preflight(site.origin);
    assert.equal(allowed.status, 204);
    assert.equal(allowed.headers.get('access-control-allow-origin'), site.origin);
    assert.match(allowed.headers.get('access-control-allow-headers')!, /Authorization/);
    // A preflight carries no key: any page origin passes it, and the request's key decides.
    const other = await preflight(foreign.origin);
    assert.equal(other.headers.get('access-control-allow-origin'), foreign.origin);
    assert.equal((await preflight('null')).headers.get('access-control-allow-origin'), null, 'not a page origin');

    const send = (origin: string) =>
      call(pipeline.api, 'POST', '/events', {
        key: browserKey,
        headers: { Origin: origin },
        json: { user_id: `cors-${run}`, event: 'cors_probe', message_id: `cors-${run}-${origin}` },
      });
    const ok = await send(site.origin);
    assert.equal(ok.status, 202);
    assert.equal(ok.headers.get('access-control-allow-origin'), site.origin);
    assert.match(ok.headers.get('access-control-expose-headers')!, /Retry-After/);
    const foreignReply = await send(foreign.origin);
    assert.equal(foreignReply.status, 403);
    // The refusal is readable by the page (so the tracker can say why), and it is all it reads.
    assert.equal(foreignReply.headers.get('access-control-allow-origin'), foreign.origin);
    assert.equal(foreignReply.headers.get('access-control-expose-headers'), null);
    assert.deepEqual((foreignReply.body as { error: { details: unknown } }).error.details, {
      origin: foreign.origin,
      reason: 'origin_not_allowed',
    });

    // Errors reach the page too, so the tracker can tell a bad event or a wrong key from a network failure.
    const invalid = await call(pipeline.api, 'POST', '/events', {
      key: browserKey,
      headers: { Origin: site.origin },
      json: { user_id: `cors-${run}`, event: '' },
    });
    assert.deepEqual([invalid.status, invalid.headers.get('access-control-allow-origin')], [400, site.origin]);
    const wrongKey = (origin: string) =>
      call(pipeline.api, 'POST', '/events', {
        key: `pi_0000000000000000_${'x'.repeat(43)}`,
        headers: { Origin: origin },
        json: { user_id: 'x', event: 'x' },
      });
    const unknown = await wrongKey(site.origin);
    assert.deepEqual([unknown.status, unknown.headers.get('access-control-allow-origin')], [401, site.origin]);
    const unknownForeign = await wrongKey(foreign.origin);
    assert.deepEqual(
      [unknownForeign.status, unknownForeign.headers.get('access-control-allow-origin')],
      [401, foreign.origin],
    );
    // Other answers to a key that does not list the origin stay unreadable: a 400 is refused as 403 first.
    const badFromForeign = await call(pipeline.api, 'POST', '/events', {
      key: browserKey,
      headers: { Origin: foreign.origin },
      json: { user_id: 'x', event: '' },
    });
    assert.deepEqual([badFromForeign.status, errorOf(badFromForeign).details.reason], [403, 'origin_not_allowed']);

    // A browser key writes and reads nothing back: identify answers without the user's properties.
    const identify = await call(pipeline.api, 'POST', '/users/identify', {
      key: browserKey,
      headers: { Origin: site.origin },
      json: { user_id: `cors-${run}`, properties: { plan: 'pro' } },
    });
    assert.equal(identify.status, 201);
    assert.deepEqual(identify.body, { user_id: `cors-${run}` });
    const read = await call(pipeline.api, 'GET', '/analytics/friction', { key: browserKey });
    assert.equal(read.status, 403);
    const badKey = await call(pipeline.api, 'POST', '/api-keys', {
      key: admin,
      json: { scopes: ['events:write', 'analytics:read'], allowed_origins: [site.origin] },
    });
    assert.equal(badKey.status, 400);
  });

  it('a page on a foreign origin cannot send with the key: it reads the refusal, nothing else', async () => {
    const context = await browser.newContext();
    try {
      const { page } = await openApp(context, foreign.origin);
      const outcome = await page.evaluate(`fetch(${JSON.stringify(`${pipeline.api.baseUrl}/events`)}, {
        method: 'POST',
        headers: { Authorization: 'Bearer ${browserKey}', 'Content-Type': 'application/json' },
        body: JSON.stringify({ user_id: 'x', event: 'foreign' }),
      }).then(async (r) => r.status + ' ' + (await r.json()).error.details.reason, (e) => e.name)`);
      assert.equal(outcome, '403 origin_not_allowed');
    } finally {
      await context.close();
    }
  });

  it('captures clicks, rage and dead clicks, impressions, uses and SPA page views — never what is typed', async () => {
    const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
    try {
      const { page, requests } = await openApp(context);
      // A dead click: nothing on the page reacts within 2.5 s; flush waits for that verdict.
      await page.click('#dead');
      await page.evaluate('window.pi.flush()');
      // A rage burst: four fast clicks on one spot of a button (each one changes the DOM).
      const box = (await page.locator('#rage').boundingBox())!;
      for (let i = 0; i < 4; i++) await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
      // A typed secret: the tracker reads no values and listens to no keys.
      await page.click('#secret');
      await page.keyboard.type(secret);
      await page.click('#new-report');
      // SPA navigation: the app renders another route (without the feature), then a hash route.
      await page.evaluate(`document.querySelector('[data-pi-feature=reports]').remove()`);
      await page.evaluate(`history.pushState({}, '', '/app/settings')`);
      await page.evaluate(`location.hash = '#/tab/2'`);
      await page.evaluate(`window.pi.track('signup_form', {
        plan: 'pro', contact: 'jane@example.com', card: '4111 1111 1111 1111'
      })`);
      await page.evaluate(`window.pi.identify(${JSON.stringify(userId)}, { plan: 'pro' })`);
      await page.evaluate(`window.pi.track('report_exported', { success: true })`);
      await page.evaluate('window.pi.flush()');
      assert.ok(requests.includes('/v1/users/identify'));
      assert.ok(
        requests.every((p) => p === '/v1/events/batch' || p === '/v1/users/identify'),
        requests.join(),
      );
    } finally {
      await context.close();
    }
    await waitForSink('raw-sink', topicName('events'));
    exported = (JSON.parse((await exportAll()).text) as Exported[]).filter((e) => e.event !== 'cors_probe');
    const anonymous = exported.find((e) => e.event === 'page_view')!.user_id;
    assert.match(anonymous, /^anon-[0-9a-f-]{36}$/);
    assert.deepEqual(
      exported.filter((e) => e.event === 'page_view').map((e) => e.properties.page),
      ['/app', '/app/settings', '/app/settings#/tab/2'],
    );
    const clicks = exported.filter((e) => e.event === 'click');
    const dead = clicks.find((c) => c.properties.element === '#dead')!;
    assert.equal(dead.properties.ui_response, false);
    assert.ok((dead.properties.ui_response_ms as number) >= 2500);
    assert.equal(dead.properties.element_type, 'button');
    const rage = clicks.filter((c) => c.properties.element === '#rage');
    assert.equal(rage.length, 4);
    assert.ok(rage.every((c) => c.properties.ui_response === true && typeof c.properties.x === 'number'));
    const secretClick = clicks.find((c) => c.properties.element === '#secret')!;
    assert.deepEqual([secretClick.properties.element_type, secretClick.properties.ui_response], ['input', true]);
    const use = exported.find((e) => e.event === 'feature_used')!;
    assert.deepEqual(use.properties, {
      page: '/app',
      feature: 'reports',
      element: '#new-report',
    });
    const impression = exported.find((e) => e.event === 'feature_impression')!;
    assert.deepEqual(impression.properties, { page: '/app', feature: 'reports', ui_context: { empty_state: true } });
    assert.equal(
      exported.filter((e) => e.event === 'feature_impression').length,
      1,
      'never_seen stayed below the fold',
    );
    const form = exported.find((e) => e.event === 'signup_form')!;
    assert.deepEqual(
      form.properties,
      { page: '/app/settings#/tab/2', plan: 'pro' },
      'the PII filter dropped two values',
    );
    const exportedGoal = exported.find((e) => e.event === 'report_exported')!;
    assert.equal(exportedGoal.user_id, userId, 'events after identify carry the user id');
    assert.ok(
      exported.filter((e) => e.event !== 'report_exported').every((e) => e.user_id === anonymous),
      'before identify: one anonymous id',
    );
  });

  it('keeps typed text, text content and PII out of everything exported', async () => {
    const { text } = await exportAll();
    for (const needle of [
      secret,
      'hunter2',
      'Does nothing',
      'Apply filters',
      'jane@example.com',
      '4111 1111 1111 1111',
    ]) {
      assert.ok(!text.includes(needle), `the export holds ${needle}`);
    }
  });

  it('shows the rage click, the dead click and the impression in the analytics', async () => {
    await waitForAnalytics();
    const friction = await call<{
      friction_points: { page: string; element: string; signals: { dead_clicks: number; rage_clicks: number } }[];
    }>(pipeline.api, 'GET', '/analytics/friction?date_range=last_7_days', { key: reader });
    assert.equal(friction.status, 200);
    const point = (element: string) =>
      friction.body.friction_points.find((p) => p.page === '/app' && p.element === element);
    assert.deepEqual(point('#rage')?.signals.rage_clicks, 1, 'one rage episode');
    assert.deepEqual(point('#rage')?.signals.dead_clicks, 0, 'the rage button answered every click');
    assert.deepEqual(point('#dead')?.signals.dead_clicks, 1);
    assert.deepEqual(point('#dead')?.signals.rage_clicks, 0);

    const features = await call<{
      features: { name: string; users_saw: number; users_used: number; context: { visible_in_empty_state: number } }[];
    }>(pipeline.api, 'GET', '/analytics/features?date_range=last_7_days', { key: reader });
    assert.equal(features.status, 200);
    const reports = features.body.features.find((f) => f.name === 'reports');
    assert.deepEqual(
      [reports?.users_saw, reports?.users_used, reports?.context.visible_in_empty_state],
      [1, 1, 1],
      JSON.stringify(features.body),
    );
    assert.equal(
      features.body.features.find((f) => f.name === 'never_seen'),
      undefined,
    );
  });

  it('honours Global Privacy Control until optIn(), and a persisted optOut()', async () => {
    const context = await browser.newContext();
    try {
      await context.addInitScript(
        'Object.defineProperty(Navigator.prototype, "globalPrivacyControl", { get: () => true })',
      );
      const { page, requests } = await openApp(context);
      await page.click('#rage');
      await page.evaluate(`window.pi.track('not_sent')`);
      await page.evaluate('window.pi.flush()');
      assert.deepEqual(requests, [], 'GPC: nothing leaves the page');
      assert.equal(await page.evaluate(`Object.keys(localStorage).filter((k) => k.startsWith('pi_anon')).length`), 0);
      await page.evaluate('window.pi.optIn()');
      await page.evaluate('window.pi.flush()');
      assert.deepEqual(requests, ['/v1/events/batch'], 'opted in: the page view is sent');
      await page.evaluate('window.pi.optOut()');
      await page.close();
      const again = await openApp(context);
      await again.page.click('#rage');
      await again.page.evaluate('window.pi.flush()');
      assert.deepEqual(again.requests, [], 'optOut() is remembered');
    } finally {
      await context.close();
    }
  });

  it('sends what is queued when the page is closed', async () => {
    // The tab closes, the browser (its network context) lives on, as when a user closes one tab.
    const context = await browser.newContext();
    const marker = `closing-${run}`;
    try {
      const { page } = await openApp(context);
      await page.evaluate(`window.pi.track(${JSON.stringify(marker)})`);
      // Closed before the 1 s batch timer: only the pagehide keepalive request can carry it.
      await page.close({ runBeforeUnload: true });
      await waitFor('the event sent on pagehide', async () => (await exportAll()).text.includes(marker), 30_000);
    } finally {
      await context.close();
    }
  });
});
