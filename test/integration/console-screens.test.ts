/**
 * The analytics pages as a product manager sees them, in Debian's Chromium at 1280 and 390 px
 * wide, with the demo traffic of `npm start -- --simulate` (scripts/simulate.ts, sendDemo): no
 * page scrolls sideways, the charts the console draws itself keep their text labels apart (boxes
 * measured in the page: the paths diagram's SVG text, the scatter's labels as its canvas records
 * them), every chart has its axes titled, the scatter its quadrant lines labelled, and each score
 * explains itself on hover. Pages are photographed into .screenshots/console-screens/ (git-ignored).
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
  newProject,
  services,
  startPipeline,
  stopPipeline,
  type TestPipeline,
  waitFor,
  waitForAnalytics,
} from './helpers.js';

const SHOTS = path.join('.screenshots', 'console-screens');
const WIDTHS = [1280, 390];

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
  text: string;
}

interface Drawn {
  what: string;
  width: number;
  height: number;
  labels: Box[];
}

// Code run inside the page is written as strings: the root tsconfig has no DOM types.
const NOTHING_LOADING = "!document.querySelector('.loading')";
const FRAMES = `new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() =>
  requestAnimationFrame(() => resolve(true)))))`;
const OVERFLOW = 'document.documentElement.scrollWidth - window.innerWidth';
/** The axis titles of every full-size chart (sparklines have none), as the chart drew them. */
const CHART_AXES = `[...document.querySelectorAll('main .chart--large canvas, main .chart--medium canvas')]
  .map((c) => ({ label: c.getAttribute('aria-label'), axes: JSON.parse(c.dataset.axes || '[]') }))`;
/** The text the console draws itself: the paths diagrams' SVG text, the scatter's labels. */
const DRAWN_TEXT = `(() => {
  const svgs = [...document.querySelectorAll('main svg.paths-diagram')].map((svg, i) => {
    const o = svg.getBoundingClientRect();
    const labels = [...svg.querySelectorAll('text')].map((t) => {
      const r = t.getBoundingClientRect();
      const text = [...t.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('');
      return { text, x: r.x - o.x, y: r.y - o.y, width: r.width, height: r.height };
    });
    return { what: 'paths diagram ' + i, width: o.width, height: o.height, labels };
  });
  const canvases = [...document.querySelectorAll('main canvas[data-labels]')].map((c, i) => ({
    what: 'scatter ' + i, width: c.clientWidth, height: c.clientHeight, labels: JSON.parse(c.dataset.labels),
  }));
  return [...svgs, ...canvases];
})()`;

/** Pairs of labels whose boxes overlap (by more than half a pixel), and labels outside their chart. */
function textProblems(drawn: Drawn[]): string[] {
  const found: string[] = [];
  for (const chart of drawn) {
    chart.labels.forEach((a, i) => {
      if (a.x < -0.5 || a.y < -0.5 || a.x + a.width > chart.width + 0.5 || a.y + a.height > chart.height + 0.5)
        found.push(`${chart.what}: "${a.text}" leaves the chart`);
      for (const b of chart.labels.slice(i + 1))
        if (
          a.x + 0.5 < b.x + b.width &&
          b.x + 0.5 < a.x + a.width &&
          a.y + 0.5 < b.y + b.height &&
          b.y + 0.5 < a.y + a.height
        )
          found.push(`${chart.what}: "${a.text}" overlaps "${b.text}"`);
    });
  }
  return found;
}

describe('console analytics pages at 1280 and 390 px (screenshots)', function () {
  this.timeout(300_000);
  let pipeline: TestPipeline;
  let browser: Browser | undefined;
  let page: Page;
  let origin: string;
  const pageErrors: string[] = [];
  const analyticsCalls: string[] = [];

  before(async () => {
    await ensureConsoleBuild();
    fs.mkdirSync(SHOTS, { recursive: true });
    pipeline = await startPipeline(
      ['raw-sink', 'analytics'],
      ['jobs', 'workflows', 'behavioural-cohorts', 'cohort-membership'],
    );
    origin = new URL(pipeline.api.baseUrl).origin;
    const project = await newProject(['admin']);
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: WIDTHS[0]!, height: 900 } });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    page.on('pageerror', (err) => pageErrors.push(err.message));
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/v1/analytics/')) analyticsCalls.push(request.url());
    });
    const { link } = await consoleOwnerLink(services().db, project.projectId, pipeline.api.baseUrl);
    await page.goto(link);
    await page.getByRole('heading', { name: /^Welcome/ }).waitFor();
    await sendDemo(pipeline.api.baseUrl, project.keys[0]!, 11);
    await waitForAnalytics(120_000);
  });
  after(async () => {
    await browser?.close();
    await stopPipeline(pipeline);
  });

  async function settled(): Promise<void> {
    await page.locator('main h1').first().waitFor();
    await waitFor('the page to finish loading', () => page.evaluate<boolean>(NOTHING_LOADING), 15_000);
    // Charts follow their box: a resize redraws them a frame or two later.
    await page.evaluate(FRAMES);
  }

  /** Loads `url` until `selector` shows in main (reloading every 2 s), up to `withinMs`. */
  async function load(url: string, selector: string, withinMs = 20_000): Promise<void> {
    const deadline = Date.now() + withinMs;
    for (;;) {
      await page.goto(`${origin}${url}`);
      await settled();
      if ((await page.locator(`main ${selector}`).count()) > 0) return;
      const empty = await page.locator('main section.empty h2').allTextContents();
      assert.ok(Date.now() < deadline, `${url}: no ${selector} after ${withinMs / 1000} s (${empty.join('; ')})`);
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }

  /**
   * At each width: photographs the page, and checks it does not scroll sideways, its full-size
   * charts have both axes titled and the text drawn in its charts does not overlap. Answers what
   * was drawn at each width.
   */
  async function screens(name: string): Promise<Drawn[][]> {
    const seen: Drawn[][] = [];
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await settled();
      await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
      assert.ok((await page.evaluate<number>(OVERFLOW)) <= 0, `${name} at ${width} px scrolls sideways`);
      for (const chart of await page.evaluate<{ label: string; axes: string[] }[]>(CHART_AXES))
        assert.equal(chart.axes.length, 2, `${name} at ${width} px: axes of ${chart.label}`);
      const drawn = await page.evaluate<Drawn[]>(DRAWN_TEXT);
      assert.deepEqual(textProblems(drawn), [], `${name} at ${width} px`);
      seen.push(drawn);
    }
    await page.setViewportSize({ width: WIDTHS[0]!, height: 900 });
    return seen;
  }

  it('Features: the scatter draws and labels both quadrant thresholds; feature names never overlap', async () => {
    await load('/console/features', 'canvas[data-labels]');
    for (const drawn of await screens('features')) {
      const scatter = drawn.find((d) => d.what.startsWith('scatter'))!;
      const texts = scatter.labels.map((l) => l.text);
      assert.ok(
        texts.some((t) => /^VR threshold 50 %$/.test(t)),
        `the visibility line is labelled with the project's threshold: ${texts.join(' | ')}`,
      );
      assert.ok(
        texts.some((t) => /^EC threshold 50 %$/.test(t)),
        texts.join(' | '),
      );
      assert.ok(texts.length > 2, `some feature names are written beside their points: ${texts.join(' | ')}`);
    }
    assert.match(await page.locator('main .chart-note').innerText(), /quadrant thresholds \(this project.s settings\)/);
  });

  it("a feature's usage over time is a dated line chart of the users who saw and used it", async () => {
    await load('/console/features', 'table tbody th button');
    await page.locator('main table tbody th button').first().click();
    await page.locator('main .usage-over-time canvas').waitFor();
    await screens('feature-detail');
    const axes = await page.locator('main .usage-over-time canvas').getAttribute('data-axes');
    assert.deepEqual(JSON.parse(axes ?? '[]'), ['Day (UTC)', 'Users']);
    await page.locator('main .usage-over-time summary').click();
    assert.ok((await page.locator('main .usage-over-time table tbody tr').count()) >= 7, 'a row per day of the range');
  });

  it('Workflows: a paths diagram per goal, columns up to the goal, labels apart, a table of every path', async () => {
    await load('/console/workflows', 'svg.paths-diagram path.paths-link', 60_000);
    for (const drawn of await screens('workflows')) {
      const diagram = drawn.find((d) => d.what.startsWith('paths diagram'))!;
      const texts = diagram.labels.map((l) => l.text);
      assert.ok(texts.includes('Goal') && texts.includes('1 step before'), texts.join(' | '));
      assert.ok(
        texts.some((t) => / · \d+$/.test(t)),
        `steps are labelled with their completions: ${texts.join(' | ')}`,
      );
    }
    const rows = await page.locator('main table tbody tr').count();
    assert.ok(rows > 0);
    assert.equal(await page.locator('main ol.paths').count(), 0, 'no list of path cards any more');
    // Band widths by users instead of completions: drawn again, still apart.
    await page.getByRole('radio', { name: 'Users' }).first().check();
    assert.deepEqual(textProblems(await page.evaluate<Drawn[]>(DRAWN_TEXT)), []);
    assert.match(
      (await page.locator('main svg.paths-diagram text.paths-label').first().textContent()) ?? '',
      /users$|\d$/,
    );
  });

  it('each score explains on hover what it measures and its scale, inside the window at both widths', async () => {
    await load('/console/workflows', 'table tbody tr');
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 900 });
      await settled();
      const efficiency = page.getByRole('button', { name: 'About Efficiency' }).first();
      await efficiency.scrollIntoViewIfNeeded();
      await efficiency.hover();
      const tip = page.getByRole('tooltip').filter({ hasText: /0\.5 twice the steps/ });
      await tip.waitFor();
      const box = (await tip.boundingBox())!;
      assert.ok(box.x >= 0 && box.x + box.width <= width, `the tip stays in the window at ${width} px`);
      assert.ok(box.y >= 0 && box.y + box.height <= 900, `the tip stays in the window at ${width} px: ${box.y}`);
      const button = (await efficiency.boundingBox())!;
      assert.ok(
        Math.abs(box.y - (button.y + button.height)) < 12 || Math.abs(box.y + box.height - button.y) < 12,
        'the tip opens next to its score',
      );
      await page.screenshot({ path: path.join(SHOTS, `explain-${width}.png`) });
      await page.keyboard.press('Escape');
      await tip.waitFor({ state: 'hidden' });
    }
    await page.setViewportSize({ width: WIDTHS[0]!, height: 900 });
    assert.match(
      await page
        .locator('main table tbody td.num')
        .filter({ hasText: /× the steps|shortest/ })
        .first()
        .innerText(),
      /· (\d+(\.\d)?× the steps|shortest)$/,
    );
  });

  it('Friction, Jobs, Event context and Cohorts at both widths: no sideways scrolling, axes titled', async () => {
    await load('/console/friction', 'ol.cards li.point');
    await screens('friction');
    await load('/console/jobs', 'ul.jobs li.card');
    await screens('jobs');
    await load('/console/context?event=feature_used&date_range=last_7_days', 'canvas');
    await screens('event-context');
    await load('/console/cohorts', 'ul.cards li.card', 120_000);
    await screens('cohorts');
  });

  it('asked for whole lists: no analytics call pages (the API answers a whole list up to its cap)', () => {
    assert.ok(analyticsCalls.length > 5);
    assert.deepEqual(
      analyticsCalls.filter((url) => /[?&](per_page|page|page_number)=/.test(url)),
      [],
    );
  });

  it('ran every page without a script error', () => {
    assert.deepEqual(pageErrors, []);
  });
});
