import type { Quadrant } from '../../domain/metrics.js';
import { OTHER } from '../../domain/workflows/mining.js';
import type { FeatureLine, FrictionLine, GoalLine, ReportContent, WorkflowLine } from './data.js';
import { byCodePoint } from '../../domain/time.js';

/** Ordering, labels and number formats every report format shares. */

export const QUADRANTS: { quadrant: Quadrant; label: string }[] = [
  { quadrant: 'high_visibility_high_usage', label: 'High visibility, high usage' },
  { quadrant: 'low_visibility_high_usage', label: 'Low visibility, high usage (hidden gems)' },
  { quadrant: 'high_visibility_low_usage', label: 'High visibility, low usage' },
  { quadrant: 'low_visibility_low_usage', label: 'Low visibility, low usage' },
];

/** Most used first (users who used it, then users who saw it, then name). */
export function rankFeatures(features: FeatureLine[]): FeatureLine[] {
  return [...features].sort(
    (a, b) => b.users_used - a.users_used || b.users_saw - a.users_saw || byCodePoint(a.name, b.name),
  );
}

export function featuresByQuadrant(features: FeatureLine[]): { label: string; features: FeatureLine[] }[] {
  const ranked = rankFeatures(features);
  return QUADRANTS.map(({ quadrant, label }) => ({
    label,
    features: ranked.filter((f) => f.quadrant === quadrant),
  })).filter((group) => group.features.length > 0);
}

/** Highest Friction Index first, as GET /analytics/friction. */
export function rankFriction(lines: FrictionLine[]): FrictionLine[] {
  return [...lines].sort((a, b) => b.friction_index - a.friction_index || byCodePoint(a.page, b.page));
}

/** A ratio as a percentage with one decimal: 0.4333 → "43.3%". */
export const percent = (ratio: number) => `${(ratio * 100).toFixed(1)}%`;
export const decimal = (x: number, digits = 2) => x.toFixed(digits);

export const FEATURE_COLUMNS = [
  'Feature',
  'Visibility',
  'Engagement',
  'Discovery gap',
  'Users saw',
  'Users used',
  'Days to discovery',
] as const;

export function featureCells(f: FeatureLine): string[] {
  return [
    f.name,
    percent(f.visibility_rate),
    percent(f.engagement_conversion),
    decimal(f.discovery_gap_score, 3),
    String(f.users_saw),
    String(f.users_used),
    decimal(f.avg_days_to_discovery, 1),
  ];
}

export const FRICTION_COLUMNS = [
  'Page',
  'Friction Index',
  'Dead clicks',
  'Rage clicks',
  'Loops',
  'Avg idle (s)',
  'Users affected',
] as const;

export function frictionCells(f: FrictionLine): string[] {
  return [
    f.page,
    decimal(f.friction_index, 3),
    String(f.dead_clicks),
    String(f.rage_clicks),
    String(f.confusion_loops),
    decimal(f.avg_idle_time, 1),
    String(f.users_affected),
  ];
}

/** Workflows listed per goal; the rest are counted in one line, and "other" (paths seen once) always shows. */
export const WORKFLOWS_PER_GOAL = 10;

const isOther = (w: WorkflowLine) => w.path.length === 1 && w.path[0] === OTHER;

/** The paths not listed, summed (frequencies are shares of the same completions, so they add up). */
export interface MoreWorkflows {
  paths: number;
  occurrences: number;
  frequency: number;
}

/** The goal's first WORKFLOWS_PER_GOAL workflows in rank order (most frequent first), then "other". */
export function topWorkflows(goal: GoalLine): { shown: WorkflowLine[]; more: MoreWorkflows | null } {
  const ranked = goal.workflows.filter((w) => !isOther(w));
  const rest = ranked.slice(WORKFLOWS_PER_GOAL);
  const more =
    rest.length === 0
      ? null
      : {
          paths: rest.length,
          occurrences: rest.reduce((sum, w) => sum + w.occurrences, 0),
          frequency: rest.reduce((sum, w) => sum + w.frequency, 0),
        };
  return { shown: [...ranked.slice(0, WORKFLOWS_PER_GOAL), ...goal.workflows.filter(isOther)], more };
}

/** Steps joined by ">"; the empty path is the goal reached at a session's start. */
export const pathText = (path: string[]) => (path.length === 0 ? '(goal first in session)' : path.join(' > '));

export const morePaths = (more: MoreWorkflows) => `${more.paths} more path${more.paths === 1 ? '' : 's'}`;

export const moreText = (more: MoreWorkflows) =>
  `${morePaths(more)} (${more.occurrences} completions, ${percent(more.frequency)}) not listed.`;

export const NO_GOAL =
  'No goal is kept for this project: declare goals (PUT /settings/goals), activate a Job with a goal, or ask GET /analytics/workflows?goal=.';
export const NO_PATH = 'No user has reached this goal.';
export const NO_FEATURE = 'No feature was seen in this period.';
export const NO_PAGE = 'No page was viewed in this period.';

export const minedText = (goal: GoalLine) =>
  goal.computed_at === null
    ? 'Not mined yet.'
    : `${goal.completions} completions; mined ${goal.computed_at.toISOString()}.`;

export const WORKFLOW_COLUMNS = [
  'Path',
  'Frequency',
  'Users',
  'Completion rate',
  'Avg time (s)',
  'Efficiency',
] as const;

export function workflowCells(w: WorkflowLine): string[] {
  return [
    pathText(w.path),
    percent(w.frequency),
    String(w.users),
    percent(w.completion_rate),
    decimal(w.avg_time, 1),
    decimal(w.efficiency_score, 3),
  ];
}

export const periodText = (content: ReportContent) =>
  content.period.start === content.period.end
    ? content.period.start
    : `${content.period.start} to ${content.period.end}`;

/** What the report covers: its period, except for workflows, which are not kept per day. */
export const coverageText = (content: ReportContent) =>
  content.type === 'workflows'
    ? `Workflows cover all of the project's history as last mined (the time is given for each goal), not the schedule's period (${periodText(content)}). "other" groups the paths taken fewer than 2 times.`
    : `Period: ${periodText(content)} (UTC).`;

/** The line under the title: what the report covers and when it was made. */
export const openingText = (content: ReportContent) =>
  `${coverageText(content)} Generated ${content.generatedAt.toISOString()}.`;

/** A report lists the recommended actions of this many pages at most: the first in friction order that have any. */
const ACTION_PAGES = 5;

export const recommendedActions = (ranked: FrictionLine[]) =>
  ranked
    .filter((f) => f.recommended_actions.length > 0)
    .slice(0, ACTION_PAGES)
    .flatMap((f) => f.recommended_actions);

export const subjectOf = (content: ReportContent) => `${content.title}: ${periodText(content)}`;

export const fileNameOf = (content: ReportContent, extension: string) =>
  `${content.type}-${content.period.start}_${content.period.end}.${extension}`;

/** A few plain-text lines: the mail's text body, whatever the format. */
export function summaryText(content: ReportContent): string {
  const lines = [`${content.title}`, coverageText(content), ''];
  if (content.type === 'workflows') {
    lines.push(`${content.goals.length} goals.`);
    for (const g of content.goals) {
      const [first] = topWorkflows(g).shown;
      lines.push(
        `- ${g.goal}: ${minedText(g)}${first ? ` Most frequent path: ${pathText(first.path)} (${percent(first.frequency)}).` : ''}`,
      );
    }
  } else if (content.type === 'feature_intelligence') {
    lines.push(`${content.features.length} features seen.`);
    for (const f of rankFeatures(content.features).slice(0, 5)) {
      lines.push(
        `- ${f.name}: used by ${f.users_used} of ${f.users_saw} users who saw it (${percent(f.engagement_conversion)}), visibility ${percent(f.visibility_rate)}`,
      );
    }
  } else {
    lines.push(`${content.friction.length} pages with activity.`);
    for (const f of rankFriction(content.friction).slice(0, 5)) {
      lines.push(`- ${f.page}: Friction Index ${decimal(f.friction_index, 3)}, ${f.users_affected} users affected`);
    }
  }
  return lines.join('\n');
}
