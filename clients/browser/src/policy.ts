/** The sending rules, pure: what to do with an answer, how long to wait, what goes in a request. */

/** First retry after about a second, doubling up to a minute (with jitter, so tabs spread out). */
export const BASE_RETRY_MS = 1000;
export const MAX_RETRY_MS = 60_000;
/** A Retry-After beyond an hour is taken as an hour: the page may live that long, the queue is bounded. */
export const MAX_RETRY_AFTER_MS = 3_600_000;

export type Outcome =
  /** 2xx: the service has the events. */
  | 'sent'
  /** network failure, 408, 429, 5xx: send the same events again later. */
  | 'retry'
  /** 413: too big for one request; send halves. */
  | 'split'
  /** 400: the service names the bad event; drop it, send the others. */
  | 'refused'
  /** other 4xx (bad key, origin not allowed): resending cannot help. */
  | 'drop';

/** status 0 = no answer (network error, CORS refusal, offline). */
export function outcomeOf(status: number): Outcome {
  if (status >= 200 && status < 300) return 'sent';
  if (status === 0 || status === 408 || status === 429 || status >= 500) return 'retry';
  if (status === 413) return 'split';
  if (status === 400) return 'refused';
  return 'drop';
}

/** Retry-After as milliseconds from `now`: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null | undefined, now: number): number | undefined {
  if (!header) return undefined;
  const text = header.trim();
  const ms = /^\d+$/.test(text) ? Number(text) * 1000 : Date.parse(text) - now;
  return Number.isNaN(ms) ? undefined : Math.min(MAX_RETRY_AFTER_MS, Math.max(0, ms));
}

/**
 * Wait before attempt `attempt` (1 = the first retry): what the service asked for (Retry-After)
 * when it did, else exponential backoff with "equal jitter" (half fixed, half random).
 */
export function retryDelay(attempt: number, retryAfterMs: number | undefined, random: number): number {
  if (retryAfterMs !== undefined) return retryAfterMs;
  const ceiling = Math.min(MAX_RETRY_MS, BASE_RETRY_MS * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random);
}

/** Index of the event a 400 names (`details.field` = `events[3].properties.x`), if it names one. */
export function refusedIndex(body: unknown): number | undefined {
  const field = (body as { error?: { details?: { field?: unknown } } } | undefined)?.error?.details?.field;
  const match = typeof field === 'string' ? /^events\[(\d+)\]/.exec(field) : null;
  return match ? Number(match[1]) : undefined;
}

/**
 * How many of `sizes` (bytes of each queued item, in order) go in the next request: at least one,
 * at most `maxCount`, and no more than `maxBytes` together unless the first alone is bigger.
 */
export function batchLength(sizes: number[], maxCount: number, maxBytes: number): number {
  let bytes = 0;
  let n = 0;
  while (n < sizes.length && n < maxCount) {
    bytes += sizes[n]!;
    if (n > 0 && bytes > maxBytes) break;
    n++;
  }
  return n;
}
