import PDFDocument from 'pdfkit';
import type { ReportContent } from './data.js';
import {
  FEATURE_COLUMNS,
  FRICTION_COLUMNS,
  NO_FEATURE,
  NO_GOAL,
  NO_PAGE,
  NO_PATH,
  WORKFLOW_COLUMNS,
  featureCells,
  featuresByQuadrant,
  frictionCells,
  minedText,
  moreText,
  openingText,
  pathText,
  percent,
  rankFeatures,
  rankFriction,
  recommendedActions,
  topWorkflows,
  workflowCells,
} from './present.js';

type Doc = PDFKit.PDFDocument;

const MARGIN = 50;
const ROW = 16;
const HEAD_ROW = 22;
const COLORS = { rule: '#d0d7de', head: '#f3f4f6', text: '#1f2328', muted: '#57606a', a: '#2f6fde', b: '#e8912d' };
const CHART_BARS = 10;

// The built-in fonts encode Windows-1252 only; anything else would print as unrelated glyphs.
const WIN_ANSI_EXTRA = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';

/** `text` with every character the built-in fonts cannot show replaced by "?". */
export function winAnsi(text: string): string {
  return Array.from(text, (c) => {
    const code = c.codePointAt(0)!;
    return (code >= 0x20 && code < 0x7f) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.includes(c) ? c : '?';
  }).join('');
}

/** `text` shortened with an ellipsis to fit `width` in the current font. */
function fit(doc: Doc, raw: string, width: number): string {
  const text = winAnsi(raw);
  if (doc.widthOfString(text) <= width) return text;
  let cut = text.length;
  while (cut > 0 && doc.widthOfString(`${text.slice(0, cut)}…`) > width) cut--;
  return `${text.slice(0, cut)}…`;
}

function ensureRoom(doc: Doc, height: number): void {
  if (doc.y + height > doc.page.height - MARGIN) doc.addPage();
}

function heading(doc: Doc, text: string, size: number): void {
  ensureRoom(doc, size * 3);
  doc.moveDown(0.5).font('Helvetica-Bold').fontSize(size).fillColor(COLORS.text);
  doc.text(text, MARGIN, doc.y, { width: doc.page.width - 2 * MARGIN });
  doc.moveDown(0.3);
}

/** A ruled table; the first column takes what the others leave. Repeats its header on a new page. */
function table(doc: Doc, columns: readonly string[], rows: string[][]): void {
  const total = doc.page.width - 2 * MARGIN;
  const other = 58;
  const widths = columns.map((_, i) => (i === 0 ? total - other * (columns.length - 1) : other));
  const drawRow = (cells: readonly string[], head: boolean) => {
    const y = doc.y;
    const height = head ? HEAD_ROW : ROW;
    if (head) doc.rect(MARGIN, y, total, height).fill(COLORS.head);
    doc
      .font(head ? 'Helvetica-Bold' : 'Helvetica')
      .fontSize(head ? 7 : 8)
      .fillColor(COLORS.text);
    let x = MARGIN;
    cells.forEach((cell, i) => {
      const w = widths[i]!;
      const align = i === 0 ? 'left' : 'right';
      // Headers may wrap onto a second line; data cells are cut to one.
      if (head) doc.text(cell, x + 3, y + 3, { width: w - 6, height: height - 3, align });
      else doc.text(fit(doc, cell, w - 6), x + 3, y + 4, { width: w - 6, lineBreak: false, align });
      x += w;
    });
    doc
      .moveTo(MARGIN, y + height)
      .lineTo(MARGIN + total, y + height)
      .lineWidth(0.5)
      .strokeColor(COLORS.rule)
      .stroke();
    doc.x = MARGIN;
    doc.y = y + height;
  };
  ensureRoom(doc, HEAD_ROW + ROW);
  drawRow(columns, true);
  for (const row of rows) {
    if (doc.y + ROW > doc.page.height - MARGIN) {
      doc.addPage();
      drawRow(columns, true);
    }
    drawRow(row, false);
  }
  doc.moveDown(0.5);
}

/**
 * Horizontal bars on a 0–100 % scale: one group per label, one bar per series, with a legend
 * and grid lines at every quarter. Vector drawing only (no image).
 */
function barChart(doc: Doc, labels: string[], series: { name: string; color: string; values: number[] }[]): void {
  const labelWidth = 140;
  const plotWidth = doc.page.width - 2 * MARGIN - labelWidth - 40;
  const bar = 7;
  const group = series.length * bar + 6;
  const height = 14 + labels.length * group + 14;
  ensureRoom(doc, height);
  const top = doc.y;
  const left = MARGIN + labelWidth;
  doc.font('Helvetica').fontSize(7);
  series.forEach((s, i) => {
    const x = left + i * 110;
    doc.rect(x, top, 8, 8).fill(s.color);
    doc.fillColor(COLORS.text).text(s.name, x + 12, top + 1, { lineBreak: false });
  });
  const plotTop = top + 14;
  const plotBottom = plotTop + labels.length * group;
  for (let q = 0; q <= 4; q++) {
    const x = left + (plotWidth * q) / 4;
    doc.moveTo(x, plotTop).lineTo(x, plotBottom).lineWidth(0.5).strokeColor(COLORS.rule).stroke();
    doc
      .fillColor(COLORS.muted)
      .text(`${q * 25}%`, x - 10, plotBottom + 3, { width: 20, align: 'center', lineBreak: false });
  }
  labels.forEach((label, i) => {
    const y = plotTop + i * group + 3;
    doc.fillColor(COLORS.text).text(fit(doc, label, labelWidth - 8), MARGIN, y + (group - 6) / 2 - 3, {
      width: labelWidth - 8,
      lineBreak: false,
    });
    series.forEach((s, j) => {
      const value = Math.min(1, Math.max(0, s.values[i]!));
      const by = y + j * bar;
      if (value > 0) doc.rect(left, by, plotWidth * value, bar - 1).fill(s.color);
      doc.fillColor(COLORS.muted).text(percent(s.values[i]!), left + plotWidth * value + 3, by, { lineBreak: false });
    });
  });
  doc.x = MARGIN;
  doc.y = plotBottom + 16;
}

/** A paragraph of body text. */
function note(doc: Doc, text: string): void {
  ensureRoom(doc, 24);
  doc.font('Helvetica').fontSize(9).fillColor(COLORS.text);
  doc.text(winAnsi(text), MARGIN, doc.y, { width: doc.page.width - 2 * MARGIN });
  doc.moveDown(0.3);
}

/** Per goal: a bar of each listed workflow's frequency, then their table. */
function drawWorkflows(doc: Doc, content: ReportContent & { type: 'workflows' }): void {
  if (content.goals.length === 0) {
    doc.moveDown();
    note(doc, NO_GOAL);
  }
  for (const goal of content.goals) {
    const { shown, more } = topWorkflows(goal);
    heading(doc, winAnsi(`Goal: ${goal.goal}`), 13);
    note(doc, minedText(goal));
    if (shown.length === 0) {
      note(doc, NO_PATH);
      continue;
    }
    barChart(
      doc,
      shown.map((w) => pathText(w.path)),
      [{ name: 'Frequency (share of completions)', color: COLORS.a, values: shown.map((w) => w.frequency) }],
    );
    table(doc, WORKFLOW_COLUMNS, shown.map(workflowCells));
    if (more) note(doc, moreText(more));
  }
}

function draw(doc: Doc, content: ReportContent): void {
  doc.font('Helvetica-Bold').fontSize(18).fillColor(COLORS.text).text(winAnsi(content.title), MARGIN, MARGIN);
  doc.font('Helvetica').fontSize(10).fillColor(COLORS.muted);
  doc.text(winAnsi(openingText(content)));
  if (content.type === 'workflows') {
    drawWorkflows(doc, content);
    return;
  }
  if (content.type === 'feature_intelligence') {
    const top = rankFeatures(content.features).slice(0, CHART_BARS);
    if (top.length === 0) {
      doc.moveDown().fillColor(COLORS.text).text(NO_FEATURE);
      return;
    }
    heading(doc, `Visibility versus engagement (top ${top.length} by use)`, 13);
    barChart(
      doc,
      top.map((f) => f.name),
      [
        { name: 'Visibility rate', color: COLORS.a, values: top.map((f) => f.visibility_rate) },
        { name: 'Engagement conversion', color: COLORS.b, values: top.map((f) => f.engagement_conversion) },
      ],
    );
    for (const group of featuresByQuadrant(content.features)) {
      heading(doc, group.label, 12);
      table(doc, FEATURE_COLUMNS, group.features.map(featureCells));
    }
    return;
  }
  const ranked = rankFriction(content.friction);
  if (ranked.length === 0) {
    doc.moveDown().fillColor(COLORS.text).text(NO_PAGE);
    return;
  }
  const top = ranked.slice(0, CHART_BARS);
  heading(doc, `Friction Index by page (top ${top.length})`, 13);
  barChart(
    doc,
    top.map((f) => f.page),
    [{ name: 'Friction Index', color: COLORS.b, values: top.map((f) => f.friction_index) }],
  );
  heading(doc, 'Friction points', 12);
  table(doc, FRICTION_COLUMNS, ranked.map(frictionCells));
  const actions = recommendedActions(ranked);
  if (actions.length > 0) {
    heading(doc, 'Recommended actions', 12);
    doc.font('Helvetica').fontSize(9).fillColor(COLORS.text);
    for (const action of actions) {
      ensureRoom(doc, 24);
      doc.text(winAnsi(`• ${action}`), MARGIN, doc.y, { width: doc.page.width - 2 * MARGIN });
    }
  }
}

/** The report as a PDF (A4, built-in Helvetica: text outside Windows-1252 does not render). */
export function renderPdf(content: ReportContent): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: { Title: content.title, Creator: 'Product Intelligence' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  draw(doc, content);
  doc.end();
  return done;
}
