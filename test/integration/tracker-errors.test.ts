import { startSite } from '../browser/site.js';
/**
 * A tracker whose key is refused (origin not allowed, a server key in a page, a revoked key) or
 * whose project's quota is used up, in real Chromium against the real API: the console says why
 * and what to do, once, and `pi.flush()` rejects with that message instead of waiting forever.
 */
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { buildTracker } from '../../scripts/build-tracker.js';
import { launchChromium } from '../browser/chromium.js';
import { call, newProject, services, startPipeline, stopPipeline, type TestPipeline } from './helpers.js';

/** What flush() came to within a few seconds: today's tracker kept waiting ('pending'). */
const FLUSH_OUTCOME = `Promise.race([
  window.pi.flush().then(() => 'resolved', (e) => 'rejected: ' + (e instanceof Error ? e.message : String(e))),
  new Promise((resolve) => setTimeout(() => resolve('pending'), 8000)),
])`;

/** An item a page that could not send left in storage, as the tracker saves it. */
const LEFT_OVER = JSON.stringify([
  {
    path: '/events/batch',
    payload: { user_id: 'anon-left-over', event: 'left_over', properties: {}, message_id: crypto.randomUUID() },
  },
]);

describe('browser tracker: a refused key or a full quota is said once, and flush() rejects', () => {
  let pipeline: TestPipeline;
  let browser: Browser;
  let site: Awaited<ReturnType<typeof startSite>>;
  let other: Awaited<ReturnType<typeof startSite>>;
  let apiOrigin: string;
  let admin: string;
  let key = '';

  /** A browser key of the admin's project for these origins. */
  const browserKey = async (adminKey: string, origins: string[]) => {
    const created = await call<{ id: string; key: string }>(pipeline.api, 'POST', '/api-keys', {
      key: adminKey,
      json: { name: 'web app', scopes: ['events:write'], allowed_origins: origins },
    });
    assert.equal(created.status, 201);
    return created.body;
  };

  /** Opens the site's app in a fresh context with what an earlier page left unsent, recording the tracker's errors and requests. */
  const open = async (context: BrowserContext, origin: string) => {
    await context.addInitScript(
      `if (location.pathname === '/app') localStorage.setItem('pi_unsent_earlier', ${JSON.stringify(LEFT_OVER)})`,
    );
    const page = await context.newPage();
    const errors: string[] = [];
    const posts: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error' && m.text().startsWith('pi:')) errors.push(m.text());
    });
    page.on('request', (r) => {
      if (r.url().startsWith(`${apiOrigin}/v1/`) && r.method() === 'POST') posts.push(new URL(r.url()).pathname);
    });
    await page.goto(`${origin}/app`);
    await page.waitForFunction('typeof window.pi === "object" && typeof window.pi.flush === "function"');
    return { page, errors, posts };
  };

  /** The pi_unsent_ items the site's storage holds after the page was closed (read from a page without the tracker). */
  const leftInStorage = async (context: BrowserContext, page: Page, origin: string) => {
    await page.close({ runBeforeUnload: true });
    const blank = await context.newPage();
    await blank.goto(`${origin}/blank`);
    return blank.evaluate<string[]>(
      `Object.keys(localStorage).filter((k) => k.startsWith('pi_unsent_')).map((k) => localStorage.getItem(k))`,
    );
  };

  /**
   * The page view and a tracked event are refused: one console error naming the cause, flush()
   * rejecting with it (again on every later call, with no new request and no new message), and
   * nothing kept in storage, neither this page's events nor what an earlier page left.
   */
  const refusedForGood = async (origin: string, expected: RegExp) => {
    await context(async (ctx) => {
      const { page, errors, posts } = await open(ctx, origin);
      await page.evaluate(`window.pi.track('after_load')`);
      const first = await page.evaluate<string>(FLUSH_OUTCOME);
      assert.match(first, /^rejected: pi: /);
      assert.match(first, expected);
      assert.deepEqual(errors, [first.slice('rejected: '.length)], 'said once, in the words flush() rejects with');
      const sent = posts.length;
      assert.ok(sent >= 1);
      await page.evaluate(`window.pi.track('after_refusal'); window.pi.identify('u_after')`);
      assert.equal(await page.evaluate<string>(FLUSH_OUTCOME), first);
      assert.equal(posts.length, sent, 'nothing more is sent once the key is refused');
      assert.equal(errors.length, 1);
      assert.deepEqual(await leftInStorage(ctx, page, origin), [], 'nothing piles up in storage');
    });
  };

  const context = async (work: (ctx: BrowserContext) => Promise<void>) => {
    const ctx = await browser.newContext();
    try {
      await work(ctx);
    } finally {
      await ctx.close();
    }
  };

  before(async () => {
    await buildTracker();
    pipeline = await startPipeline([]);
    apiOrigin = new URL(pipeline.api.baseUrl).origin;
    [admin] = (await newProject(['admin'])).keys as [string];
    const page = () => `<!doctype html><html><head><title>Errors</title>
<script src="${apiOrigin}/tracker.js" data-api-key="${key}"></script>
</head><body><button id="save">Save</button></body></html>`;
    site = await startSite(page);
    other = await startSite(page);
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await site?.close();
    await other?.close();
    await stopPipeline(pipeline);
  });

  it('a browser key used on an origin it does not list: names the origin and says to add it', async () => {
    key = (await browserKey(admin, [site.origin])).key;
    const origin = other.origin.replace(/[.]/g, '[.]');
    await refusedForGood(other.origin, new RegExp(`does not allow the origin ${origin} \\(403\\)\\. Add it`));
  });

  it('a server key in a page: refused by the service, and the console says to use a browser key', async () => {
    [key] = (await newProject(['events:write'])).keys as [string];
    await refusedForGood(site.origin, /it is a server key \(no allowed_origins\).*Use a browser key for http:/);
    // The service refuses it from any page, and the page can read why; a server (no Origin) still sends.
    const fromPage = await call(pipeline.api, 'POST', '/events', {
      key,
      headers: { Origin: 'https://app.example.com' },
      json: { user_id: 'u1', event: 'from_page' },
    });
    assert.deepEqual(
      [fromPage.status, fromPage.headers.get('access-control-allow-origin')],
      [403, 'https://app.example.com'],
    );
    assert.deepEqual((fromPage.body as { error: { details: unknown } }).error.details, {
      origin: 'https://app.example.com',
      reason: 'server_key_in_page',
    });
    const fromServer = await call(pipeline.api, 'POST', '/events', {
      key,
      json: { user_id: 'u1', event: 'from_server' },
    });
    assert.equal(fromServer.status, 202);
  });

  it('a revoked key: says it is unknown or revoked and to put a live browser key in', async () => {
    const revoked = await browserKey(admin, [site.origin]);
    assert.equal((await call(pipeline.api, 'DELETE', `/api-keys/${revoked.id}`, { key: admin })).status, 200);
    key = revoked.key;
    await refusedForGood(
      site.origin,
      /unknown, revoked or malformed \(401: The API key is invalid or has been revoked\.\)\. Put a live browser key/,
    );
  });

  it('a full quota (429): says when it sends again, keeps the events, flush() rejects meanwhile', async () => {
    const { projectId, keys } = await newProject(['admin']);
    key = (await browserKey(keys[0]!, [site.origin])).key;
    // 3 an hour: the browser keys' share (1, and 1 for an address) leaves room for the page view only.
    await services().db.query(
      `update projects set rate_tier = 'enterprise', rate_limit_per_hour = 3 where project_id = $1`,
      [projectId],
    );
    await context(async (ctx) => {
      const { page, errors, posts } = await open(ctx, site.origin);
      assert.equal(await page.evaluate<string>(FLUSH_OUTCOME), 'resolved', 'the page view fits the quota');
      await page.evaluate(`window.pi.track('over_quota')`);
      const before = Date.now();
      const outcome = await page.evaluate<string>(FLUSH_OUTCOME);
      const match =
        /^rejected: (pi: this visitor's share of the browser key's hour is used up \(429: This client address sent the 1 requests per hour .*sends them again at (\S+) \(in (\d+) s\)\..*)$/.exec(
          outcome,
        );
      assert.ok(match, outcome);
      const [, message, at, seconds] = match as unknown as [string, string, string, string];
      assert.ok(Number(seconds) >= 1 && Number(seconds) <= 3600, seconds);
      assert.ok(Math.abs(Date.parse(at) - (before + Number(seconds) * 1000)) < 5000, at);
      assert.deepEqual(errors, [message]);
      const sent = posts.length;
      assert.equal(
        await page.evaluate<string>(FLUSH_OUTCOME),
        outcome,
        'rejects at once while the service asks to wait',
      );
      assert.equal(posts.length, sent);
      assert.equal(errors.length, 1, 'said once');
      const left = (await leftInStorage(ctx, page, site.origin)).join();
      assert.match(left, /over_quota/, 'the events wait for the quota, kept for the next page');
    });
  });
});
