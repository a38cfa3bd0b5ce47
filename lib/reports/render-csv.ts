import { stringify } from 'csv-stringify/sync';
import type { ReportContent } from './data.js';
import { rankFeatures, rankFriction } from './present.js';

// RFC 4180 lines (CRLF); fields with a lone CR or LF are quoted too. Names come from tracked
// events, so a leading = + - @ is neutralised for spreadsheets (csv-stringify's escape_formulas).
const OPTIONS = { header: true, record_delimiter: 'windows', quoted_match: /[\r\n]/, escape_formulas: true } as const;

/**
 * The report's rows with the API's field names and unformatted values (ratios as decimals), so
 * a spreadsheet gets the same numbers as GET /analytics/features or /analytics/friction.
 */
export function renderCsv(content: ReportContent): string {
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
