import type { Pool } from '../lib/db.js';

/** Which rows of a list a page holds (the API's paging, api/query.ts, computes it). */
export interface PageWindow {
  perPage: number;
  offset: number;
}

/**
 * One page of rows and the total they are paged from: `select <columns> from <from> where
 * <where> order by <order>`, the clauses being the calling store function's constants and the
 * values parameters ($1 … $n; limit and offset are appended). Both statements run at once.
 */
export async function pageOf<T extends object>(
  db: Pool,
  query: { columns: string; from: string; where: string; order: string },
  params: unknown[],
  { perPage, offset }: PageWindow,
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
