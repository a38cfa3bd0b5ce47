import fs from 'node:fs';
import tls from 'node:tls';
import got from 'got';
import { listen, wakeLoop } from '../../lib/notify.js';
import type { Services } from '../../lib/services.js';
import { type AttemptOutcome, type NextStep, nextStep } from '../../domain/webhooks/retry.js';
import { type Claimed, nextDueAt, renewLeases } from '../../store/webhook-deliveries.js';
import { claimDeliveries, recordAttempt } from './outbox.js';
import { webhookHeaders } from '../../domain/webhooks/signing.js';
import { guardedLookup, literalTargetProblem, targetPolicy } from '../../lib/targets.js';
import { SEALED, SecretBox } from '../../lib/secret-box.js';
import { onTheWire } from '../../domain/metrics.js';

/** The spec's slow-endpoint threshold: an answer later than this counts as a failed attempt. */
export const REQUEST_TIMEOUT_MS = 5_000;

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
    // Figures rounded as every answer rounds them (domain/metrics.ts, onTheWire).
    const body = JSON.stringify(onTheWire(d.payload));
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
    await recordAttempt(db, d, {
      durationMs: Date.now() - started,
      status,
      error,
      next: step.kind === 'retry' ? { status: 'pending', delayMs: step.delayMs } : { status: step.kind },
    });
    if (step.kind === 'failed') log.warn({ delivery: d.delivery_id, status, error }, 'webhook delivery gave up');
  }

  // Deliveries in flight, each sent on its own: a slow one holds its slot and nothing else.
  const inFlight = new Map<string, { delivery: Claimed; done: Promise<void> }>();
  let claiming: Promise<number> | undefined;

  /** Claims as many due deliveries as there are free slots and starts them; how many it started. */
  async function claimAndStart(): Promise<number> {
    const free = config.webhookConcurrency - inFlight.size;
    if (free <= 0) return 0;
    const claimed = await claimDeliveries(db, {
      limit: free,
      perProject: config.webhookProjectConcurrency,
      leaseMs: config.webhookLeaseMs,
    });
    for (const d of claimed) {
      const key = `${d.project_id}/${d.delivery_id}`;
      const done = send(d)
        .catch((err: unknown) => log.error({ err, delivery: d.delivery_id }, 'recording a webhook attempt failed'))
        .finally(() => {
          inFlight.delete(key);
          loop.wake();
        });
      inFlight.set(key, { delivery: d, done });
    }
    return claimed.length;
  }

  /** One claim at a time in this sender (the loop and drain() may both ask): a second caller shares it. */
  function fill(): Promise<number> {
    // .finally runs after the assignment, even when claimAndStart settles at once.
    claiming ??= claimAndStart().finally(() => {
      claiming = undefined;
    });
    return claiming;
  }

  async function drain(): Promise<number> {
    let made = 0;
    for (;;) {
      const started = await fill();
      made += started;
      if (started === 0 && inFlight.size === 0) break;
      if (started === 0) await Promise.race([...inFlight.values()].map((f) => f.done));
    }
    await scheduleNextDue();
    return made;
  }

  /**
   * Sleeps until the earliest retry or lease expiry, so a retry is not left to the poll. Deliveries
   * due now but left unclaimed wait for a slot of their project: a send finishing here wakes the
   * loop, one finishing in another sender is found by the poll.
   */
  async function scheduleNextDue(): Promise<void> {
    const at = await nextDueAt(db);
    clearTimeout(dueTimer);
    if (!at) return;
    dueTimer = setTimeout(() => loop.wake(), Math.max(0, Math.min(at.getTime() - Date.now(), config.pollIntervalMs)));
    dueTimer.unref();
  }

  // A wake claims what free slots allow and returns at once; finished sends wake it again.
  const loop = wakeLoop(async () => {
    while ((await fill()) > 0);
    await scheduleNextDue();
  }, log);
  const renewal = setInterval(() => {
    renewLeases(
      db,
      [...inFlight.values()].map((f) => f.delivery),
      config.webhookLeaseMs,
    ).catch((err: unknown) => log.warn({ err }, 'renewing webhook leases failed'));
  }, config.webhookLeaseMs / 3);
  renewal.unref();
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
      await Promise.all([...inFlight.values()].map((f) => f.done));
      clearInterval(renewal);
      clearTimeout(dueTimer);
    },
  });
}
