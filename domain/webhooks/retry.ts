/** The spec's delivery rule: one attempt and up to 3 retries, then a recorded give-up. */
export const ATTEMPTS_PER_ROUND = 4;

/**
 * Wait before retry n (1-based) of a round: base·2^(n-1), ±20 % jitter so that endpoints coming
 * back from an outage are not hit by every sender at once. The jitter never lets a later gap be
 * shorter than an earlier one (0.8·2 > 1.2).
 */
export function retryDelayMs(retry: number, baseMs: number, random: () => number = Math.random): number {
  return Math.round(baseMs * 2 ** (retry - 1) * (0.8 + 0.4 * random()));
}

export type AttemptOutcome = { status: number } | { error: string };

export type NextStep = { kind: 'succeeded' } | { kind: 'retry'; delayMs: number } | { kind: 'failed' };

/** What follows an attempt; `attemptInRound` counts this attempt (1 = the first try). */
export function nextStep(
  outcome: AttemptOutcome,
  attemptInRound: number,
  baseMs: number,
  random?: () => number,
): NextStep {
  if ('status' in outcome && outcome.status >= 200 && outcome.status < 300) return { kind: 'succeeded' };
  if (attemptInRound >= ATTEMPTS_PER_ROUND) return { kind: 'failed' };
  return { kind: 'retry', delayMs: retryDelayMs(attemptInRound, baseMs, random) };
}
