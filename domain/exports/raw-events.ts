import { stringify } from 'csv-stringify/sync';
import { CSV_DIALECT } from '../csv.js';
import type { DateRange } from '../date-range.js';
import { DAY_MS } from '../time.js';

/** The raw-event export: what is selected, how a row is written in each format, how the file is named. */
export const EXPORT_FORMATS = ['csv', 'json', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const NDJSON_TYPE = 'application/x-ndjson';

const CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  json: 'application/json; charset=utf-8',
  ndjson: NDJSON_TYPE,
};

export const RAW_EXPORT_COLUMNS = [
  'message_id',
  'user_id',
  'event',
  'occurred_at',
  'received_at',
  'properties',
] as const;

/** A raw_events row as the export query returns it (properties as its JSON text). */
export interface RawExportRow {
  message_id: string;
  user_id: string;
  event: string;
  occurred_at: Date;
  received_at: Date;
  properties: string;
}

/**
 * `format` wins; without it, an Accept that names NDJSON asks for NDJSON. undefined = neither
 * (the caller answers 400).
 */
export function chooseFormat(format: ExportFormat | undefined, accept: string | undefined): ExportFormat | undefined {
  if (format) return format;
  const types = (accept ?? '').split(',').map((t) => t.split(';')[0]!.trim().toLowerCase());
  return types.includes(NDJSON_TYPE) ? 'ndjson' : undefined;
}

export const contentType = (format: ExportFormat) => CONTENT_TYPES[format];

/** events_2026-03-01_2026-03-07.csv: the range in the name, so exports of several ranges do not overwrite each other. */
export const exportFileName = (format: ExportFormat, range: DateRange) =>
  `events_${range.start}_${range.end}.${format}`;

/** The query of one export: rows of the project, the UTC days of the range (both included), the event names. */
export function rawExportQuery(
  projectId: string,
  range: DateRange,
  eventTypes: string[],
): { text: string; values: unknown[] } {
  const from = `${range.start}T00:00:00.000Z`;
  const until = new Date(Date.parse(`${range.end}T00:00:00.000Z`) + DAY_MS).toISOString();
  return {
    text: `select message_id, user_id, event, occurred_at, received_at, properties::text as properties
           from raw_events
           where project_id = $1 and occurred_at >= $2 and occurred_at < $3
             and (cardinality($4::text[]) = 0 or event = any($4::text[]))
           order by occurred_at, message_id`,
    values: [projectId, from, until, eventTypes],
  };
}

const csvRecord = (row: RawExportRow) => [
  row.message_id,
  row.user_id,
  row.event,
  row.occurred_at.toISOString(),
  row.received_at.toISOString(),
  row.properties,
];

// properties is already JSON text (jsonb's own output): spliced in, not parsed and re-encoded.
const jsonObject = (row: RawExportRow) =>
  `{"message_id":${JSON.stringify(row.message_id)},"user_id":${JSON.stringify(row.user_id)},` +
  `"event":${JSON.stringify(row.event)},"occurred_at":"${row.occurred_at.toISOString()}",` +
  `"received_at":"${row.received_at.toISOString()}","properties":${row.properties}}`;

const CSV_OPTIONS = { ...CSV_DIALECT, columns: [...RAW_EXPORT_COLUMNS] } as const;

/** The text an export file starts with (CSV header, JSON "["), written before any row. */
export function exportStart(format: ExportFormat): string {
  if (format === 'csv') return stringify([], { ...CSV_OPTIONS, header: true });
  return format === 'json' ? '[' : '';
}

/**
 * One batch of rows as text; `rowsBefore` = rows already written (JSON separates with commas).
 * A whole file is exportStart, the batches in order, then exportEnd.
 */
export function formatBatch(format: ExportFormat, rows: RawExportRow[], rowsBefore: number): string {
  switch (format) {
    case 'csv':
      return stringify(rows.map(csvRecord), CSV_OPTIONS);
    case 'json': {
      const body = rows.map(jsonObject).join(',');
      return rowsBefore > 0 && body ? `,${body}` : body;
    }
    case 'ndjson':
      return rows.map((row) => `${jsonObject(row)}\n`).join('');
  }
}

export const exportEnd = (format: ExportFormat) => (format === 'json' ? ']' : '');
