import type { Pool, PoolClient } from '../lib/db.js';
import { type PageWindow, pageOf } from './pages.js';

/**
 * webhook_deliveries and webhook_attempts as the webhook senders claim, lease and settle them
 * (workers/webhooks/outbox.ts composes these statements into its transactions). A claim holds a
 * delivery's lease (locked_until) and bumps its attempt number; every later write checks that
 * number, so a sender whose lease lapsed never overwrites the sender that took the delivery over.
 */

/** A delivery a sender holds: its lease runs until it records the attempt's outcome. */
export interface Claimed {
  project_id: string;
  delivery_id: string;
  payload: unknown;
  attempts: number;
  round_start: number;
  url: string | null;
  secret: string | null;
}

/** The outcome of one attempt as it is stored. */
export interface Recorded {
  durationMs: number;
  status: number | null;
  error: string | null;
  /** 'pending' with the wait before the retry, or the delivery's final status. */
  next: { status: 'pending'; delayMs: number } | { status: 'succeeded' | 'failed' };
}

// Claims of every sender take turns, so the per-project count they read stays true until commit.
const CLAIM_LOCK = 'pi-webhook-claim';

/** Waits for this transaction's turn to claim (held to commit). */
export async function takeClaimTurn(client: PoolClient): Promise<void> {
  await client.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [CLAIM_LOCK]);
}

/**
 * Leases up to `limit` due deliveries, taking turns between projects: each project's oldest due
 * delivery first, then each one's second, and so on, a project never past `perProject` leased
 * deliveries (all senders together). Deliveries of a paused subscription are held, its test
 * deliveries not. Each leased delivery's attempt number moves on; it is returned with its target's
 * address and secret (null when the target was removed).
 */
export async function leaseDueDeliveries(
  client: PoolClient,
  options: { limit: number; perProject: number; leaseMs: number },
): Promise<Claimed[]> {
  const { rows } = await client.query<Claimed>(
    `with leased as (
         select project_id, count(*)::int as n from webhook_deliveries
         where status = 'pending' and locked_until >= now() group by project_id),
       due as (
         select project_id, delivery_id, next_attempt_at,
                row_number() over (partition by project_id order by next_attempt_at, delivery_id) as turn
         from webhook_deliveries d
         where status = 'pending' and next_attempt_at <= now() and (locked_until is null or locked_until < now())
           and not exists (select 1 from webhook_subscriptions s
                           where s.project_id = d.project_id and s.webhook_id = d.webhook_id
                             and s.status = 'paused' and d.event <> 'test')),
       picked as (
         select due.project_id, due.delivery_id from due left join leased using (project_id)
         where due.turn <= $2 - coalesce(leased.n, 0)
         order by due.turn, due.next_attempt_at limit $1)
       update webhook_deliveries d set attempts = d.attempts + 1, locked_until = now() + $3 * interval '1 millisecond'
       from picked where d.project_id = picked.project_id and d.delivery_id = picked.delivery_id
       returning d.project_id, d.delivery_id, d.payload, d.attempts, d.round_start,
         case d.target
           when 'subscription' then (select s.url from webhook_subscriptions s
                                     where s.project_id = d.project_id and s.webhook_id = d.webhook_id)
           else (select i.url from integration_webhooks i where i.project_id = d.project_id) end as url,
         case d.target
           when 'subscription' then (select s.secret from webhook_subscriptions s
                                     where s.project_id = d.project_id and s.webhook_id = d.webhook_id)
           else (select i.secret from integration_webhooks i where i.project_id = d.project_id) end as secret`,
    [options.limit, options.perProject, options.leaseMs],
  );
  return rows;
}

/** Logs the claimed attempts before their requests, so a death mid-request still leaves a trace. */
export async function logAttemptsStarted(client: PoolClient, claimed: Claimed[]): Promise<void> {
  await client.query(
    `insert into webhook_attempts (project_id, delivery_id, attempt, url)
         select * from unnest($1::uuid[], $2::text[], $3::int[], $4::text[])`,
    [
      claimed.map((r) => r.project_id),
      claimed.map((r) => r.delivery_id),
      claimed.map((r) => r.attempts),
      claimed.map((r) => r.url ?? '(target removed)'),
    ],
  );
}

/**
 * Extends the leases of deliveries still in flight, only while each claim is still the sender's
 * own (same attempt number): a slow answer or a slow recording never lets another sender send the
 * same delivery again while this one is alive.
 */
export async function renewLeases(db: Pool, held: Claimed[], leaseMs: number): Promise<void> {
  if (held.length === 0) return;
  await db.query(
    `update webhook_deliveries d set locked_until = now() + $4 * interval '1 millisecond'
     from unnest($1::uuid[], $2::text[], $3::int[]) as h(project_id, delivery_id, attempts)
     where d.project_id = h.project_id and d.delivery_id = h.delivery_id and d.attempts = h.attempts
       and d.status = 'pending'`,
    [held.map((d) => d.project_id), held.map((d) => d.delivery_id), held.map((d) => d.attempts), leaseMs],
  );
}

/** Stores an attempt's outcome on its logged attempt; `error` is already bounded. */
export async function recordAttemptOutcome(
  client: PoolClient,
  d: Claimed,
  outcome: Recorded,
  error: string | null,
): Promise<void> {
  await client.query(
    `update webhook_attempts set duration_ms = $4, status = $5, error = $6, retry_in_ms = $7
       where project_id = $1 and delivery_id = $2 and attempt = $3`,
    [
      d.project_id,
      d.delivery_id,
      d.attempts,
      outcome.durationMs,
      outcome.status,
      error,
      outcome.next.status === 'pending' ? outcome.next.delayMs : null,
    ],
  );
}

/**
 * Moves the delivery to the attempt's next status and releases its lease, only while the claim is
 * still ours: a lapsed lease may have passed the delivery to another sender, and then attempts moved on.
 */
export async function settleDelivery(
  client: PoolClient,
  d: Claimed,
  outcome: Recorded,
  error: string | null,
): Promise<void> {
  await client.query(
    `update webhook_deliveries
       set status = $4, next_attempt_at = now() + $5 * interval '1 millisecond', locked_until = null,
           last_status = $6, last_error = $7, finished_at = case when $4 = 'pending' then null else now() end
       where project_id = $1 and delivery_id = $2 and attempts = $3`,
    [
      d.project_id,
      d.delivery_id,
      d.attempts,
      outcome.next.status,
      outcome.next.status === 'pending' ? outcome.next.delayMs : 0,
      outcome.status,
      error,
    ],
  );
}

/** The earliest time a pending delivery becomes due or its lease lapses; null when none waits. */
export async function nextDueAt(db: Pool): Promise<Date | null> {
  const { rows } = await db.query<{ at: Date | null }>(
    `select min(greatest(next_attempt_at, coalesce(locked_until, next_attempt_at))) as at
       from webhook_deliveries where status = 'pending' and (next_attempt_at > now() or locked_until >= now())`,
  );
  return rows[0]?.at ?? null;
}

/** A delivery as the delivery log shows it (api/routes/webhooks.ts). */
export interface DeliveryRow {
  delivery_id: string;
  target: string;
  webhook_id: string | null;
  event: string;
  payload: unknown;
  status: string;
  attempts: number;
  round_start: number;
  next_attempt_at: Date;
  last_status: number | null;
  last_error: string | null;
  created_at: Date;
  finished_at: Date | null;
}

/** Reads a page of a project's deliveries, newest first, filtered where a filter is given, and their total. */
export async function deliveryPage(
  db: Pool,
  projectId: string,
  filter: { status: string | null; webhookId: string | null; target: string | null },
  page: PageWindow,
) {
  return pageOf<DeliveryRow>(
    db,
    {
      columns: '*',
      from: 'webhook_deliveries',
      where:
        'project_id = $1 and ($2::text is null or status = $2) and ($3::text is null or webhook_id = $3)' +
        ' and ($4::text is null or target = $4)',
      order: 'created_at desc, delivery_id',
    },
    [projectId, filter.status, filter.webhookId, filter.target],
    page,
  );
}

/** Reads one delivery. */
export async function delivery(db: Pool, projectId: string, deliveryId: string): Promise<DeliveryRow | undefined> {
  const { rows } = await db.query<DeliveryRow>(
    'select * from webhook_deliveries where project_id = $1 and delivery_id = $2',
    [projectId, deliveryId],
  );
  return rows[0];
}

/** Reads a delivery's attempts (webhook_attempts), in order. */
export async function deliveryAttempts(db: Pool, projectId: string, deliveryId: string) {
  const { rows } = await db.query<{
    attempt: number;
    url: string;
    started_at: Date;
    duration_ms: number | null;
    status: number | null;
    error: string | null;
    retry_in_ms: number | null;
  }>(
    `select attempt, url, started_at, duration_ms, status, error, retry_in_ms from webhook_attempts
     where project_id = $1 and delivery_id = $2 order by attempt`,
    [projectId, deliveryId],
  );
  return rows;
}

/** Makes a settled delivery pending again, due now with a fresh round of retries; undefined when none or pending. */
export async function redeliver(db: Pool, projectId: string, deliveryId: string): Promise<DeliveryRow | undefined> {
  const { rows } = await db.query<DeliveryRow>(
    `update webhook_deliveries
     set status = 'pending', round_start = attempts, next_attempt_at = now(), locked_until = null, finished_at = null
     where project_id = $1 and delivery_id = $2 and status <> 'pending' returning *`,
    [projectId, deliveryId],
  );
  return rows[0];
}

/** Whether the project has this delivery. */
export async function deliveryExists(db: Pool, projectId: string, deliveryId: string): Promise<boolean> {
  const { rowCount } = await db.query('select 1 from webhook_deliveries where project_id = $1 and delivery_id = $2', [
    projectId,
    deliveryId,
  ]);
  return rowCount !== 0;
}

/**
 * Queues a test delivery (event "test", shaped like the subscription's other deliveries) to a
 * subscription of the project; undefined when it has no such subscription.
 */
export async function queueTestDelivery(
  db: Pool,
  projectId: string,
  webhookId: string,
): Promise<{ delivery_id: string; webhook_id: string } | undefined> {
  const { rows } = await db.query<{ delivery_id: string; webhook_id: string }>(
    `insert into webhook_deliveries (project_id, delivery_id, target, webhook_id, event, payload)
     select project_id, 'msg_' || replace(gen_random_uuid()::text, '-', ''), 'subscription', webhook_id, 'test',
            jsonb_build_object('event', 'test', 'timestamp', pi_utc(now()),
                               'data', jsonb_build_object('webhook_id', webhook_id,
                                                          'message', 'A test event from the admin API.'))
     from webhook_subscriptions where project_id = $1 and webhook_id = $2
     returning delivery_id, webhook_id`,
    [projectId, webhookId],
  );
  return rows[0];
}

/** Queues a test delivery (event "test") to the project's integration endpoint; undefined when it has none. */
export async function queueIntegrationTest(db: Pool, projectId: string): Promise<string | undefined> {
  const { rows } = await db.query<{ delivery_id: string }>(
    `insert into webhook_deliveries (project_id, delivery_id, target, event, payload)
     select project_id, 'msg_' || replace(gen_random_uuid()::text, '-', ''), 'integration', 'test',
            jsonb_build_object('event', 'test', 'timestamp', pi_utc(now()), 'user_id', null,
                               'properties', jsonb_build_object('message', 'A test event from the admin console.'))
     from integration_webhooks where project_id = $1
     returning delivery_id`,
    [projectId],
  );
  return rows[0]?.delivery_id;
}
