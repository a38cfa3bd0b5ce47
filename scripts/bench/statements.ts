import type { Pool } from '../../lib/db.js';

/**
 * pg_stat_statements over a phase (the embedded server preloads it; elsewhere it may be absent):
 * `reset` at the phase's start, `top` at its end — the statements that took the most time.
 */
export async function resetStatements(db: Pool): Promise<boolean> {
  try {
    await db.query('create extension if not exists pg_stat_statements');
    await db.query('select pg_stat_statements_reset()');
    return true;
  } catch {
    return false;
  }
}

export async function topStatements(db: Pool, n = 15) {
  const { rows } = await db.query<{ calls: string; total_ms: number; mean_ms: number; rows: string; query: string }>(
    `select calls::text, round(total_exec_time::numeric, 1)::float8 as total_ms,
            round(mean_exec_time::numeric, 3)::float8 as mean_ms, rows::text,
            left(regexp_replace(query, '\\s+', ' ', 'g'), 160) as query
     from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
     order by total_exec_time desc limit $1`,
    [n],
  );
  return rows;
}
