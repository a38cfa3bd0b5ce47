import { boundedError } from '../../domain/addresses.js';
import type { Pool } from '../../lib/db.js';
import { inTransaction } from '../../lib/db.js';
import {
  type Claimed,
  type Recorded,
  leaseDueDeliveries,
  logAttemptsStarted,
  recordAttemptOutcome,
  settleDelivery,
  takeClaimTurn,
} from '../../store/webhook-deliveries.js';

/**
 * Claims up to `limit` due deliveries, taking turns between projects: each project's oldest due
 * delivery first, then each one's second, and so on. A project never holds more than `perProject`
 * leased deliveries (all senders together), so a black-hole endpoint ties up its own project's
 * slots and nobody else's. The attempt is logged before the request, so a death mid-request still
 * leaves a trace. Deliveries of a paused subscription are held (left pending, unclaimed) until it is
 * resumed; its test deliveries are not.
 */
export async function claimDeliveries(
  db: Pool,
  options: { limit: number; perProject: number; leaseMs: number },
): Promise<Claimed[]> {
  return inTransaction(db, async (client) => {
    await takeClaimTurn(client);
    const rows = await leaseDueDeliveries(client, options);
    if (rows.length > 0) await logAttemptsStarted(client, rows);
    return rows;
  });
}

/** Stores an attempt's outcome and releases the lease, only while the claim is still ours. */
export async function recordAttempt(db: Pool, d: Claimed, outcome: Recorded): Promise<void> {
  // Stored texts are bounded, whatever a failure said (the full text is in the sender's log).
  const error = outcome.error === null ? null : boundedError(outcome.error);
  await inTransaction(db, async (client) => {
    await recordAttemptOutcome(client, d, outcome, error);
    await settleDelivery(client, d, outcome, error);
  });
}
