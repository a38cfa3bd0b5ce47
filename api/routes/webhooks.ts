import crypto from 'node:crypto';
import type { Pool } from '../../lib/db.js';
import { newId } from '../../lib/ids.js';
import { audit } from '../../store/audit-log.js';
import {
  type DeliveryRow,
  delivery,
  deliveryAttempts,
  deliveryExists,
  deliveryPage,
  queueTestDelivery,
  redeliver,
} from '../../store/webhook-deliveries.js';
import {
  type WebhookRow,
  deleteSubscription,
  insertSubscription,
  subscription,
  subscriptionExists,
  subscriptionPage,
  updateSubscription,
} from '../../store/webhook-subscriptions.js';
import { type TargetPolicy, urlProblem } from '../../lib/targets.js';
import { publicFailure } from '../../domain/addresses.js';
import { ApiError, fieldError, notFound } from '../errors.js';
import { PAGING_PARAMS, pageFields, paging, stringParam } from '../query.js';
import { type Route, defineRoute, pathParam } from '../route.js';
import { SEALED, type SecretBox } from '../../lib/secret-box.js';

type WebhookStatus = WebhookRow['status'];

const present = (row: WebhookRow) => ({
  id: row.webhook_id,
  url: row.url,
  events: row.events,
  status: row.status,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** A PATCH body (webhook-update.json): the read-only fields of a subscription as read are accepted. */
interface WebhookUpdate {
  url?: string;
  events?: string[];
  status?: WebhookStatus;
  id?: string;
  created_at?: string;
  updated_at?: string;
}

/** Deliveries go to public HTTPS endpoints only (the sender checks resolved addresses again). */
export function checkWebhookUrl(raw: string, targets: TargetPolicy): string {
  const url = new URL(raw);
  const problem = urlProblem(url, targets);
  if (problem) throw fieldError('url', problem.reason, problem.message);
  return url.toString();
}

export function newWebhookSecret(): string {
  return `whsec_${crypto.randomBytes(32).toString('base64')}`;
}

const presentDelivery = (row: DeliveryRow) => ({
  id: row.delivery_id,
  target: row.target,
  webhook_id: row.webhook_id,
  event: row.event,
  status: row.status,
  attempts: row.attempts,
  next_attempt_at: row.status === 'pending' ? row.next_attempt_at.toISOString() : null,
  last_status: row.last_status,
  // A delivery's errors name what the sender resolved (an internal name's private address): never shown.
  last_error: row.last_error === null ? null : publicFailure(row.last_error),
  created_at: row.created_at.toISOString(),
  finished_at: row.finished_at?.toISOString() ?? null,
});

const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'];
const DELIVERY_TARGETS = ['subscription', 'integration'];

export function webhookRoutes(db: Pool, targets: TargetPolicy, secrets: SecretBox): Route[] {
  return [
    defineRoute<{ url: string; events: string[] }>({
      method: 'POST',
      path: '/webhooks',
      tag: 'Webhooks',
      summary: 'Subscribe an HTTPS endpoint to service events; the signing secret is shown once',
      scope: 'admin',
      body: 'webhook-create.json',
      success: {
        status: 201,
        schema: 'WebhookCreated',
        description: '{ id, url, events, secret (whsec_…, Standard Webhooks), created_at }',
      },
      async handle(ctx, input) {
        const url = checkWebhookUrl(input.url, targets);
        const secret = newWebhookSecret();
        const row = await insertSubscription(db, {
          projectId: ctx.state.auth.projectId,
          webhookId: newId('wh'),
          url,
          events: input.events,
          sealedSecret: secrets.seal(secret, SEALED.webhookSecret),
        });
        await audit(db, ctx, 'webhook.created', row.webhook_id, { url, events: input.events });
        ctx.status = 201;
        ctx.body = { ...present(row), secret };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/webhooks',
      tag: 'Webhooks',
      summary: 'List webhook subscriptions (without secrets)',
      scope: 'admin',
      query: PAGING_PARAMS,
      success: {
        status: 200,
        schema: 'WebhookList',
        description: '{ webhooks, total, page_number, page, per_page, next }',
      },
      async handle(ctx) {
        const paged = paging(ctx);
        const { projectId } = ctx.state.auth;
        const { rows, total } = await subscriptionPage(db, projectId, paged);
        ctx.body = { webhooks: rows.map(present), ...pageFields(paged, total) };
      },
    }),
    defineRoute({
      method: 'DELETE',
      path: '/webhooks/:webhook_id',
      tag: 'Webhooks',
      summary: 'Remove a webhook subscription',
      scope: 'admin',
      success: { status: 200, schema: 'Deleted', description: '{ id, deleted: true }' },
      errors: { 404: 'No such subscription in this project' },
      async handle(ctx) {
        if (!(await deleteSubscription(db, ctx.state.auth.projectId, pathParam(ctx, 'webhook_id')))) {
          throw notFound('webhook subscription');
        }
        await audit(db, ctx, 'webhook.deleted', pathParam(ctx, 'webhook_id'));
        ctx.body = { id: pathParam(ctx, 'webhook_id'), deleted: true };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/webhooks/deliveries',
      tag: 'Webhooks',
      summary: 'The delivery log: every delivery of subscriptions and of the integration endpoint, newest first',
      scope: 'admin',
      query: [
        ...PAGING_PARAMS,
        { name: 'status', description: 'pending, succeeded or failed', schema: { enum: DELIVERY_STATUSES } },
        { name: 'webhook_id', description: 'only this subscription', schema: { type: 'string' } },
        { name: 'target', description: 'subscription or integration', schema: { enum: DELIVERY_TARGETS } },
      ],
      success: {
        status: 200,
        schema: 'DeliveryList',
        description: '{ deliveries, total, page_number, page, per_page, next }',
      },
      async handle(ctx) {
        const paged = paging(ctx);
        const status = stringParam(ctx, 'status', DELIVERY_STATUSES);
        const webhookId = stringParam(ctx, 'webhook_id');
        const target = stringParam(ctx, 'target', DELIVERY_TARGETS);
        const { rows, total } = await deliveryPage(
          db,
          ctx.state.auth.projectId,
          { status: status ?? null, webhookId: webhookId ?? null, target: target ?? null },
          paged,
        );
        ctx.body = { deliveries: rows.map(presentDelivery), ...pageFields(paged, total) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/webhooks/deliveries/:delivery_id',
      tag: 'Webhooks',
      summary: 'One delivery with its payload and every attempt (time, status, error)',
      scope: 'admin',
      success: {
        status: 200,
        schema: 'DeliveryDetail',
        description: '{ id, …, payload, attempt_log: [{ attempt, url, started_at, duration_ms, status, error }] }',
      },
      errors: { 404: 'No such delivery in this project' },
      async handle(ctx) {
        const { projectId } = ctx.state.auth;
        const id = pathParam(ctx, 'delivery_id');
        const row = await delivery(db, projectId, id);
        if (!row) throw notFound('delivery');
        const attempts = await deliveryAttempts(db, projectId, id);
        ctx.body = {
          ...presentDelivery(row),
          payload: row.payload,
          attempt_log: attempts.map((a) => ({
            ...a,
            started_at: a.started_at.toISOString(),
            error: a.error === null ? null : publicFailure(a.error),
          })),
        };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/webhooks/deliveries/:delivery_id/redeliver',
      tag: 'Webhooks',
      summary: 'Send a delivery again, with the same webhook-id and a fresh round of retries',
      scope: 'admin',
      success: { status: 202, schema: 'Delivery', description: 'the delivery, pending again' },
      errors: { 404: 'No such delivery in this project', 409: 'The delivery is already pending' },
      async handle(ctx) {
        const { projectId } = ctx.state.auth;
        const id = pathParam(ctx, 'delivery_id');
        const row = await redeliver(db, projectId, id);
        if (!row) {
          if (!(await deliveryExists(db, projectId, id))) throw notFound('delivery');
          throw new ApiError(409, 'conflict', 'The delivery is pending already; it will be attempted as scheduled.', {
            reason: 'already_pending',
          });
        }
        ctx.status = 202;
        ctx.body = presentDelivery(row);
      },
    }),
    // After /webhooks/deliveries: the router answers with the first route declared that matches.
    defineRoute({
      method: 'GET',
      path: '/webhooks/:webhook_id',
      tag: 'Webhooks',
      summary: 'One webhook subscription (without its secret), as listed',
      scope: 'admin',
      success: { status: 200, schema: 'Webhook', description: '{ id, url, events, status, created_at, updated_at }' },
      errors: { 404: 'No such subscription in this project' },
      async handle(ctx) {
        const row = await subscription(db, ctx.state.auth.projectId, pathParam(ctx, 'webhook_id'));
        if (!row) throw notFound('webhook subscription');
        ctx.body = present(row);
      },
    }),
    defineRoute<WebhookUpdate>({
      method: 'PATCH',
      path: '/webhooks/:webhook_id',
      tag: 'Webhooks',
      summary:
        'Change the URL or events of a subscription, or pause (status paused: no new deliveries, queued ones held) and resume it',
      scope: 'admin',
      body: 'webhook-update.json',
      success: { status: 200, schema: 'Webhook', description: 'the subscription after the update' },
      errors: {
        400: 'The URL is refused as at creation (https only, no credentials, no private target), or id names another subscription',
        404: 'No such subscription in this project',
      },
      async handle(ctx, input) {
        const webhookId = pathParam(ctx, 'webhook_id');
        const url = input.url === undefined ? null : checkWebhookUrl(input.url, targets);
        // Checked before the update, so a refused body changes nothing; an unknown id is a 404 first.
        if (input.id !== undefined && input.id !== webhookId) {
          if (!(await subscriptionExists(db, ctx.state.auth.projectId, webhookId))) {
            throw notFound('webhook subscription');
          }
          throw fieldError(
            'id',
            'invalid_value',
            `id is read-only: this is subscription ${webhookId}, not ${input.id}.`,
          );
        }
        const row = await updateSubscription(db, ctx.state.auth.projectId, webhookId, {
          url,
          events: input.events ?? null,
          status: input.status ?? null,
        });
        if (!row) throw notFound('webhook subscription');
        await audit(db, ctx, 'webhook.changed', webhookId, { ...input });
        ctx.body = present(row);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/webhooks/:webhook_id/test',
      tag: 'Webhooks',
      summary:
        'Queue a signed test delivery (event "test") to a subscription, sent even while it is paused; it is logged like every delivery',
      scope: 'admin',
      success: {
        status: 202,
        schema: 'WebhookTest',
        description: '{ delivery_id, webhook_id, event: "test", status: "pending" }',
      },
      errors: { 404: 'No such subscription in this project' },
      async handle(ctx) {
        // The payload has the shape of the subscription's other deliveries: { event, data, timestamp }.
        const queued = await queueTestDelivery(db, ctx.state.auth.projectId, pathParam(ctx, 'webhook_id'));
        if (!queued) throw notFound('webhook subscription');
        ctx.status = 202;
        ctx.body = {
          delivery_id: queued.delivery_id,
          webhook_id: queued.webhook_id,
          event: 'test',
          status: 'pending',
        };
      },
    }),
  ];
}
