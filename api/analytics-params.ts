import type { Context } from 'koa';
import { DATE_RANGES, type DateRange, parseDateRange } from '../domain/date-range.js';
import { fieldError } from './errors.js';
import type { QueryParam } from './route.js';
import { stringParam } from './query.js';

export const DATE_RANGE_PARAMS: QueryParam[] = [
  {
    name: 'date_range',
    description: 'last_7_days, last_30_days (default), last_90_days or custom',
    schema: { enum: [...DATE_RANGES] },
  },
  { name: 'start', description: 'YYYY-MM-DD, with date_range=custom', schema: { type: 'string', format: 'date' } },
  { name: 'end', description: 'YYYY-MM-DD, with date_range=custom', schema: { type: 'string', format: 'date' } },
];

export function dateRange(ctx: Context, fallback = 'last_30_days'): DateRange {
  const result = parseDateRange(
    stringParam(ctx, 'date_range') ?? fallback,
    stringParam(ctx, 'start'),
    stringParam(ctx, 'end'),
  );
  if ('field' in result) throw fieldError(result.field, result.reason, result.message);
  return result.range;
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
