import type { DateRange } from '../date-range.js';
import { DAY_MS } from '../time.js';

/** When scheduled reports go out and which days they cover (docs/adr/0014-scheduled-reports.md). */

export const SCHEDULES = ['daily', 'weekly', 'monthly'] as const;
export type Schedule = (typeof SCHEDULES)[number];

/**
 * The cron expressions (UTC) of the scheduler's ticks. `lastDue`/`nextDue` compute the same
 * instants without a cron parser; a unit test holds them together.
 */
export const SCHEDULE_CRON: Record<Schedule, string> = {
  daily: '0 6 * * *',
  weekly: '0 6 * * 1',
  monthly: '0 6 1 * *',
};

/** Days covered: the complete UTC days before the sending day. */
export const PERIOD_DAYS: Record<Schedule, number> = { daily: 1, weekly: 7, monthly: 30 };

const SEND_MS = 6 * 3_600_000;

function isSendingDay(schedule: Schedule, dayMs: number): boolean {
  const day = new Date(dayMs);
  if (schedule === 'weekly') return day.getUTCDay() === 1;
  if (schedule === 'monthly') return day.getUTCDate() === 1;
  return true;
}

/** The latest sending time at or before `now`. */
export function lastDue(schedule: Schedule, now: Date): Date {
  let day = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  if (now.getTime() < day + SEND_MS) day -= DAY_MS;
  while (!isSendingDay(schedule, day)) day -= DAY_MS;
  return new Date(day + SEND_MS);
}

/** The first sending time after `now`. */
export function nextDue(schedule: Schedule, now: Date): Date {
  let day = Math.floor(now.getTime() / DAY_MS) * DAY_MS;
  if (now.getTime() >= day + SEND_MS) day += DAY_MS;
  while (!isSendingDay(schedule, day)) day += DAY_MS;
  return new Date(day + SEND_MS);
}

/** The days a report sent at `at` covers: the last 1/7/30 complete UTC days before `at`'s day. */
export function periodBefore(schedule: Schedule, at: Date): DateRange {
  const today = Math.floor(at.getTime() / DAY_MS) * DAY_MS;
  const iso = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  return { start: iso(today - PERIOD_DAYS[schedule] * DAY_MS), end: iso(today - DAY_MS) };
}
