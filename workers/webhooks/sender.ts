import fs from 'node:fs';
import tls from 'node:tls';
import got from 'got';
import type { Pool } from '../../lib/db.js';
import { inTransaction } from '../../lib/db.js';
import { listen, wakeLoop } from '../../lib/notify.js';
import type { Services } from '../../lib/services.js';
import { type AttemptOutcome, type NextStep, nextStep } from '../../domain/webhooks/retry.js';
import { webhookHeaders } from '../../domain/webhooks/signing.js';
import { guardedLookup, literalTargetProblem, targetPolicy } from '../../lib/targets.js';
import { SEALED, SecretBox } from '../../lib/secret-box.js';

/** The spec's slow-endpoint threshold: an answer later than this counts as a failed attempt. */
export const REQUEST_TIMEOUT_MS = 5_000;
const BATCH = 16;

interface Claimed {
  project_id: string;
  delivery_id: string;
  payload: unknown;
  attempts: number;
  round_start: number;
  url: string | null;
  secret: string | null;
}

/**
 * Claims due deliveries for this sender: FOR UPDATE SKIP LOCKED lets several senders share the
 * outbox, and the lease (locked_until) hands a delivery to another sender if this one dies.
 * The attempt is logged before the request, so a death mid-request still leaves a trace.
 */
async function claim(db: Pool, leaseMs: number): Promise<Claimed[]> {
  return inTransaction(db, async (client) => {
    const { rows } = await client.query<Claimed>(
      `with due as (
         select project_id, delivery_id from webhook_deliveries
         where status = 'pending' and next_attempt_at <= now() and (locked_until is null or locked_until < now())
         order by next_attempt_at limit $1 for update skip locked)
       update webhook_deliveries d set attempts = d.attempts + 1, locked_until = now() + $2 * interval '1 millisecond'
       from due where d.project_id = due.project_id and d.delivery_id = due.delivery_id
       returning d.project_id, d.delivery_id, d.payload, d.attempts, d.round_start,
         case d.target
           when 'subscription' then (select s.url from webhook_subscriptions s
                                     where s.project_id = d.project_id and s.webhook_id = d.webhook_id)
           else (select i.url from integration_webhooks i where i.project_id = d.project_id) end as url,
         case d.target
           when 'subscription' then (select s.secret from webhook_subscriptions s
                                     where s.project_id = d.project_id and s.webhook_id = d.webhook_id)
           else (select i.secret from integration_webhooks i where i.project_id = d.project_id) end as secret`,
      [BATCH, leaseMs],
    );
    if (rows.length > 0) {
      await client.query(
        `insert into webhook_attempts (project_id, delivery_id, attempt, url)
         select * from unnest($1::uuid[], $2::text[], $3::int[], $4::text[])`,
        [
          rows.map((r) => r.project_id),
          rows.map((r) => r.delivery_id),
          rows.map((r) => r.attempts),
          rows.map((r) => r.url ?? '(target removed)'),
        ],
      );
    }
    return rows;
  });
}

export interface RunningSender {
  /** Sends every delivery due now; resolves with how many attempts it made. */
  drain(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * The one delivery engine of subscribed webhooks and the integration endpoint: woken by NOTIFY
 * on new outbox rows, by its own timer when a retry falls due, and by a poll as a safety net.
 */
export function startWebhookSender(services: Services): Promise<RunningSender> {
  const { config, db } = services;
  const log = services.log.child({ component: 'webhook-sender' });
  const policy = targetPolicy(config.webhookAllowHosts);
  const secrets = new SecretBox(config.secretKeys);
  const lookup = guardedLookup(policy);
  const ca = config.webhookCaFile
    ? [...tls.rootCertificates, fs.readFileSync(config.webhookCaFile, 'utf8')]
    : undefined;
  let dueTimer: NodeJS.Timeout | undefined;

  async function attempt(d: Claimed): Promise<AttemptOutcome> {
    if (!d.url || !d.secret) return { error: 'the subscription or integration endpoint was removed' };
    const url = new URL(d.url);
    const refused = literalTargetProblem(url, policy);
    if (refused) return { error: `refused: ${refused}` };
    const body = JSON.stringify(d.payload);
    try {
      const headers = webhookHeaders(secrets.open(d.secret, SEALED.webhookSecret), d.delivery_id, body);
      // Only the status matters: the body is never read, so a huge answer costs nothing.
      const status = await new Promise<number>((resolve, reject) => {
        const stream = got.stream.post(url, {
          body,
          headers,
          timeout: { request: REQUEST_TIMEOUT_MS },
          retry: { limit: 0 },
          throwHttpErrors: false,
          followRedirect: false,
          dnsLookup: lookup,
          https: ca ? { certificateAuthority: ca } : {},
        });
        stream.once('response', (response: { statusCode: number }) => {
          resolve(response.statusCode);
          stream.destroy();
        });
        stream.once('error', reject);
      });
      return { status };
    } catch (err) {
      const e = err as Error & { code?: string };
      return { error: `${e.code ?? e.name}: ${e.message}` };
    }
  }

  async function send(d: Claimed): Promise<void> {
    const started = Date.now();
    const outcome = await attempt(d);
    const step: NextStep = d.url
      ? nextStep(outcome, d.attempts - d.round_start, config.webhookRetryBaseMs)
      : { kind: 'failed' };
    const status = 'status' in outcome ? outcome.status : null;
    const error =
      'error' in outcome ? outcome.error.slice(0, 1000) : status !== null && status >= 300 ? `HTTP ${status}` : null;
    await inTransaction(db, async (client) => {
      await client.query(
        `update webhook_attempts set duration_ms = $4, status = $5, error = $6, retry_in_ms = $7
         where project_id = $1 and delivery_id = $2 and attempt = $3`,
        [
          d.project_id,
          d.delivery_id,
          d.attempts,
          Date.now() - started,
          status,
          error,
          step.kind === 'retry' ? step.delayMs : null,
        ],
      );
      // Only while the claim is still ours: a lapsed lease may have passed it to another sender.
      await client.query(
        `update webhook_deliveries
         set status = $4, next_attempt_at = now() + $5 * interval '1 millisecond', locked_until = null,
             last_status = $6, last_error = $7, finished_at = case when $4 = 'pending' then null else now() end
         where project_id = $1 and delivery_id = $2 and attempts = $3`,
        [
          d.project_id,
          d.delivery_id,
          d.attempts,
          step.kind === 'retry' ? 'pending' : step.kind,
          step.kind === 'retry' ? step.delayMs : 0,
          status,
          error,
        ],
      );
    });
    if (step.kind === 'failed') log.warn({ delivery: d.delivery_id, status, error }, 'webhook delivery gave up');
  }

  async function drain(): Promise<number> {
    let made = 0;
    for (;;) {
      const batch = await claim(db, config.webhookLeaseMs);
      if (batch.length === 0) break;
      await Promise.all(batch.map(send));
      made += batch.length;
    }
    await scheduleNextDue();
    return made;
  }

  /** Sleeps until the earliest retry or lease expiry, so a retry is not left to the poll. */
  async function scheduleNextDue(): Promise<void> {
    const { rows } = await db.query<{ at: Date | null }>(
      `select min(greatest(next_attempt_at, coalesce(locked_until, next_attempt_at))) as at
       from webhook_deliveries where status = 'pending'`,
    );
    clearTimeout(dueTimer);
    const at = rows[0]?.at;
    if (!at) return;
    dueTimer = setTimeout(() => loop.wake(), Math.max(0, Math.min(at.getTime() - Date.now(), config.pollIntervalMs)));
    dueTimer.unref();
  }

  const loop = wakeLoop(async () => {
    await drain();
  }, log);
  const listener = listen({
    databaseUrl: config.databaseUrl,
    channels: ['pi_webhooks'],
    pollMs: config.pollIntervalMs,
    log,
    onWake: () => loop.wake(),
  });
  return Promise.resolve({
    drain,
    async stop() {
      await listener.close();
      await loop.stop();
      clearTimeout(dueTimer);
    },
  });
}
