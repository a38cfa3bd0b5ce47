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

/** An answer that stops the tracker (`denied`: the key is refused) or holds it back (`limited`: 429). */
export interface Refusal {
  kind: 'denied' | 'limited';
  /** what the developer reads in the console and in flush()'s rejection: the cause and the fix */
  message: string;
  /** limited: when the events are sent again (ms since the epoch), if the service said */
  retryAt?: number;
}

interface ErrorBody {
  error?: { code?: unknown; message?: unknown; details?: { reason?: unknown; origin?: unknown; bucket?: unknown } };
}

const STOPPED = 'Nothing more is sent from this page, and what was queued is dropped.';
const BROWSER_KEY = 'an events:write key whose allowed_origins list it (admin console, API keys; or POST /v1/api-keys)';

/**
 * What a refusal of the key (401, 403) or of the project's quota (429) means for the developer, from
 * the answer and the page's origin; undefined for any other answer. The service's error body names
 * the reason (docs/api.md); the page's origin stands in when it does not.
 */
export function refusalOf(
  reply: { status: number; retryAfter: string | null; body?: unknown },
  pageOrigin: string,
  now: number,
): Refusal | undefined {
  const error = (reply.body as ErrorBody | undefined)?.error;
  // `(401: The API key is invalid or has been revoked.)`: the status, and the service's words when it sent some.
  const said = `(${reply.status}${typeof error?.message === 'string' ? `: ${error.message}` : ''})`;
  const origin = typeof error?.details?.origin === 'string' ? error.details.origin : pageOrigin;
  if (reply.status === 401) {
    return {
      kind: 'denied',
      message:
        `pi: the service refused the tracker's API key: it is unknown, revoked or malformed ${said}. ` +
        `Put a live browser key for ${origin} in data-api-key (apiKey): ${BROWSER_KEY}. ${STOPPED}`,
    };
  }
  if (reply.status === 403) {
    const reason = error?.details?.reason;
    const cause =
      reason === 'origin_not_allowed'
        ? `the key does not allow the origin ${origin} (403). Add it: use a browser key that lists ${origin}, ${BROWSER_KEY}.`
        : reason === 'server_key_in_page'
          ? `it is a server key (no allowed_origins), and a key in a page is readable by anyone (403). ` +
            `Use a browser key for ${origin}, ${BROWSER_KEY}, and revoke this key if the page was published.`
          : `the key may not send events ${said}. Use a browser key for ${origin}, ${BROWSER_KEY}.`;
    return { kind: 'denied', message: `pi: the service refused the tracker's API key: ${cause} ${STOPPED}` };
  }
  if (reply.status === 429) {
    const wait = parseRetryAfter(reply.retryAfter, now);
    const when =
      wait === undefined
        ? 'retries with a backoff of up to a minute'
        : `sends them again at ${new Date(now + wait).toISOString()} (in ${Math.ceil(wait / 1000)} s)`;
    // Browser keys have budgets of their own (docs/api.md, "Rate limits"): say which one is used up.
    const bucket = error?.details?.bucket;
    const what =
      typeof bucket === 'string' && bucket.startsWith('browser_')
        ? "this visitor's share of the browser key's hour is used up"
        : bucket === 'browser'
          ? "the browser keys' share of the project's hour is used up"
          : "the project's hourly request limit is used up";
    return {
      kind: 'limited',
      message:
        `pi: ${what} ${said}. The tracker keeps this page's events ` +
        `and ${when}. If this is not a one-off, raise the project's rate tier.`,
      ...(wait !== undefined && { retryAt: now + wait }),
    };
  }
  return undefined;
}
