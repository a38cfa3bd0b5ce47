import { seededRandom } from '../../domain/random.js';

/** Seeded draws. Every draw advances one stream: reordering draws changes all the traffic after them. */
export interface Dice {
  /** uniform in [0, 1) */
  next: () => number;
  pick: <T>(xs: readonly T[]) => T;
  /** an integer from lo to hi, both included */
  between: (lo: number, hi: number) => number;
}

export function dice(seed: number): Dice {
  const next = seededRandom(seed);
  return {
    next,
    pick: (xs) => xs[Math.floor(next() * xs.length)]!,
    between: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
  };
}
