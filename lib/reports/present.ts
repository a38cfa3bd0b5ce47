import type { Quadrant } from '../metrics.js';
import type { FeatureLine, FrictionLine, ReportContent } from './data.js';

/** Ordering, labels and number formats every report format shares. */

export const QUADRANTS: { quadrant: Quadrant; label: string }[] = [
  { quadrant: 'high_visibility_high_usage', label: 'High visibility, high usage' },
  { quadrant: 'low_visibility_high_usage', label: 'Low visibility, high usage (hidden gems)' },
  { quadrant: 'high_visibility_low_usage', label: 'High visibility, low usage' },
  { quadrant: 'low_visibility_low_usage', label: 'Low visibility, low usage' },
];

const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

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

export const periodText = (content: ReportContent) =>
  content.period.start === content.period.end
    ? content.period.start
    : `${content.period.start} to ${content.period.end}`;

export const subjectOf = (content: ReportContent) => `${content.title}: ${periodText(content)}`;

export const fileNameOf = (content: ReportContent, extension: string) =>
  `${content.type}-${content.period.start}_${content.period.end}.${extension}`;

/** A few plain-text lines: the mail's text body, whatever the format. */
export function summaryText(content: ReportContent): string {
  const lines = [`${content.title}`, `Period: ${periodText(content)} (UTC)`, ''];
  if (content.type === 'feature_intelligence') {
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
