import { stringify } from 'csv-stringify/sync';
import { CSV_DIALECT } from '../../domain/csv.js';
import { round } from '../../domain/metrics.js';
import type { ReportContent } from './data.js';
import { morePaths, pathText, rankFeatures, rankFriction, topWorkflows } from './present.js';

const OPTIONS = { ...CSV_DIALECT, header: true } as const;

/**
 * Each goal's listed workflows, then one row for the paths not listed (no workflow_id; only
 * occurrences and frequency, summed). computed_at: when the goal was mined (all history).
 */
function workflowRows(content: ReportContent & { type: 'workflows' }): Record<string, unknown>[] {
  return content.goals.flatMap((g) => {
    const { shown, more } = topWorkflows(g);
    const computed_at = g.computed_at?.toISOString();
    const rows: Record<string, unknown>[] = shown.map((w) => ({
      goal: g.goal,
      computed_at,
      ...w,
      path: pathText(w.path),
    }));
    if (more) {
      rows.push({
        goal: g.goal,
        computed_at,
        path: `(${morePaths(more)})`,
        occurrences: more.occurrences,
        frequency: round(more.frequency),
      });
    }
    return rows;
  });
}

/**
 * The report's rows with the API's field names and unformatted values (ratios as decimals), so
 * a spreadsheet gets the same numbers as GET /analytics/features, /friction or /workflows.
 */
export function renderCsv(content: ReportContent): string {
  if (content.type === 'workflows') {
    return stringify(workflowRows(content), {
      ...OPTIONS,
      columns: [
        'goal',
        'computed_at',
        'workflow_id',
        'path',
        'frequency',
        'occurrences',
        'users',
        'completion_rate',
        'avg_time',
        'efficiency_score',
      ],
    });
  }
  if (content.type === 'feature_intelligence') {
    return stringify(
      rankFeatures(content.features).map((f) => ({ ...f })),
      {
        ...OPTIONS,
        columns: [
          'name',
          'quadrant',
          'visibility_rate',
          'engagement_conversion',
          'discovery_gap_score',
          'users_saw',
          'users_used',
          'avg_days_to_discovery',
        ],
      },
    );
  }
  return stringify(
    rankFriction(content.friction).map((f) => ({ ...f, recommended_actions: f.recommended_actions.join(' | ') })),
    {
      ...OPTIONS,
      columns: [
        'page',
        'friction_index',
        'dead_clicks',
        'rage_clicks',
        'confusion_loops',
        'avg_idle_time',
        'users_affected',
        'recommended_actions',
      ],
    },
  );
}
