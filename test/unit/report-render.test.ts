import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { FeatureLine, FrictionLine, GoalLine, ReportContent, WorkflowLine } from '../../workers/reports/data.js';
import { reportMessage } from '../../workers/reports/message.js';
import { WORKFLOWS_PER_GOAL, percent, rankFeatures, topWorkflows } from '../../workers/reports/present.js';
import { renderReport } from '../../workers/reports/render.js';
import { renderCsv } from '../../workers/reports/render-csv.js';
import { escapeHtml, renderHtml } from '../../workers/reports/render-html.js';
import { renderPdf, winAnsi } from '../../workers/reports/render-pdf.js';

const fontDir = path.join(
  path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')),
  'standard_fonts/',
);

/** Every text run of a PDF, page by page, joined by newlines. */
async function pdfText(pdf: Buffer): Promise<string> {
  const doc = await getDocument({ data: new Uint8Array(pdf), standardFontDataUrl: fontDir }).promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    // Cells are separate text runs; pdf.js adds blank runs between some of them.
    const runs = content.items.map((item) => ('str' in item ? item.str : '')).filter((run) => run.trim() !== '');
    pages.push(runs.join('\n'));
  }
  return pages.join('\n');
}

const feature = (name: string, over: Partial<FeatureLine> = {}): FeatureLine => ({
  name,
  quadrant: 'high_visibility_high_usage',
  visibility_rate: 0.75,
  engagement_conversion: 0.5,
  discovery_gap_score: 0.0125,
  users_saw: 4,
  users_used: 2,
  avg_days_to_discovery: 1.5,
  ...over,
});
const heading = {
  title: 'Weekly <Product> & "Co"',
  period: { start: '2026-03-02', end: '2026-03-08' },
  generatedAt: new Date('2026-03-09T06:00:05Z'),
};
const features: ReportContent = {
  ...heading,
  type: 'feature_intelligence',
  features: [
    feature('export'),
    feature('=HYPERLINK("http://evil")', { quadrant: 'low_visibility_low_usage', users_used: 0, visibility_rate: 0.1 }),
    feature('a, "quoted"\nname', { quadrant: 'high_visibility_low_usage', users_used: 1, users_saw: 9 }),
    feature('<script>alert(1)</script>', { users_used: 7, users_saw: 8, visibility_rate: 0.4333333333 }),
  ],
};
const frictionLine = (page: string, fi: number): FrictionLine => ({
  page,
  friction_index: fi,
  dead_clicks: 1,
  rage_clicks: 2,
  confusion_loops: 0,
  avg_idle_time: 21,
  users_affected: 3,
  recommended_actions: [`Make ${page} respond visibly to clicks, or stop it looking clickable.`],
});
const friction: ReportContent = {
  ...heading,
  type: 'friction',
  friction: [frictionLine('/settings', 0.20625), frictionLine('/home', 0.433333333)],
};

const workflow = (path: string[], occurrences: number, over: Partial<WorkflowLine> = {}): WorkflowLine => ({
  workflow_id: `wf_${path.join('_')}`,
  path,
  frequency: occurrences / 100,
  occurrences,
  users: occurrences - 1,
  completion_rate: 0.8125,
  avg_time: 42.25,
  efficiency_score: 0.6666666667,
  ...over,
});
// 11 ranked paths (20, 14, 11, 10, …, 3 occurrences) and "other" (3): 100 completions.
const ranked = [
  workflow(['/home', '/export'], 20),
  workflow(['=cmd()', '<b>bold</b>'], 14),
  workflow([], 11, { efficiency_score: 1 }),
  ...Array.from({ length: 8 }, (_, i) => workflow([`/step-${i}`], 10 - i)),
];
const exportGoal: GoalLine = {
  goal: 'report_exported',
  computed_at: new Date('2026-03-09T05:59:00Z'),
  completions: 100,
  workflows: [...ranked, workflow(['other'], 3, { workflow_id: 'wf_other' })],
};
const pendingGoal: GoalLine = { goal: 'invite_sent', computed_at: null, completions: 0, workflows: [] };
const workflows: ReportContent = { ...heading, type: 'workflows', goals: [pendingGoal, exportGoal] };

describe('report rendering', () => {
  it('ranks features by users who used them, then users who saw them', () => {
    assert.deepEqual(
      rankFeatures(features.type === 'feature_intelligence' ? features.features : []).map((f) => f.name),
      ['<script>alert(1)</script>', 'export', 'a, "quoted"\nname', '=HYPERLINK("http://evil")'],
    );
  });

  describe('CSV', () => {
    it('quotes commas, quotes and line breaks, so the rows read back intact', () => {
      const rows = parse<Record<string, string>>(renderCsv(features), { columns: true });
      assert.deepEqual(
        rows.map((r) => r.name),
        ['<script>alert(1)</script>', 'export', 'a, "quoted"\nname', `'=HYPERLINK("http://evil")`],
      );
      assert.deepEqual(rows[1], {
        name: 'export',
        quadrant: 'high_visibility_high_usage',
        visibility_rate: '0.75',
        engagement_conversion: '0.5',
        discovery_gap_score: '0.0125',
        users_saw: '4',
        users_used: '2',
        avg_days_to_discovery: '1.5',
      });
    });

    it('writes CRLF lines and neutralises spreadsheet formulas', () => {
      const csv = renderCsv(features);
      assert.ok(csv.startsWith('name,quadrant,visibility_rate,'));
      // header + 4 records; the line break inside a quoted name is not a record break
      assert.equal(csv.split('\r\n').length, 6);
      assert.ok(csv.includes(`"'=HYPERLINK(""http://evil"")"`));
    });

    it('neutralises every formula start in text cells but leaves negative numbers as numbers', () => {
      const names = ['+1+1', '-2+3', '@SUM(A1)', '\tx', '\rx', '=1'];
      const csv = renderCsv({
        ...features,
        features: names.map((n) => feature(n, { discovery_gap_score: -0.25 })),
      });
      const rows = parse<Record<string, string>>(csv, { columns: true });
      assert.deepEqual(rows.map((r) => r.name).sort(), names.map((n) => `'${n}`).sort());
      assert.ok(rows.every((r) => r.discovery_gap_score === '-0.25'));
    });

    it('lists friction points highest index first with their actions', () => {
      const rows = parse<Record<string, string>>(renderCsv(friction), { columns: true });
      assert.deepEqual(
        rows.map((r) => [r.page, r.friction_index, r.recommended_actions]),
        [
          ['/home', '0.433333333', 'Make /home respond visibly to clicks, or stop it looking clickable.'],
          ['/settings', '0.20625', 'Make /settings respond visibly to clicks, or stop it looking clickable.'],
        ],
      );
    });
  });

  describe('HTML', () => {
    it('escapes the five special characters', () => {
      assert.equal(
        escapeHtml(`<a href="x" title='y'>&amp;</a>`),
        '&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;',
      );
    });

    it('escapes every value taken from the data', () => {
      const html = renderHtml(features);
      assert.ok(!html.includes('<script>'));
      assert.ok(html.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
      assert.ok(html.includes('<title>Weekly &lt;Product&gt; &amp; &quot;Co&quot;</title>'));
      assert.ok(html.includes('a, &quot;quoted&quot;\nname'));
      // grouped by quadrant, in the fixed quadrant order
      const order = ['High visibility, high usage', 'High visibility, low usage', 'Low visibility, low usage'].map(
        (h) => html.indexOf(h),
      );
      assert.ok(
        order.every((at, i) => at > 0 && (i === 0 || at > order[i - 1]!)),
        String(order),
      );
      assert.ok(
        html.includes(
          `<td style="border:1px solid #d0d7de;padding:4px 8px;text-align:left">${percent(0.4333333333)}</td>`,
        ),
      );
    });

    it('shows the friction table and the recommended actions', () => {
      const html = renderHtml(friction);
      assert.ok(html.indexOf('/home') < html.indexOf('/settings'));
      assert.ok(html.includes('<li>Make /home respond visibly to clicks, or stop it looking clickable.</li>'));
    });
  });

  describe('PDF', () => {
    it('is a PDF whose text holds the title, the period, every feature and its numbers', async () => {
      const pdf = await renderPdf(features);
      assert.equal(pdf.subarray(0, 5).toString(), '%PDF-');
      const text = await pdfText(pdf);
      for (const expected of [
        'Weekly <Product> & "Co"',
        '2026-03-02 to 2026-03-08',
        'export',
        '<script>alert(1)</script>',
        '43.3%',
        '75.0%',
        '50.0%',
        'Visibility rate',
        'Engagement conversion',
        'High visibility, high usage',
      ]) {
        assert.ok(text.includes(expected), `${expected} in ${text}`);
      }
    });

    it('holds the friction table', async () => {
      const text = await pdfText(await renderPdf(friction));
      for (const expected of ['/home', '0.433', '/settings', '0.206', 'Friction Index', 'Recommended actions']) {
        assert.ok(text.includes(expected), `${expected} in ${text}`);
      }
    });

    it('says so when there is nothing to show, and pages long tables', async () => {
      const empty = await pdfText(await renderPdf({ ...heading, type: 'feature_intelligence', features: [] }));
      assert.ok(empty.includes('No feature was seen in this period.'));
      const many = Array.from({ length: 120 }, (_, i) => feature(`feature-${String(i).padStart(3, '0')}`));
      const pdf = await renderPdf({ ...heading, type: 'feature_intelligence', features: many });
      const doc = await getDocument({ data: new Uint8Array(pdf), standardFontDataUrl: fontDir }).promise;
      assert.ok(doc.numPages >= 3, `${doc.numPages} pages`);
      const text = await pdfText(pdf);
      for (const f of many) assert.ok(text.includes(f.name), f.name);
    });

    it('replaces what the built-in fonts cannot show with "?"', () => {
      assert.equal(winAnsi('Ünïcødé – “ok” € 漢字 😀'), 'Ünïcødé – “ok” € ?? ?');
    });
  });

  describe('workflows', () => {
    it(`lists the first ${WORKFLOWS_PER_GOAL} paths of a goal in rank order, then "other", and sums the rest`, () => {
      const { shown, more } = topWorkflows(exportGoal);
      assert.deepEqual(
        shown.map((w) => w.occurrences),
        [20, 14, 11, 10, 9, 8, 7, 6, 5, 4, 3],
      );
      assert.deepEqual(shown.at(-1)!.path, ['other']);
      // /step-7 (3 occurrences) is past the first 10.
      assert.deepEqual(more, { paths: 1, occurrences: 3, frequency: 0.03 });
      assert.deepEqual(topWorkflows({ ...exportGoal, workflows: ranked.slice(0, 3) }), {
        shown: ranked.slice(0, 3),
        more: null,
      });
      assert.deepEqual(topWorkflows(pendingGoal), { shown: [], more: null });
    });

    it('CSV: one row per listed workflow with the API values, a row for the rest, formulas neutralised', () => {
      const rows = parse<Record<string, string>>(renderCsv(workflows), { columns: true });
      assert.deepEqual(
        rows.map((r) => [r.goal, r.path, r.occurrences]),
        [
          ['report_exported', '/home > /export', '20'],
          ['report_exported', `'=cmd() > <b>bold</b>`, '14'],
          ['report_exported', '(goal first in session)', '11'],
          ...Array.from({ length: 7 }, (_, i) => ['report_exported', `/step-${i}`, String(10 - i)]),
          ['report_exported', 'other', '3'],
          ['report_exported', '(1 more path)', '3'],
        ],
      );
      assert.deepEqual(rows[0], {
        goal: 'report_exported',
        computed_at: '2026-03-09T05:59:00.000Z',
        workflow_id: 'wf_/home_/export',
        path: '/home > /export',
        frequency: '0.2',
        occurrences: '20',
        users: '19',
        completion_rate: '0.8125',
        avg_time: '42.25',
        efficiency_score: '0.6666666667',
      });
      assert.deepEqual(rows.at(-1), {
        goal: 'report_exported',
        computed_at: '2026-03-09T05:59:00.000Z',
        workflow_id: '',
        path: '(1 more path)',
        frequency: '0.03',
        occurrences: '3',
        users: '',
        completion_rate: '',
        avg_time: '',
        efficiency_score: '',
      });
    });

    it('HTML: a table per goal, every value escaped, and what the workflows cover', () => {
      const html = renderHtml(workflows);
      assert.ok(!html.includes('<b>bold'));
      assert.ok(html.includes('=cmd() &gt; &lt;b&gt;bold&lt;/b&gt;'));
      assert.ok(html.includes('all of the project&#39;s history as last mined'));
      assert.ok(html.includes('not the schedule&#39;s period (2026-03-02 to 2026-03-08)'));
      assert.ok(html.indexOf('Goal: invite_sent') < html.indexOf('Goal: report_exported'));
      assert.ok(html.includes('<p>Not mined yet.</p>'));
      assert.ok(html.includes('100 completions; mined 2026-03-09T05:59:00.000Z.'));
      assert.ok(html.includes('<p>1 more path (3 completions, 3.0%) not listed.</p>'));
      assert.equal(html.match(/<table/g)?.length, 1);
      for (const cell of ['20.0%', '19', '81.3%', '42.3', '0.667']) {
        assert.ok(
          html.includes(`<td style="border:1px solid #d0d7de;padding:4px 8px;text-align:left">${cell}</td>`),
          cell,
        );
      }
      assert.ok(!html.includes('/step-7'));
    });

    it('PDF: per goal a frequency chart and a table with the numbers', async () => {
      const text = await pdfText(await renderPdf(workflows));
      for (const expected of [
        "Workflows cover all of the project's history as last mined",
        'Goal: invite_sent',
        'Not mined yet.',
        'Goal: report_exported',
        '100 completions; mined 2026-03-09T05:59:00.000Z.',
        'Frequency (share of completions)',
        ['/home > /export', '20.0%', '19', '81.3%', '42.3', '0.667'].join('\n'),
        ['=cmd() > <b>bold</b>', '14.0%', '13'].join('\n'),
        '(goal first in session)',
        ['other', '3.0%', '2'].join('\n'),
        '1 more path (3 completions, 3.0%) not listed.',
      ]) {
        assert.ok(text.includes(expected), `${expected} in ${text}`);
      }
      assert.ok(!text.includes('/step-7'));
      const none = await pdfText(await renderPdf({ ...workflows, goals: [] }));
      assert.match(none, /No goal is kept for this project/);
    });

    it('mails a summary naming each goal and its most frequent path', async () => {
      const message = reportMessage(workflows, await renderReport(workflows, 'pdf'), 'f@example.com', [
        'a@example.com',
      ]);
      assert.match(message.text as string, /- invite_sent: Not mined yet\./);
      assert.match(
        message.text as string,
        /- report_exported: 100 completions; .* Most frequent path: \/home > \/export \(20\.0%\)/,
      );
      assert.deepEqual(
        message.attachments?.map((a) => a.filename),
        ['workflows-2026-03-02_2026-03-08.pdf'],
      );
    });
  });

  describe('mail', () => {
    it('attaches PDF and CSV reports to a text summary', async () => {
      const rendered = await renderReport(features, 'csv');
      const message = reportMessage(features, rendered, 'from@example.com', ['a@example.com', 'b@example.com']);
      assert.equal(message.subject, 'Weekly <Product> & "Co": 2026-03-02 to 2026-03-08');
      assert.deepEqual(message.to, ['a@example.com', 'b@example.com']);
      assert.match(message.text as string, /export: used by 2 of 4 users/);
      assert.equal(message.html, undefined);
      assert.deepEqual(
        message.attachments?.map((a) => [a.filename, a.contentType]),
        [['feature_intelligence-2026-03-02_2026-03-08.csv', 'text/csv; charset=utf-8']],
      );
    });

    it('sends HTML reports as the body', async () => {
      const rendered = await renderReport(friction, 'html');
      const message = reportMessage(friction, rendered, 'from@example.com', ['a@example.com']);
      assert.equal(message.attachments, undefined);
      assert.equal(message.html, renderHtml(friction));
    });
  });
});
