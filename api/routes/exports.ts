import { type ExportRow, exportById, queueExport } from '../../store/warehouse-exports.js';
import type { ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { publicFailure } from '../../domain/addresses.js';
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
import { ProjectShare } from '../../domain/exports/project-share.js';
import { EXPORT_PROJECT_CONNECTIONS } from '../../lib/config.js';
import { newId } from '../../lib/ids.js';
import { audit } from '../../store/audit-log.js';
import { ApiError, fieldError, notFound } from '../errors.js';
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

export interface ExportLimits {
  /** The streamed exports' own pool (api/server.ts). */
  db: Pool;
  /** A reader that takes nothing for this long is dropped (PI_EXPORT_IDLE_MS). */
  idleMs: number;
  /** Streamed exports of one project at once in this process (PI_EXPORT_PROJECT_CONNECTIONS); the next gets 429. */
  perProject?: number;
}

/** Seconds a project at its share of streamed exports is told to wait: a download of a few MB. */
const EXPORT_RETRY_AFTER_S = 10;

const projectAtShare = (perProject: number) =>
  new ApiError(
    429,
    'rate_limited',
    `This project already has ${perProject} raw-event exports streaming, the most one project may have at once; ` +
      `retry once one of them ends (Retry-After: ${EXPORT_RETRY_AFTER_S} s).`,
    { reason: 'project_exports_running', limit: perProject },
    { 'Retry-After': String(EXPORT_RETRY_AFTER_S) },
  );

/**
 * The export as a response body that ends itself (and so frees its connection) when the reader
 * takes nothing for `idleMs`: the body is only pulled as fast as the client reads, so a paused
 * reader would otherwise hold a pooled connection for as long as it likes.
 */
function idleDropped(
  chunks: AsyncGenerator<string, void, undefined>,
  idleMs: number,
  response: ServerResponse,
  onClose: () => void,
): Readable {
  let pulledAt = Date.now();
  async function* pulled(): AsyncGenerator<string, void, undefined> {
    for await (const chunk of chunks) {
      yield chunk;
      pulledAt = Date.now();
    }
  }
  const body = Readable.from(pulled(), { objectMode: false });
  const watch = setInterval(
    () => {
      if (Date.now() - pulledAt <= idleMs) return;
      // The connection goes too: the reader sees a cut-off file, not one that looks complete.
      response.destroy();
      body.destroy();
    },
    Math.min(1000, idleMs / 2),
  );
  watch.unref();
  body.once('close', () => {
    clearInterval(watch);
    onClose();
  });
  return body;
}

// Rows per cursor read, and so per written chunk. Chunks stay well under V8's large-object size
// (~128 kB): bigger strings go straight to the old generation and pile up until a full GC (1,000
// rows, ~170 kB, made the API's RSS grow by 74 MB over a 1M-row export; 250 rows, 4 MB).
const EXPORT_BATCH_ROWS = 250;

// Never the credentials, nor our addresses or file paths in a failure's text.
const presentExport = (row: ExportRow) => ({
  id: row.export_id,
  destination: row.destination,
  tables: row.tables,
  status: row.status,
  row_counts: row.row_counts,
  error: row.error === null ? null : publicFailure(row.error),
  created_at: row.created_at.toISOString(),
  started_at: row.started_at?.toISOString() ?? null,
  finished_at: row.finished_at?.toISOString() ?? null,
});

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

export function exportRoutes(db: Pool, exports: ExportLimits, secrets: SecretBox): Route[] {
  // Each project a share of the export pool: one tenant's downloads never take every connection.
  let streaming: ProjectShare | undefined;
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
        schema: 'ExportedEvents',
        description: 'attachment: message_id, user_id, event, occurred_at, received_at, properties per row',
      },
      produces: {
        'text/csv': 'format=csv: a header row, then one row per event (properties as JSON text), CRLF line ends',
        [NDJSON_TYPE]: 'format=ndjson: one ExportedEvent JSON object per line',
      },
      errors: {
        400: 'Invalid parameters',
        429: "Rate limit exceeded, or the project's streamed exports at their share (reason project_exports_running; Retry-After)",
      },
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
        const { projectId } = ctx.state.auth;
        streaming ??= new ProjectShare(exports.perProject ?? EXPORT_PROJECT_CONNECTIONS);
        // Refused before it is recorded: a download the project did not get is not in its audit log.
        const release = streaming.take(projectId);
        if (!release) throw projectAtShare(streaming.perProject);
        let chunks: AsyncGenerator<string, void, undefined>;
        let first: IteratorResult<string, void>;
        try {
          await audit(db, ctx, 'export.events_requested', null, { format, ...range.range, event_types: types });
          chunks = exportChunks(exports.db, format, rawExportQuery(projectId, range.range, types));
          // The first chunk is read before answering: a failure up to there is a normal error body.
          first = await chunks.next();
        } catch (err) {
          release();
          throw err;
        }
        ctx.type = contentType(format);
        ctx.attachment(exportFileName(format, range.range));
        // The share is held until the body ends, whether read to its end, dropped idle, or abandoned.
        ctx.body = idleDropped(continueWith(first.done ? '' : first.value, chunks), exports.idleMs, ctx.res, release);
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
        schema: 'WarehouseExport',
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
        const queued = await queueExport(db, {
          projectId: ctx.state.auth.projectId,
          exportId: newId('exp'),
          destination: input.destination,
          credentials: sealPassword(input.credentials, secrets),
          tables: input.tables,
        });
        await audit(db, ctx, 'export.warehouse_queued', queued.export_id, { ...input, credentials: undefined });
        ctx.status = 202;
        ctx.set('Location', `${ctx.path}/${queued.export_id}`);
        ctx.body = presentExport(queued);
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
        schema: 'WarehouseExport',
        description:
          '{ id, destination, tables, status (queued|running|succeeded|failed), row_counts per table, error, created_at, started_at, finished_at }',
      },
      errors: { 404: 'No such export in this project' },
      async handle(ctx) {
        const found = await exportById(db, ctx.state.auth.projectId, pathParam(ctx, 'export_id'));
        if (!found) throw notFound('export');
        ctx.body = presentExport(found);
      },
    }),
  ];
}
