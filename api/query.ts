import type { Pool } from '../lib/db.js';
import type { Context } from 'koa';
import { fieldError } from './errors.js';

export const DEFAULT_PER_PAGE = 20;
export const MAX_PER_PAGE = 100;

export interface Paging {
  page: number;
  perPage: number;
  offset: number;
}

function single(ctx: Context, name: string): string | undefined {
  const declared = ctx.state.queryParams;
  if (declared && !declared.has(name)) throw new Error(`the route reads the undeclared query parameter ${name}`);
  const value = ctx.query[name];
  if (Array.isArray(value)) throw fieldError(name, 'repeated', `${name} may be given once.`);
  return value;
}

/** The highest page number a list takes. */
const MAX_PAGE = 1_000_000;

/**
 * A numeric query parameter, checked before the handler against the schema the route documents it
 * with (api/route.ts, refuseOutOfSchemaNumbers).
 */
export function numberParam(ctx: Context, name: string): number | undefined {
  const raw = single(ctx, name);
  return raw === undefined ? undefined : Number(raw);
}

export function stringParam(ctx: Context, name: string, allowed?: readonly string[]): string | undefined {
  const raw = single(ctx, name);
  if (raw !== undefined && allowed && !allowed.includes(raw)) {
    throw fieldError(name, 'invalid_value', `${name} must be one of: ${allowed.join(', ')}.`);
  }
  return raw;
}

/**
 * `page` (1-based) and `per_page` (default 20, at most 100). A route whose `page` means something
 * else (the friction points' page filter of the spec) names its page number `pageName`.
 */
export function paging(ctx: Context, pageName = 'page'): Paging {
  const page = numberParam(ctx, pageName) ?? 1;
  const perPage = numberParam(ctx, 'per_page') ?? DEFAULT_PER_PAGE;
  return { page, perPage, offset: (page - 1) * perPage };
}

export const pagingParams = (pageName = 'page') => [
  {
    name: pageName,
    description: '1-based page number',
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 },
  },
  {
    name: 'per_page',
    description: `items per page (at most ${MAX_PER_PAGE})`,
    schema: { type: 'integer', minimum: 1, maximum: MAX_PER_PAGE, default: DEFAULT_PER_PAGE },
  },
];

export const PAGING_PARAMS = pagingParams();

/** One page of a list computed whole (answers sorted in code), with the total it is paged from. */
export function pageOfList<T>(items: T[], { perPage, offset }: Paging): { items: T[]; total: number } {
  return { items: items.slice(offset, offset + perPage), total: items.length };
}

/**
 * One page of rows and the total they are paged from: `select <columns> from <from> where
 * <where> order by <order>`, the clauses being code constants and the values parameters
 * ($1 … $n; limit and offset are appended).
 */
export async function pageOf<T extends object>(
  db: Pool,
  query: { columns: string; from: string; where: string; order: string },
  params: unknown[],
  { perPage, offset }: Paging,
): Promise<{ rows: T[]; total: number }> {
  const n = params.length;
  const [{ rows }, { rows: counted }] = await Promise.all([
    db.query<T>(
      `select ${query.columns} from ${query.from} where ${query.where} order by ${query.order} limit $${n + 1} offset $${n + 2}`,
      [...params, perPage, offset],
    ),
    db.query<{ n: number }>(`select count(*)::int as n from ${query.from} where ${query.where}`, params),
  ]);
  return { rows, total: counted[0]!.n };
}
