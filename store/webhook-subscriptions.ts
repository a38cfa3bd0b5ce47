import type { Pool } from '../lib/db.js';
import { type PageWindow, pageOf } from './pages.js';

/** webhook_subscriptions as the admin API keeps them (api/routes/webhooks.ts); secrets are stored sealed. */

/** A subscription as stored (paused: no new deliveries, queued ones held; sql/migrations/36_webhook_pause.sql). */
export interface WebhookRow {
  webhook_id: string;
  url: string;
  events: string[];
  status: 'active' | 'paused';
  created_at: Date;
  updated_at: Date;
}

/** Inserts a subscription (its secret sealed by the caller). */
export async function insertSubscription(
  db: Pool,
  row: { projectId: string; webhookId: string; url: string; events: string[]; sealedSecret: string },
): Promise<WebhookRow> {
  const { rows } = await db.query<WebhookRow>(
    `insert into webhook_subscriptions (project_id, webhook_id, url, events, secret)
     values ($1, $2, $3, $4, $5) returning *`,
    [row.projectId, row.webhookId, row.url, row.events, row.sealedSecret],
  );
  return rows[0]!;
}

/** Reads a page of a project's subscriptions, newest first, and their total. */
export async function subscriptionPage(db: Pool, projectId: string, page: PageWindow) {
  return pageOf<WebhookRow>(
    db,
    { columns: '*', from: 'webhook_subscriptions', where: 'project_id = $1', order: 'created_at desc, webhook_id' },
    [projectId],
    page,
  );
}

/** Deletes a subscription; whether it existed. */
export async function deleteSubscription(db: Pool, projectId: string, webhookId: string): Promise<boolean> {
  const { rowCount } = await db.query('delete from webhook_subscriptions where project_id = $1 and webhook_id = $2', [
    projectId,
    webhookId,
  ]);
  return rowCount !== 0;
}

/** Reads one subscription. */
export async function subscription(db: Pool, projectId: string, webhookId: string): Promise<WebhookRow | undefined> {
  const { rows } = await db.query<WebhookRow>(
    'select * from webhook_subscriptions where project_id = $1 and webhook_id = $2',
    [projectId, webhookId],
  );
  return rows[0];
}

/** Whether the project has this subscription. */
export async function subscriptionExists(db: Pool, projectId: string, webhookId: string): Promise<boolean> {
  const { rowCount } = await db.query('select 1 from webhook_subscriptions where project_id = $1 and webhook_id = $2', [
    projectId,
    webhookId,
  ]);
  return rowCount !== 0;
}

/** Updates a subscription's URL, events and status where given (null keeps the stored value). */
export async function updateSubscription(
  db: Pool,
  projectId: string,
  webhookId: string,
  change: { url: string | null; events: string[] | null; status: WebhookRow['status'] | null },
): Promise<WebhookRow | undefined> {
  const { rows } = await db.query<WebhookRow>(
    `update webhook_subscriptions
     set url = coalesce($3, url), events = coalesce($4, events), status = coalesce($5, status), updated_at = now()
     where project_id = $1 and webhook_id = $2 returning *`,
    [projectId, webhookId, change.url, change.events, change.status],
  );
  return rows[0];
}
