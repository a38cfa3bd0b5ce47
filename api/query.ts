import type { Context } from 'koa';
import { fieldError } from './errors.js';
import type { QueryParam } from './route.js';

/**
 * The most items a list answers at once, unless its route names a smaller cap: a list comes whole
 * up to its cap by default, pages of per_page beyond it (docs/adr/0087-one-paging-convention.md).
 */
export const LIST_CAP = 1_000;

/** How a list route pages: its cap, and whether `page` is the older name of `page_number` there. */
export interface ListPaging {
  cap: number;
  /** false where `page` means something else (the friction routes: a page of the product) */
  pageAlias: boolean;
}

const DEFAULT_LIST: ListPaging = { cap: LIST_CAP, pageAlias: true };

export interface Paging {
  page: number;
  perPage: number;
  offset: number;
  pageAlias: boolean;
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
 * `page_number` (1-based, or its older name `page` where the route keeps it) and `per_page`
 * (default and most: the route's cap). Both names at once is a 400: they could disagree.
 */
export function paging(ctx: Context, list: Partial<ListPaging> = {}): Paging {
  const { cap, pageAlias } = { ...DEFAULT_LIST, ...list };
  const number = numberParam(ctx, 'page_number');
  const alias = pageAlias ? numberParam(ctx, 'page') : undefined;
  if (number !== undefined && alias !== undefined) {
    throw fieldError('page', 'not_allowed', 'page is the older name of page_number: give one of them.');
  }
  const page = number ?? alias ?? 1;
  const perPage = numberParam(ctx, 'per_page') ?? cap;
  return { page, perPage, offset: (page - 1) * perPage, pageAlias };
}

/** The query parameters `paging` reads, as the route declares them (OpenAPI, api/route.ts checks). */
export function pagingParams(list: Partial<ListPaging> = {}): QueryParam[] {
  const { cap, pageAlias } = { ...DEFAULT_LIST, ...list };
  const number = { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: 1 };
  return [
    { name: 'page_number', description: '1-based page number', schema: number },
    ...(pageAlias
      ? [{ name: 'page', description: 'older name of page_number', schema: { ...number, deprecated: true } }]
      : []),
    {
      name: 'per_page',
      description: `items per page; default: the whole list up to ${cap.toLocaleString('en')}, its most`,
      schema: { type: 'integer', minimum: 1, maximum: cap, default: cap },
    },
  ];
}

export const PAGING_PARAMS = pagingParams();

/**
 * What every list answer carries besides its items: `total` (items matching), `page_number` (and
 * `page` where it is the alias), `per_page`, and `next`, the next page's number or null on the last.
 */
export function pageFields(paged: Paging, total: number) {
  return {
    total,
    page_number: paged.page,
    ...(paged.pageAlias ? { page: paged.page } : {}),
    per_page: paged.perPage,
    next: paged.offset + paged.perPage < total ? paged.page + 1 : null,
  };
}

/** One page of a list computed whole (answers sorted in code), with the total it is paged from. */
export function pageOfList<T>(items: T[], { perPage, offset }: Paging): { items: T[]; total: number } {
  return { items: items.slice(offset, offset + perPage), total: items.length };
}
