import type { Pool } from '../../lib/db.js';
import { newId } from '../../lib/ids.js';
import { type Route, defineRoute } from '../route.js';

interface ReportInput {
  name: string;
  type: string;
  schedule: string;
  format?: string;
  recipients: string[];
}

export function reportRoutes(db: Pool): Route[] {
  return [
    defineRoute<ReportInput>({
      method: 'POST',
      path: '/analytics/reports',
      tag: 'Reports',
      summary: 'Schedule a report; stored and queued (rendering and mailing arrive with the reports worker)',
      scope: 'admin',
      body: 'report-create.json',
      success: {
        status: 202,
        description: '{ id, name, type, schedule, format, recipients, status: queued, created_at }',
      },
      async handle(ctx, input) {
        const { rows } = await db.query<{ report_id: string; status: string; created_at: Date; format: string }>(
          `insert into reports (project_id, report_id, name, type, schedule, format, recipients)
           values ($1, $2, $3, $4, $5, $6, $7) returning report_id, status, created_at, format`,
          [
            ctx.state.auth.projectId,
            newId('rep'),
            input.name,
            input.type,
            input.schedule,
            input.format ?? 'pdf',
            input.recipients,
          ],
        );
        const row = rows[0]!;
        ctx.status = 202;
        ctx.body = {
          id: row.report_id,
          name: input.name,
          type: input.type,
          schedule: input.schedule,
          format: row.format,
          recipients: input.recipients,
          status: row.status,
          created_at: row.created_at.toISOString(),
        };
      },
    }),
  ];
}
