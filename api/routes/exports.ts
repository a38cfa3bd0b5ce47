import { Readable } from 'node:stream';
import { DATE_RANGES, parseDateRange } from '../../domain/date-range.js';
import type { Pool } from '../../lib/db.js';
import {
  WAREHOUSE_DESTINATIONS,
  type WarehouseCredentials,
  type WarehouseDestination,
  checkCredentials,
} from '../../domain/exports/credentials.js';
import { queryBatches } from '../../lib/db-cursor.js';
import {
  EXPORT_FORMATS,
  type ExportFormat,
  NDJSON_TYPE,
  type RawExportRow,
  chooseFormat,
  contentType,
  exportEnd,
  exportFileName,
  exportStart,
  formatBatch,
  rawExportQuery,
} from '../../domain/exports/raw-events.js';
import { newId } from '../../lib/ids.js';
import { fieldError, notFound } from '../errors.js';
import { stringParam } from '../query.js';
import { type Route, defineRoute, pathParam } from '../route.js';
import { SEALED, type SecretBox } from '../../lib/secret-box.js';

/**
 * The export file as text chunks, one per cursor batch. The pooled client is held until the
 * generator ends, fails or is returned (Koa destroys the body stream when the client goes away).
 */
async function* exportChunks(
  db: Pool,
  format: ExportFormat,
  query: { text: string; values: unknown[] },
): AsyncGenerator<string, void, undefined> {
  const client = await db.connect();
  // A connection that dies mid-export (server restart, terminated backend) errors the query, and
  // its socket errors too: unheard, that second error would crash the process.
  const ignore = () => undefined;
  client.on('error', ignore);
  let complete = false;
  try {
    let rows = 0;
    let chunk = exportStart(format);
    for await (const batch of queryBatches<RawExportRow>(client, query.text, query.values, EXPORT_BATCH_ROWS)) {
      yield chunk + formatBatch(format, batch, rows);
      rows += batch.length;
      chunk = '';
    }
    yield chunk + exportEnd(format);
    complete = true;
  } finally {
    // A cursor abandoned half-way is closed by queryBatches; the connection is dropped all the
    // same rather than handed back in a state we did not see through.
    client.off('error', ignore);
    client.release(!complete);
  }
}

async function* continueWith<T>(
  first: T,
  rest: AsyncGenerator<T, void, undefined>,
): AsyncGenerator<T, void, undefined> {
  try {
    yield first;
    yield* rest;
  } finally {
    await rest.return();
  }
}

// Rows per cursor read, and so per written chunk. Chunks stay well under V8's large-object size
// (~128 kB): bigger strings go straight to the old generation and pile up until a full GC (1,000
// rows, ~170 kB, made the API's RSS grow by 74 MB over a 1M-row export; 250 rows, 4 MB).
const EXPORT_BATCH_ROWS = 250;

interface ExportRow {
  export_id: string;
  destination: string;
  tables: string[];
  status: string;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  row_counts: Record<string, number>;
  error: string | null;
}

// Never the credentials.
const presentExport = (row: ExportRow) => ({
  id: row.export_id,
  destination: row.destination,
  tables: row.tables,
  status: row.status,
  row_counts: row.row_counts,
  error: row.error,
  created_at: row.created_at.toISOString(),
  started_at: row.started_at?.toISOString() ?? null,
  finished_at: row.finished_at?.toISOString() ?? null,
});

const EXPORT_COLUMNS = 'export_id, destination, tables, status, created_at, started_at, finished_at, row_counts, error';

/** Credentials as stored: the password sealed (the worker opens it, and wipes it when the export ends). */
const sealPassword = (credentials: WarehouseCredentials, secrets: SecretBox): WarehouseCredentials =>
  credentials.password === undefined
    ? credentials
    : { ...credentials, password: secrets.seal(credentials.password, SEALED.warehousePassword) };

interface WarehouseInput {
  destination: string;
  credentials: WarehouseCredentials;
  tables: string[];
}

export function exportRoutes(db: Pool, secrets: SecretBox): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/analytics/export/events',
      tag: 'Exports',
      summary: 'Raw events of a date range as a CSV, JSON or NDJSON file (streamed)',
      scope: 'analytics:read',
      query: [
        {
          name: 'format',
          description: `csv, json or ndjson; may be omitted with Accept: ${NDJSON_TYPE}`,
          schema: { enum: [...EXPORT_FORMATS] },
        },
        {
          name: 'date_range',
          description: 'last_7_days, last_30_days, last_90_days (ending today, UTC) or custom',
          schema: { enum: [...DATE_RANGES] },
          required: true,
        },
        { name: 'start', description: 'YYYY-MM-DD with date_range=custom', schema: { type: 'string', format: 'date' } },
        { name: 'end', description: 'YYYY-MM-DD with date_range=custom', schema: { type: 'string', format: 'date' } },
        { name: 'event_types', description: 'comma-separated event names', schema: { type: 'string' } },
      ],
      success: {
        status: 200,
        description: 'attachment: message_id, user_id, event, occurred_at, received_at, properties per row',
      },
      produces: ['text/csv', NDJSON_TYPE],
      errors: { 400: 'Invalid parameters' },
      async handle(ctx) {
        const format = chooseFormat(
          stringParam(ctx, 'format', EXPORT_FORMATS) as ExportFormat | undefined,
          ctx.get('Accept'),
        );
        if (!format) {
          throw fieldError(
            'format',
            'required',
            `format (csv, json or ndjson) is required unless Accept: ${NDJSON_TYPE}.`,
          );
        }
        const range = parseDateRange(
          stringParam(ctx, 'date_range') ?? '',
          stringParam(ctx, 'start'),
          stringParam(ctx, 'end'),
        );
        if ('field' in range) {
          throw fieldError(
            ctx.query.date_range === undefined ? 'date_range' : range.field,
            ctx.query.date_range === undefined ? 'required' : range.reason,
            range.message,
          );
        }
        const types = (stringParam(ctx, 'event_types') ?? '').split(',').filter(Boolean);
        if (types.some((t) => t.length > 255))
          throw fieldError('event_types', 'invalid_value', 'event names are at most 255 characters.');

        const chunks = exportChunks(db, format, rawExportQuery(ctx.state.auth.projectId, range.range, types));
        // The first chunk is read before answering: a failure up to there is a normal error body.
        const first = await chunks.next();
        ctx.type = contentType(format);
        ctx.attachment(exportFileName(format, range.range));
        ctx.body = Readable.from(continueWith(first.done ? '' : first.value, chunks), { objectMode: false });
      },
    }),
    defineRoute<WarehouseInput>({
      method: 'POST',
      path: '/analytics/export/warehouse',
      tag: 'Exports',
      summary: 'Queue an export of tables to a warehouse',
      scope: 'admin',
      body: 'warehouse-export.json',
      success: {
        status: 202,
        description:
          '{ id, destination, tables, status: queued, row_counts, error, created_at, started_at, finished_at }',
      },
      errors: {
        400: 'Invalid body, unsupported destination or table, DuckDB file or Parquet folder outside the export folder',
      },
      async handle(ctx, input) {
        if (!(WAREHOUSE_DESTINATIONS as readonly string[]).includes(input.destination)) {
          throw fieldError(
            'destination',
            'unsupported_destination',
            `Unsupported destination ${input.destination}; supported: ${WAREHOUSE_DESTINATIONS.join(', ')}.`,
            { supported: WAREHOUSE_DESTINATIONS },
          );
        }
        const problem = checkCredentials(input.destination as WarehouseDestination, input.credentials);
        if (problem) throw fieldError(problem.field, problem.reason, problem.message);
        const { rows } = await db.query<ExportRow>(
          `insert into warehouse_exports (project_id, export_id, destination, credentials, tables)
           values ($1, $2, $3, $4, $5) returning ${EXPORT_COLUMNS}`,
          [
            ctx.state.auth.projectId,
            newId('exp'),
            input.destination,
            sealPassword(input.credentials, secrets),
            input.tables,
          ],
        );
        ctx.status = 202;
        ctx.set('Location', `${ctx.path}/${rows[0]!.export_id}`);
        ctx.body = presentExport(rows[0]!);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/analytics/export/warehouse/:export_id',
      tag: 'Exports',
      summary: 'Status of a warehouse export',
      scope: 'analytics:read',
      success: {
        status: 200,
        description:
          '{ id, destination, tables, status (queued|running|succeeded|failed), row_counts per table, error, created_at, started_at, finished_at }',
      },
      errors: { 404: 'No such export in this project' },
      async handle(ctx) {
        const { rows } = await db.query<ExportRow>(
          `select ${EXPORT_COLUMNS} from warehouse_exports where project_id = $1 and export_id = $2`,
          [ctx.state.auth.projectId, pathParam(ctx, 'export_id')],
        );
        if (!rows[0]) throw notFound('export');
        ctx.body = presentExport(rows[0]);
      },
    }),
  ];
}
