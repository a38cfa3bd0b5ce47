/**
 * A new project's first hour, as `npm start -- --simulate` gives it: the workers already passed
 * over the project while it was empty, then the demo traffic arrives (scripts/simulate.ts,
 * sendDemo). Every analytics page of the console, in Debian's Chromium, shows data rather than
 * its empty state within seconds of the traffic's processing, and the behavioural cohorts within
 * two minutes of it. Pages are photographed into .screenshots/first-hour/ (git-ignored).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { consoleOwnerLink } from '../../api/console/accounts.js';
import { ensureConsoleBuild } from '../../scripts/console-build.js';
import { sendDemo } from '../../scripts/simulate.js';
import { launchChromium } from '../browser/chromium.js';
import {
  count,
  newProject,
  services,
  startPipeline,
  stopPipeline,
  type TestPipeline,
  waitFor,
  waitForAnalytics,
} from './helpers.js';

const SHOTS = path.join('.screenshots', 'first-hour');

/** Each analytics page but Cohorts, and what on it is data (its empty state is a `section.empty`). */
const PAGES: { name: string; url: string; data: string; text?: RegExp }[] = [
  { name: 'features', url: '/console/features', data: 'table tbody th' },
  { name: 'friction', url: '/console/friction', data: 'ol.cards li.point' },
  { name: 'friction trends', url: '/console/friction', data: 'ul.trends li.trend' },
  { name: 'workflows', url: '/console/workflows', data: 'svg.paths-diagram path.paths-link' },
  { name: 'jobs', url: '/console/jobs', data: 'ul.jobs li.card', text: /Completed\s*[1-9]/ },
  { name: 'event context', url: '/console/context?event=feature_used&date_range=last_7_days', data: 'canvas' },
];

// Run inside the page as a string: the root tsconfig has no DOM types.
const NOTHING_LOADING = "!document.querySelector('.loading')";

describe("a new project's first hour (npm start -- --simulate)", function () {
  this.timeout(300_000);
  let pipeline: TestPipeline;
  let browser: Browser | undefined;
  let page: Page;
  let projectId: string;
  let key: string;
  let origin: string;
  let processedAt: number;
  const pageErrors: string[] = [];

  before(async () => {
    await ensureConsoleBuild();
    fs.mkdirSync(SHOTS, { recursive: true });
    pipeline = await startPipeline(
      ['raw-sink', 'analytics'],
      ['jobs', 'workflows', 'behavioural-cohorts', 'cohort-membership'],
    );
    origin = new URL(pipeline.api.baseUrl).origin;
    const project = await newProject(['admin']);
    projectId = project.projectId;
    key = project.keys[0]!;
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    const { link } = await consoleOwnerLink(services().db, projectId, pipeline.api.baseUrl);
    await page.goto(link);
    await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
    // The workers' first pass finds the project empty, as at `npm start` before its traffic.
    await waitFor(
      'the behavioural cohorts worker to pass over the empty project',
      async () => (await count('select 1 from behavioural_cohort_runs where project_id = $1', [projectId])) === 1,
    );
  });
  after(async () => {
    await browser?.close();
    await stopPipeline(pipeline);
  });

  /** Loads `url` until `selector` shows (reloading every 2 s), up to `withinMs` after the traffic was processed. */
  async function shows(name: string, url: string, selector: string, withinMs: number, text?: RegExp): Promise<void> {
    for (;;) {
      await load(url);
      const seconds = (Date.now() - processedAt) / 1000;
      const data = page.locator(`main ${selector}`);
      if ((await (text ? data.filter({ hasText: text }) : data).count()) > 0) {
        await page.screenshot({ path: path.join(SHOTS, `${name.replace(/ /g, '-')}.png`), fullPage: true });
        return;
      }
      const empty = await page.locator('main section.empty h2').allTextContents();
      assert.ok(seconds * 1000 < withinMs, `${name}: no data after ${seconds.toFixed(0)} s (${empty.join('; ')})`);
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }

  async function load(url: string): Promise<void> {
    await page.goto(`${origin}${url}`);
    await page.locator('main h1').first().waitFor();
    await waitFor('the page to finish loading', () => page.evaluate<boolean>(NOTHING_LOADING), 15_000);
  }

  it('an empty project: the cohorts page says how many users cohorts need and how many there are', async () => {
    await load('/console/cohorts');
    await page.getByRole('heading', { name: 'No behavioural cohorts yet: 0 of the 10 users they need' }).waitFor();
    assert.match(await page.locator('main section.empty').first().innerText(), /after 10 users with a session/);
  });

  it('the demo traffic of npm start -- --simulate arrives and is processed', async () => {
    await sendDemo(pipeline.api.baseUrl, key, 7);
    await waitForAnalytics(120_000);
    processedAt = Date.now();
  });

  for (const { name, url, data, text } of PAGES) {
    it(`${name} shows data within seconds`, async () => {
      await shows(name, url, data, 20_000, text);
    });
  }

  it('cohorts shows the behavioural cohorts within two minutes, although the worker found the project empty', async () => {
    await shows('cohorts', '/console/cohorts', 'ul.cards li.card', 120_000);
  });

  it('cohorts are named for what they measure: relative traits and rules of thumb, not "churn risk"', async () => {
    await load('/console/cohorts');
    const text = await page.locator('main').innerText();
    assert.doesNotMatch(text, /churn risk/i);
    assert.match(text, /how it differs from this project.s other users/);
    assert.match(text, /not predictions of churn/);
    assert.equal(
      await page.locator('main li.card').filter({ hasText: 'Disengagement' }).count(),
      await page.locator('main li.card').count(),
    );
  });

  it("friction: an element's card shows its own clicks and users apart from its page's loops and idle time", async () => {
    await load('/console/friction');
    const elements = page.locator('main li.point').filter({ has: page.locator('h3 .element') });
    assert.ok((await elements.count()) > 0, 'the demo has element points');
    for (const card of await elements.all()) {
      const text = await card.innerText();
      assert.doesNotMatch(text, /Users affected/, text);
      assert.match(text, /Page loops/);
      const own = /Dead clicks\s+(\d+)\s+Rage clicks\s+(\d+)/.exec(text);
      assert.ok(own, text);
      if (own[1] === '0' && own[2] === '0')
        assert.match(text, /No dead or rage clicks on .*: its index comes from its page/);
      else assert.match(text, /Users misclicking it\s+[1-9]/, text);
    }
  });

  it('ran every page without a script error', () => {
    assert.deepEqual(pageErrors, []);
  });
});
