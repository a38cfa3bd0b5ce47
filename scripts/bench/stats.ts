/** Percentiles of a sample, in its unit, rounded to 0.1. */
export function percentiles(values: number[]): { n: number; p50: number; p99: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q: number) =>
    sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const r = (x: number) => Math.round(x * 10) / 10;
  return { n: sorted.length, p50: r(at(0.5)), p99: r(at(0.99)), max: r(sorted[sorted.length - 1] ?? Number.NaN) };
}

export const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;
