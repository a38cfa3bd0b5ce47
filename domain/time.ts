export const DAY_MS = 86_400_000;

/** The UTC day (YYYY-MM-DD) of an epoch-millisecond time. */
export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/**
 * String order by UTF-16 code units, as Postgres's "C" collation and JavaScript's default sort:
 * not localeCompare, whose order depends on the ICU data of the machine.
 */
export const byCodePoint = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
