import { DATE_RANGES, parseDateRange } from '../../lib/date-range.js';
import type { Pool } from '../../lib/db.js';
import { newId } from '../../lib/ids.js';
import { ApiError, fieldError, notFound } from '../errors.js';
import { stringParam } from '../query.js';
import { type Route, defineRoute, pathParam } from '../route.js';

export const WAREHOUSE_DESTINATIONS = ['postgres', 'duckdb'] as const;

interface ExportRow {
  export_id: string;
  destination: string;
  tables: string[];
  status: string;
  created_at: Date;
}

const presentExport = (row: ExportRow) => ({
  id: row.export_id,
  destination: row.destination,
  tables: row.tables,
  status: row.status,
  created_at: row.created_at.toISOString(),
});

interface WarehouseInput {
  destination: string;
  credentials: Record<string, string>;
  tables: string[];
}

export function exportRoutes(db: Pool): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/analytics/export/events',
      tag: 'Exports',
      summary: 'Raw-event export (validated; the streaming export is not built yet: 501)',
      scope: 'analytics:read',
      query: [
        {
          name: 'format',
          description: 'csv, json or ndjson',
          schema: { enum: ['csv', 'json', 'ndjson'] },
          required: true,
        },
        {
          name: 'date_range',
          description: 'named range or custom',
          schema: { enum: [...DATE_RANGES] },
          required: true,
        },
        { name: 'start', description: 'YYYY-MM-DD with date_range=custom', schema: { type: 'string', format: 'date' } },
        { name: 'end', description: 'YYYY-MM-DD with date_range=custom', schema: { type: 'string', format: 'date' } },
        { name: 'event_types', description: 'comma-separated event names', schema: { type: 'string' } },
      ],
      success: { status: 501, description: 'not implemented yet (error body)' },
      errors: { 400: 'Invalid parameters' },
      // eslint-disable-next-line @typescript-eslint/require-await
      async handle(ctx) {
        const format = stringParam(ctx, 'format', ['csv', 'json', 'ndjson']);
        if (!format) throw fieldError('format', 'required', 'format (csv, json or ndjson) is required.');
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
        throw new ApiError(501, 'not_implemented', 'Raw-event export is not available yet; the request was valid.', {
          format,
          date_range: range.range,
          event_types: types,
        });
      },
    }),
    defineRoute<WarehouseInput>({
      method: 'POST',
      path: '/analytics/export/warehouse',
      tag: 'Exports',
      summary: 'Queue an export of tables to a warehouse',
      scope: 'admin',
      body: 'warehouse-export.json',
      success: { status: 202, description: '{ id, destination, tables, status: queued, created_at }' },
      async handle(ctx, input) {
        if (!(WAREHOUSE_DESTINATIONS as readonly string[]).includes(input.destination)) {
          throw fieldError(
            'destination',
            'unsupported_destination',
            `Unsupported destination ${input.destination}; supported: ${WAREHOUSE_DESTINATIONS.join(', ')}.`,
            { supported: WAREHOUSE_DESTINATIONS },
          );
        }
        if (input.destination === 'postgres' && !input.credentials.account) {
          throw fieldError(
            'credentials.account',
            'required',
            'credentials.account (host[:port]) is required for postgres.',
          );
        }
        const { rows } = await db.query<ExportRow>(
          `insert into warehouse_exports (project_id, export_id, destination, credentials, tables)
           values ($1, $2, $3, $4, $5) returning *`,
          [ctx.state.auth.projectId, newId('exp'), input.destination, input.credentials, input.tables],
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
      success: { status: 200, description: '{ id, destination, tables, status, created_at }' },
      errors: { 404: 'No such export in this project' },
      async handle(ctx) {
        const { rows } = await db.query<ExportRow>(
          'select * from warehouse_exports where project_id = $1 and export_id = $2',
          [ctx.state.auth.projectId, pathParam(ctx, 'export_id')],
        );
        if (!rows[0]) throw notFound('export');
        ctx.body = presentExport(rows[0]);
      },
    }),
  ];
}
