import { listen } from '../browser/site.js';
/**
 * The tracker's privacy switches in real Chromium: consent first, Do-Not-Track, path redaction.
 * The tracker is served by a stand-in for the API that records every request it gets (preflights
 * included), so "nothing was sent" is read from the receiving side, not from the page.
 */
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { bundleTracker } from '../../scripts/build-tracker.js';
import { launchChromium } from '../browser/chromium.js';
import { waitFor } from './helpers.js';

interface Received {
  method: string;
  path: string;
  body: string;
}

interface SentEvent {
  user_id: string;
  event: string;
  properties: { page?: string };
}

const TOKEN = 'Gx7kQ2mZ9pL4vR8sT1wY';
const TOKEN_PATH = `/app/reset/${TOKEN}/orders/12345`;

/** Every write the page makes to localStorage, sessionStorage or document.cookie, by key. */
const RECORD_WRITES = `
  window.__piWrites = [];
  const setItem = Storage.prototype.setItem;
  Storage.prototype.setItem = function (key, value) {
    window.__piWrites.push('storage:' + key);
    return setItem.call(this, key, value);
  };
  const cookie = Object.getOwnPropertyDescriptor(Document.prototype, 'cookie');
  Object.defineProperty(Document.prototype, 'cookie', {
    configurable: true,
    get() { return cookie.get.call(this); },
    set(value) { window.__piWrites.push('cookie:' + String(value).split('=')[0]); cookie.set.call(this, value); },
  });`;

describe('browser tracker privacy: consent first, Do-Not-Track and path redaction, in real Chromium', () => {
  let browser: Browser;
  let api: Awaited<ReturnType<typeof listen>>;
  let site: Awaited<ReturnType<typeof listen>>;
  let received: Received[] = [];
  /** The script tag's extra attributes and what runs before it, per test. */
  let tagAttributes = '';
  let beforeTag = '';

  const events = (): SentEvent[] =>
    received
      .filter((r) => r.method === 'POST' && r.path === '/v1/events/batch')
      .flatMap((r) => (JSON.parse(r.body) as { events: SentEvent[] }).events);

  const open = async (context: BrowserContext, path = '/app'): Promise<Page> => {
    const page = await context.newPage();
    await page.goto(site.origin + path);
    await page.waitForFunction('typeof window.pi === "object" && typeof window.pi.flush === "function"');
    return page;
  };
  /** Clicks, tracks, identifies and navigates: everything that would send and store something. */
  const use = async (page: Page) => {
    await page.click('#save');
    await page.evaluate(`window.pi.track('before_consent', { plan: 'pro' })`);
    await page.evaluate(`window.pi.identify('user-before-consent')`);
    await page.evaluate(`history.pushState({}, '', '/app/next')`);
    await page.evaluate('window.pi.flush()');
  };
  const stored = async (page: Page, context: BrowserContext) => ({
    writes: await page.evaluate<string[]>('window.__piWrites'),
    local: await page.evaluate<string[]>('Object.keys(localStorage)'),
    session: await page.evaluate<string[]>('Object.keys(sessionStorage)'),
    cookies: (await context.cookies()).map((c) => c.name),
  });
  const nothingStored = { writes: [], local: [], session: [], cookies: [] };

  before(async () => {
    const bundle = await bundleTracker();
    site = await listen((req, res) => {
      res.writeHead(req.url?.startsWith('/app') ? 200 : 404, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end(
        req.url?.startsWith('/app')
          ? `<!doctype html><html><head><title>Privacy</title>${beforeTag}
<script src="${api.origin}/tracker.js" data-api-key="pi_test" ${tagAttributes}></script>
</head><body><button id="save" onclick="this.textContent = 'Saved'">Save</button></body></html>`
          : '',
      );
    });
    api = await listen((req, res) => {
      if (req.url === '/tracker.js') {
        res.writeHead(200, { 'Content-Type': 'application/javascript' });
        res.end(bundle);
        return;
      }
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        received.push({ method: req.method!, path: req.url!, body });
        res.writeHead(req.method === 'OPTIONS' ? 204 : 202, {
          'Access-Control-Allow-Origin': site.origin,
          'Access-Control-Allow-Methods': 'POST',
          'Access-Control-Allow-Headers': 'Authorization, Content-Type',
          'Content-Type': 'application/json',
        });
        res.end(req.method === 'OPTIONS' ? '' : '{}');
      });
    });
    browser = await launchChromium();
  });

  beforeEach(() => {
    received = [];
    tagAttributes = '';
    beforeTag = '';
  });

  after(async () => {
    await browser?.close();
    await site?.close();
    await api?.close();
  });

  it('requireConsent: stores nothing and sends nothing before optIn(); what came before is dropped', async () => {
    tagAttributes = 'data-require-consent';
    const context = await browser.newContext();
    try {
      await context.addInitScript(RECORD_WRITES);
      const page = await open(context);
      await use(page);
      assert.deepEqual(
        received.map((r) => `${r.method} ${r.path}`),
        [],
        'no request, not even a preflight',
      );
      assert.deepEqual(await stored(page, context), nothingStored);

      await page.evaluate('window.pi.optIn()');
      await page.evaluate(`window.pi.track('after_consent')`);
      await page.evaluate('window.pi.flush()');
      const sent = events();
      assert.deepEqual(
        sent.map((e) => [e.event, e.properties.page]),
        [
          ['page_view', '/app/next'],
          ['after_consent', '/app/next'],
        ],
        'a page view on consent; the click, the event and the identify before it are gone',
      );
      assert.match(sent[0]!.user_id, /^anon-/);
      assert.ok(!received.some((r) => r.path === '/v1/users/identify'));
      assert.deepEqual((await stored(page, context)).local.sort(), ['pi_anon_id', 'pi_consent']);

      // The choice is remembered: the next page sends without asking again.
      const next = await open(context);
      await next.evaluate('window.pi.flush()');
      await waitFor('the next page view', () => events().length === 3);
      assert.deepEqual(events()[2]!.user_id, sent[0]!.user_id);
    } finally {
      await context.close();
    }
  });

  it('requireConsent: optOut() stores only the refusal, and nothing is ever sent', async () => {
    tagAttributes = 'data-require-consent="true"';
    const context = await browser.newContext();
    try {
      await context.addInitScript(RECORD_WRITES);
      const page = await open(context);
      await page.evaluate('window.pi.optOut()');
      await use(page);
      const next = await open(context);
      await use(next);
      assert.deepEqual(received, []);
      assert.deepEqual(await stored(next, context), { ...nothingStored, local: ['pi_consent'] });
      assert.equal(await next.evaluate(`localStorage.getItem('pi_consent')`), 'out');
    } finally {
      await context.close();
    }
  });

  for (const [where, init] of [
    ['navigator.doNotTrack', `Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' })`],
    ['window.doNotTrack', `window.doNotTrack = '1'`],
  ]) {
    it(`Do-Not-Track (${where}): nothing sent, nothing stored, until the visitor opts in`, async () => {
      const context = await browser.newContext();
      try {
        await context.addInitScript(RECORD_WRITES);
        await context.addInitScript(init!);
        const page = await open(context);
        await use(page);
        assert.deepEqual(received, []);
        assert.deepEqual(await stored(page, context), nothingStored);
        // An explicit choice of the visitor's wins over the browser's default signal.
        await page.evaluate('window.pi.optIn()');
        await page.evaluate('window.pi.flush()');
        assert.deepEqual(
          events().map((e) => e.event),
          ['page_view'],
        );
      } finally {
        await context.close();
      }
    });
  }

  it('Do-Not-Track is ignored with data-respect-dnt="false"', async () => {
    tagAttributes = 'data-respect-dnt="false"';
    const context = await browser.newContext();
    try {
      await context.addInitScript(`Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1' })`);
      const page = await open(context);
      await page.evaluate('window.pi.flush()');
      assert.deepEqual(
        events().map((e) => e.event),
        ['page_view'],
      );
    } finally {
      await context.close();
    }
  });

  const pagesSent = async (path: string): Promise<string[]> => {
    const context = await browser.newContext();
    try {
      const page = await open(context, path);
      await page.click('#save');
      await page.evaluate(`window.pi.track('custom')`);
      await page.evaluate('window.pi.flush()');
      return events().map((e) => e.properties.page!);
    } finally {
      await context.close();
    }
  };

  it('redacts ids and tokens out of the path by default: they never reach the service', async () => {
    const pages = await pagesSent(`${TOKEN_PATH}?secret=1`);
    assert.deepEqual(pages, ['/app/reset/:id/orders/:id', '/app/reset/:id/orders/:id', '/app/reset/:id/orders/:id']);
    for (const r of received) {
      assert.ok(!r.body.includes(TOKEN) && !r.body.includes('12345'), r.body);
    }
  });

  it("takes the site's own redaction (window.piRedactPath), or sends the full path with data-redact-paths=false", async () => {
    beforeTag = `<script>window.piRedactPath = (path) => path.split('/').slice(0, 3).join('/') + '/…';</script>`;
    assert.deepEqual(await pagesSent(TOKEN_PATH), ['/app/reset/…', '/app/reset/…', '/app/reset/…']);
    received = [];
    beforeTag = `<script>window.piRedactPath = () => { throw new Error('broken hook'); };</script>`;
    assert.deepEqual(
      (await pagesSent(TOKEN_PATH))[0],
      '/app/reset/:id/orders/:id',
      'a failing hook falls back to the built-in, never to the full path',
    );
    received = [];
    beforeTag = '';
    tagAttributes = 'data-redact-paths="false"';
    assert.deepEqual((await pagesSent(TOKEN_PATH))[0], TOKEN_PATH);
  });
});
