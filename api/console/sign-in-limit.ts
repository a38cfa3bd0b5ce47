import type { Pool } from '../../lib/db.js';
import { ApiError } from '../errors.js';

/**
 * Sign-in attempts are counted per email and per client address in fixed windows kept in
 * Postgres, so every API process shares the counts. Every attempt counts (a correct password
 * clears its email's count), and an attempt beyond either limit is refused before any password
 * is checked: 429 with Retry-After.
 */
export const SIGN_IN_LIMITS = { windowMs: 15 * 60_000, perEmail: 10, perAddress: 50 };

export type Subject = { kind: 'email' | 'address'; value: string };

const subjectKey = (s: Subject) => `${s.kind}:${s.value}`;

export function windowStart(now: number, windowMs = SIGN_IN_LIMITS.windowMs): number {
  return Math.floor(now / windowMs) * windowMs;
}

/** Seconds until the window of `now` ends when some count is over its limit, else undefined. */
export function retryAfter(
  now: number,
  counts: { kind: Subject['kind']; attempts: number }[],
  limits = SIGN_IN_LIMITS,
): number | undefined {
  const over = counts.some((c) => c.attempts > (c.kind === 'email' ? limits.perEmail : limits.perAddress));
  if (!over) return undefined;
  const end = windowStart(now, limits.windowMs) + limits.windowMs;
  return Math.max(1, Math.ceil((end - now) / 1000));
}

/** Counts one attempt for every subject; throws 429 when one of them is over its limit. */
export async function countAttempt(db: Pool, subjects: Subject[], now = Date.now()): Promise<void> {
  const start = new Date(windowStart(now));
  const { rows } = await db.query<{ subject: string; attempts: number }>(
    `insert into console_sign_in_attempts (subject, window_start, attempts)
     select s, $2, 1 from unnest($1::text[]) s
     on conflict (subject, window_start) do update set attempts = console_sign_in_attempts.attempts + 1
     returning subject, attempts`,
    [subjects.map(subjectKey), start],
  );
  // A subject's first attempt of a window drops its older windows, so the table stays small.
  const fresh = rows.filter((r) => r.attempts === 1).map((r) => r.subject);
  if (fresh.length > 0) {
    await db.query('delete from console_sign_in_attempts where subject = any($1) and window_start < $2', [
      fresh,
      start,
    ]);
  }
  const wait = retryAfter(
    now,
    rows.map((r) => ({ kind: r.subject.startsWith('email:') ? 'email' : 'address', attempts: r.attempts })),
  );
  if (wait !== undefined) {
    throw new ApiError(
      429,
      'rate_limited',
      `Too many sign-in attempts; try again in ${Math.ceil(wait / 60)} min.`,
      { retry_after: wait },
      { 'Retry-After': String(wait) },
    );
  }
}

/** A correct password clears its email's count (the address keeps its own). */
export async function clearAttempts(db: Pool, email: string): Promise<void> {
  await db.query('delete from console_sign_in_attempts where subject = $1', [
    subjectKey({ kind: 'email', value: email }),
  ]);
}
