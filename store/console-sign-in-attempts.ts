import type { Pool } from '../lib/db.js';

/**
 * console_sign_in_attempts: the console's sign-in counts by subject (an address's window count, or
 * an email and address pair's failures); api/console/sign-in-limit.ts holds the policy.
 */

/** Adds one attempt to the subject's window starting at `start`; the count now. */
export async function countAttempt(db: Pool, subject: string, start: Date): Promise<number> {
  const { rows } = await db.query<{ attempts: number }>(
    `insert into console_sign_in_attempts (subject, window_start, attempts) values ($1, $2, 1)
     on conflict (subject, window_start) do update set attempts = console_sign_in_attempts.attempts + 1
     returning attempts`,
    [subject, start],
  );
  return rows[0]!.attempts;
}

/** Deletes the subject's windows that started before `start`. */
export async function deleteOlderWindows(db: Pool, subject: string, start: Date): Promise<void> {
  await db.query('delete from console_sign_in_attempts where subject = $1 and window_start < $2', [subject, start]);
}

/** Reads the subject's failures and the time of the last (nulls when it has no row). */
export async function failuresOf(
  db: Pool,
  subject: string,
): Promise<{ failures: number | null; last_at: Date | null }> {
  const { rows } = await db.query<{ failures: number | null; last_at: Date | null }>(
    'select max(attempts) as failures, max(window_start) as last_at from console_sign_in_attempts where subject = $1',
    [subject],
  );
  return rows[0]!;
}

/**
 * Replaces the subject's rows by one at `now` holding one failure more than its row newer than
 * `forgetBefore` held (a concurrent failure may make two rows; the next one folds them).
 */
export async function recordFailure(db: Pool, subject: string, now: Date, forgetBefore: Date): Promise<void> {
  await db.query(
    `with gone as (delete from console_sign_in_attempts where subject = $1 returning attempts, window_start)
     insert into console_sign_in_attempts (subject, window_start, attempts)
     select $1, $2, 1 + coalesce((select max(attempts) from gone where window_start > $3), 0)
     on conflict (subject, window_start) do update
       set attempts = greatest(console_sign_in_attempts.attempts, excluded.attempts)`,
    [subject, now, forgetBefore],
  );
}

/** Deletes the subject's rows. */
export async function clearSubject(db: Pool, subject: string): Promise<void> {
  await db.query('delete from console_sign_in_attempts where subject = $1', [subject]);
}
