import { DAY_MS, isoDay } from './time.js';
/**
 * date_range: last_7_days | last_30_days | last_90_days (ending today, UTC, inclusive) or custom
 * with start and end (YYYY-MM-DD, inclusive).
 */
export const NAMED_RANGES = { last_7_days: 7, last_30_days: 30, last_90_days: 90 } as const;
export const DATE_RANGES = [...Object.keys(NAMED_RANGES), 'custom'] as const;

export interface DateRange {
  start: string;
  end: string;
}

export type DateRangeResult = { range: DateRange } | { field: string; reason: string; message: string };

function parseDay(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return undefined;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return Number.isNaN(ms) || isoDay(ms) !== value ? undefined : ms;
}

export function parseDateRange(
  name: string,
  start: string | undefined,
  end: string | undefined,
  now: number = Date.now(),
): DateRangeResult {
  if (Object.hasOwn(NAMED_RANGES, name)) {
    if (start !== undefined || end !== undefined) {
      return { field: 'start', reason: 'not_allowed', message: 'start and end go with date_range=custom only.' };
    }
    const today = Math.floor(now / DAY_MS) * DAY_MS;
    const days = NAMED_RANGES[name as keyof typeof NAMED_RANGES];
    return { range: { start: isoDay(today - (days - 1) * DAY_MS), end: isoDay(today) } };
  }
  if (name !== 'custom') {
    return {
      field: 'date_range',
      reason: 'invalid_value',
      message: `date_range must be one of: ${DATE_RANGES.join(', ')}.`,
    };
  }
  for (const [field, value] of [
    ['start', start],
    ['end', end],
  ] as const) {
    if (value === undefined)
      return { field, reason: 'required', message: `${field} (YYYY-MM-DD) is required with date_range=custom.` };
    if (parseDay(value) === undefined)
      return { field, reason: 'invalid_format', message: `${field} must be a date YYYY-MM-DD.` };
  }
  if (parseDay(start)! > parseDay(end)!) {
    return { field: 'end', reason: 'invalid_value', message: 'end must not be before start.' };
  }
  return { range: { start: start!, end: end! } };
}
