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
  rankFriction,
  recommendedActions,
  topWorkflows,
  workflowCells,
} from './present.js';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text for an HTML element or a quoted attribute value. */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

// Mail clients drop <style> blocks: styles are inline.
const CELL = 'style="border:1px solid #d0d7de;padding:4px 8px;text-align:left"';
const HEAD = 'style="border:1px solid #d0d7de;padding:4px 8px;text-align:left;background:#f3f4f6"';

function table(columns: readonly string[], rows: string[][]): string {
  const head = columns.map((c) => `<th ${HEAD}>${escapeHtml(c)}</th>`).join('');
  const body = rows.map((r) => `<tr>${r.map((c) => `<td ${CELL}>${escapeHtml(c)}</td>`).join('')}</tr>`).join('\n');
  return `<table style="border-collapse:collapse;margin:8px 0 16px">\n<thead><tr>${head}</tr></thead>\n<tbody>\n${body}\n</tbody>\n</table>`;
}

/** A complete HTML document; every value from the data is escaped. */
export function renderHtml(content: ReportContent): string {
  const parts = [
    `<h1 style="font-size:20px">${escapeHtml(content.title)}</h1>`,
    `<p>${escapeHtml(openingText(content))}</p>`,
  ];
  if (content.type === 'workflows') {
    if (content.goals.length === 0) parts.push(`<p>${escapeHtml(NO_GOAL)}</p>`);
    for (const goal of content.goals) {
      const { shown, more } = topWorkflows(goal);
      parts.push(
        `<h2 style="font-size:16px">Goal: ${escapeHtml(goal.goal)}</h2>`,
        `<p>${escapeHtml(minedText(goal))}</p>`,
      );
      if (shown.length === 0) parts.push(`<p>${escapeHtml(NO_PATH)}</p>`);
      else parts.push(table(WORKFLOW_COLUMNS, shown.map(workflowCells)));
      if (more) parts.push(`<p>${escapeHtml(moreText(more))}</p>`);
    }
  } else if (content.type === 'feature_intelligence') {
    const groups = featuresByQuadrant(content.features);
    if (groups.length === 0) parts.push(`<p>${escapeHtml(NO_FEATURE)}</p>`);
    for (const group of groups) {
      parts.push(`<h2 style="font-size:16px">${escapeHtml(group.label)}</h2>`);
      parts.push(table(FEATURE_COLUMNS, group.features.map(featureCells)));
    }
  } else {
    const ranked = rankFriction(content.friction);
    if (ranked.length === 0) parts.push(`<p>${escapeHtml(NO_PAGE)}</p>`);
    else parts.push(table(FRICTION_COLUMNS, ranked.map(frictionCells)));
    const actions = recommendedActions(ranked);
    if (actions.length > 0) {
      parts.push('<h2 style="font-size:16px">Recommended actions</h2><ul>');
      for (const action of actions) parts.push(`<li>${escapeHtml(action)}</li>`);
      parts.push('</ul>');
    }
  }
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(content.title)}</title></head>`,
    '<body style="font-family:Helvetica,Arial,sans-serif;font-size:14px;color:#1f2328">',
    ...parts,
    '</body></html>',
    '',
  ].join('\n');
}
