import type { Context } from 'koa';
import { DATE_RANGES, type DateRange, parseDateRange } from '../domain/date-range.js';
import { fieldError } from './errors.js';
import type { QueryParam } from './route.js';
import { stringParam } from './query.js';

const dateRangeParams = (values: string): QueryParam[] => [
  { name: 'date_range', description: values, schema: { enum: [...DATE_RANGES] } },
  { name: 'start', description: 'YYYY-MM-DD, with date_range=custom', schema: { type: 'string', format: 'date' } },
  { name: 'end', description: 'YYYY-MM-DD, with date_range=custom', schema: { type: 'string', format: 'date' } },
];

export const DATE_RANGE_PARAMS = dateRangeParams('last_7_days, last_30_days (default), last_90_days or custom');

/** date_range on answers that cover all history unless asked (workflows, job analytics, a cohort's detail). */
export const WINDOW_PARAMS = dateRangeParams('last_7_days, last_30_days, last_90_days or custom; default: all history');

export function dateRange(ctx: Context, fallback = 'last_30_days'): DateRange {
  const result = parseDateRange(
    stringParam(ctx, 'date_range') ?? fallback,
    stringParam(ctx, 'start'),
    stringParam(ctx, 'end'),
  );
  if ('field' in result) throw fieldError(result.field, result.reason, result.message);
  return result.range;
}

/** The range asked for, or undefined for all history (WINDOW_PARAMS). */
export function optionalDateRange(ctx: Context): DateRange | undefined {
  const given = ['date_range', 'start', 'end'].some((name) => stringParam(ctx, name) !== undefined);
  // start or end alone is refused by dateRange (they go with date_range=custom).
  return given ? dateRange(ctx) : undefined;
}

/** `segment=plan:pro` → users whose property plan equals "pro". */
export function segment(ctx: Context): { key: string; value: string } | undefined {
  const raw = stringParam(ctx, 'segment');
  if (raw === undefined) return undefined;
  const at = raw.indexOf(':');
  if (at <= 0 || at === raw.length - 1) {
    throw fieldError('segment', 'invalid_format', 'segment must be property:value, e.g. plan:pro.');
  }
  return { key: raw.slice(0, at), value: raw.slice(at + 1) };
}

export function booleanParam(ctx: Context, name: string, fallback: boolean): boolean {
  const raw = stringParam(ctx, name);
  if (raw === undefined) return fallback;
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  throw fieldError(name, 'invalid_type', `${name} must be true or false.`);
}
