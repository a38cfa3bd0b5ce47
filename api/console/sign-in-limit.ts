import type { Pool } from '../../lib/db.js';
import {
  clearSubject,
  countAttempt,
  deleteOlderWindows,
  failuresOf,
  recordFailure,
} from '../../store/console-sign-in-attempts.js';
import { ApiError } from '../errors.js';

/**
 * Sign-in limits, kept in Postgres so that every API process shares them (the policy, and why:
 * docs/adr/0077-sign-in-lockout-per-email-and-address.md):
 *
 * - per (email, client address): the first `freeFailures` wrong passwords cost nothing; after the
 *   n-th failure beyond them the pair waits `firstDelayMs` × 2^(n−1), at most `maxDelayMs`. An
 *   attempt inside the wait is refused with 429 before its password is checked, so the wait is no
 *   oracle. A correct password clears the pair; a pair silent for `forgetMs` starts afresh.
 * - per client address, all emails together: `perAddress` attempts in a fixed window.
 *
 * Nothing is counted per email alone: wrong passwords sent from other addresses never keep the
 * owner out. The address is the one PI_TRUSTED_PROXIES lets through (api/client-address.ts).
 */
export const SIGN_IN_LIMITS = {
  windowMs: 15 * 60_000,
  perAddress: 50,
  freeFailures: 5,
  firstDelayMs: 2_000,
  maxDelayMs: 15 * 60_000,
  forgetMs: 24 * 3_600_000,
};

const addressKey = (address: string) => `address:${address}`;
const pairKey = (email: string, address: string) => `pair:${JSON.stringify([email, address])}`;

export function windowStart(now: number, windowMs = SIGN_IN_LIMITS.windowMs): number {
  return Math.floor(now / windowMs) * windowMs;
}

/** Seconds until the window of `now` ends when the address is over its limit, else undefined. */
export function retryAfter(now: number, addressAttempts: number, limits = SIGN_IN_LIMITS): number | undefined {
  if (addressAttempts <= limits.perAddress) return undefined;
  const end = windowStart(now, limits.windowMs) + limits.windowMs;
  return Math.max(1, Math.ceil((end - now) / 1000));
}

/** How long a pair waits after its `failures`-th failure. */
export function pairDelayMs(failures: number, limits = SIGN_IN_LIMITS): number {
  const beyond = failures - limits.freeFailures;
  return beyond <= 0 ? 0 : Math.min(limits.maxDelayMs, limits.firstDelayMs * 2 ** (beyond - 1));
}

/** Seconds a pair must still wait at `now` (its last failure at `lastAt`), else undefined. */
export function pairRetryAfter(
  now: number,
  failures: number,
  lastAt: number,
  limits = SIGN_IN_LIMITS,
): number | undefined {
  if (now - lastAt >= limits.forgetMs) return undefined;
  const left = lastAt + pairDelayMs(failures, limits) - now;
  return left > 0 ? Math.ceil(left / 1000) : undefined;
}

const tooMany = (wait: number) =>
  new ApiError(
    429,
    'rate_limited',
    `Too many sign-in attempts; try again in ${wait < 60 ? `${wait} s` : `${Math.ceil(wait / 60)} min`}.`,
    { retry_after: wait },
    { 'Retry-After': String(wait) },
  );

/** Counts one attempt of the address; throws 429 when the address is over its limit. */
export async function countAddressAttempt(db: Pool, address: string, now = Date.now()): Promise<void> {
  const subject = addressKey(address);
  const start = new Date(windowStart(now));
  const attempts = await countAttempt(db, subject, start);
  // The address's first attempt of a window drops its older windows, so the table stays small.
  if (attempts === 1) {
    await deleteOlderWindows(db, subject, start);
  }
  const wait = retryAfter(now, attempts);
  if (wait !== undefined) throw tooMany(wait);
}

/**
 * Before a password is checked: counts the address's attempt, then throws 429 while the pair waits.
 * A pair's row holds its failures, its window_start the time of the last one.
 */
export async function checkSignIn(db: Pool, email: string, address: string, now = Date.now()): Promise<void> {
  await countAddressAttempt(db, address, now);
  const { failures, last_at } = await failuresOf(db, pairKey(email, address));
  if (failures === null || last_at === null) return;
  const wait = pairRetryAfter(now, failures, last_at.getTime());
  if (wait !== undefined) throw tooMany(wait);
}

/**
 * A wrong password (or unknown email) of the pair: one more failure, now the last. One statement
 * replaces the pair's row; two failures at once may both start from the same count (one is lost),
 * and may leave two rows, which the next failure folds into one.
 */
export async function signInFailed(db: Pool, email: string, address: string, now = Date.now()): Promise<void> {
  await recordFailure(db, pairKey(email, address), new Date(now), new Date(now - SIGN_IN_LIMITS.forgetMs));
}

/** A correct password clears its pair (the address keeps its window count). */
export async function signInSucceeded(db: Pool, email: string, address: string): Promise<void> {
  await clearSubject(db, pairKey(email, address));
}
