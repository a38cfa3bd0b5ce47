import { featureTotals, metricsOf } from '../../store/feature-usage.js';
import { recommendedActions } from '../../domain/friction/actions.js';
import { pageTotals } from '../../store/friction-points.js';
import { round } from '../../domain/metrics.js';
import { projectAnalyticsConfig } from '../../store/project-config.js';
import { goalsWithWorkflows } from '../../store/workflows.js';
import type { DateRange } from '../../domain/date-range.js';
import type { Pool } from '../../lib/db.js';
import { frictionIndex } from '../../domain/friction/index.js';
import { type Quadrant, quadrant } from '../../domain/metrics.js';

/** schemas/report-create.json admits no other type. */
export type ReportType = 'feature_intelligence' | 'friction' | 'workflows';
export const REPORT_FORMATS = ['pdf', 'csv', 'html'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

/** A feature as GET /analytics/features presents it (without the UI context). */
export interface FeatureLine {
  name: string;
  quadrant: Quadrant;
  visibility_rate: number;
  engagement_conversion: number;
  discovery_gap_score: number;
  users_saw: number;
  users_used: number;
  avg_days_to_discovery: number;
}

/** A page-level friction point as GET /analytics/friction presents it (element `*`). */
export interface FrictionLine {
  page: string;
  friction_index: number;
  dead_clicks: number;
  rage_clicks: number;
  confusion_loops: number;
  avg_idle_time: number;
  users_affected: number;
  recommended_actions: string[];
}

/** A workflow as GET /analytics/workflows presents it. */
export interface WorkflowLine {
  workflow_id: string;
  path: string[];
  frequency: number;
  occurrences: number;
  users: number;
  completion_rate: number;
  avg_time: number;
  efficiency_score: number;
}

/** A goal kept for the project (workflow_goals) with its workflows in their stored rank order. */
export interface GoalLine {
  goal: string;
  /** When its workflows were last mined, over all the project's history; null: not mined yet. */
  computed_at: Date | null;
  completions: number;
  workflows: WorkflowLine[];
}

interface Heading {
  /** The report's name. */
  title: string;
  period: DateRange;
  generatedAt: Date;
}

export type ReportContent =
  | (Heading & { type: 'feature_intelligence'; features: FeatureLine[] })
  | (Heading & { type: 'friction'; friction: FrictionLine[] })
  | (Heading & { type: 'workflows'; goals: GoalLine[] });

/** Workflows are not kept per day: the latest mining of each goal, whatever the period. */
async function gatherWorkflows(db: Pool, projectId: string): Promise<GoalLine[]> {
  const rows = await goalsWithWorkflows(db, projectId);
  const goals = new Map<string, GoalLine>();
  for (const { goal, computed_at, completions, ...w } of rows) {
    const line = goals.get(goal) ?? { goal, computed_at, completions, workflows: [] };
    goals.set(goal, line);
    if (w.workflow_id === null) continue;
    // 9 decimals, as GET /analytics/workflows answers them.
    const { frequency, completion_rate, avg_time, efficiency_score } = w as WorkflowLine;
    line.workflows.push({
      ...(w as WorkflowLine),
      frequency: round(frequency),
      completion_rate: round(completion_rate),
      avg_time: round(avg_time),
      efficiency_score: round(efficiency_score),
    });
  }
  return [...goals.values()];
}

/** What a report says, read from the same tables and formulas as the analytics API. */
export async function gatherReport(
  db: Pool,
  projectId: string,
  report: { name: string; type: ReportType },
  period: DateRange,
  generatedAt: Date,
): Promise<ReportContent> {
  const heading = { title: report.name, period, generatedAt };
  if (report.type === 'workflows')
    return { ...heading, type: 'workflows', goals: await gatherWorkflows(db, projectId) };
  const config = await projectAnalyticsConfig(db, projectId);
  if (report.type === 'feature_intelligence') {
    const rows = await featureTotals(db, projectId, period, null);
    const features = rows.map((row): FeatureLine => {
      const m = metricsOf(row);
      return {
        name: row.feature,
        quadrant: quadrant(m.vr, m.ec, config.quadrant),
        visibility_rate: round(m.vr),
        engagement_conversion: round(m.ec),
        discovery_gap_score: round(m.dgs),
        users_saw: row.users_saw,
        users_used: row.users_used,
        avg_days_to_discovery: round(m.days),
      };
    });
    return { ...heading, type: 'feature_intelligence', features };
  }
  const pages = await pageTotals(db, projectId, period.start, period.end, null);
  const friction = pages.map((p): FrictionLine => ({
    page: p.page,
    friction_index: round(frictionIndex(p, config.weights)),
    dead_clicks: p.dead_clicks,
    rage_clicks: p.rage_episodes,
    confusion_loops: p.loops,
    avg_idle_time: p.idle_gaps > 0 ? round(p.idle_ms / p.idle_gaps / 1000) : 0,
    users_affected: p.users_affected,
    recommended_actions: recommendedActions(p.page, null, p, config),
  }));
  return { ...heading, type: 'friction', friction };
}
