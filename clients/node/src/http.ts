import { setTimeout as sleep } from 'node:timers/promises';
import { ApiError, NetworkError } from './errors.js';

export interface HttpOptions {
  /** The service's base URL, with /v1 */
  baseUrl: string;
  apiKey: string;
  /** Per attempt, ms */
  timeout: number;
  userAgent: string;
}

export interface Answer {
  status: number;
  body: unknown;
}

/** Seconds from a Retry-After header: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, (at - now) / 1000);
}

/** Worth another attempt: no answer, a 429, or a 5xx other than 501 (not implemented never changes). */
export const retriable = (error: unknown): boolean =>
  error instanceof NetworkError ||
  (error instanceof ApiError && (error.status === 429 || (error.status >= 500 && error.status !== 501)));

/**
 * Exponential backoff with full jitter (AWS's "full jitter": a random delay up to the capped
 * exponential), and never less than the service's Retry-After. Milliseconds.
 */
export function retryDelay(attempt: number, base: number, max: number, error: unknown, random = Math.random): number {
  const backoff = random() * Math.min(max, base * 2 ** attempt);
  const asked = error instanceof ApiError && error.retryAfter !== undefined ? error.retryAfter * 1000 : 0;
  return Math.max(backoff, asked);
}

/** One HTTP exchange; resolves with a 2xx answer, throws ApiError for any other and NetworkError without one. */
export async function exchange(options: HttpOptions, method: string, path: string, body?: unknown): Promise<Answer> {
  const headers: Record<string, string> = {
    Authorization: `Bearer ${options.apiKey}`,
    'User-Agent': options.userAgent,
    Accept: 'application/json',
  };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  let text: string;
  try {
    res = await fetch(`${options.baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
      signal: AbortSignal.timeout(options.timeout),
    });
    text = await res.text();
  } catch (err) {
    throw new NetworkError(`${method} ${path}: ${(err as Error).message}`, { cause: err });
  }
  const parsed = parseBody(res.headers.get('content-type'), text);
  if (res.ok) return { status: res.status, body: parsed };
  const error = (parsed as { error?: { code?: unknown; message?: unknown; details?: unknown } } | undefined)?.error;
  throw new ApiError(
    res.status,
    typeof error?.code === 'string' ? error.code : `http_${res.status}`,
    typeof error?.message === 'string' ? error.message : `${method} ${path} answered ${res.status}`,
    error?.details && typeof error.details === 'object' ? (error.details as Record<string, unknown>) : {},
    parseRetryAfter(res.headers.get('retry-after')),
  );
}

function parseBody(type: string | null, text: string): unknown {
  if (!text) return undefined;
  if (!type?.includes('json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * A call the application waits for (users, reads, admin): retried like deliveries, at most
 * `retries` times, but a Retry-After longer than `timeout` is not waited out. A call that is not
 * idempotent (creating a job) is retried only after a 429, which the service answers before doing
 * anything.
 */
export async function call(
  options: HttpOptions & { retries: number; retryBase: number; retryMax: number },
  method: string,
  path: string,
  body?: unknown,
): Promise<Answer> {
  const idempotent = method !== 'POST' || path === '/users/identify';
  for (let attempt = 0; ; attempt++) {
    try {
      return await exchange(options, method, path, body);
    } catch (err) {
      const again = idempotent ? retriable(err) : err instanceof ApiError && err.status === 429;
      if (attempt >= options.retries || !again) throw err;
      const delay = retryDelay(attempt, options.retryBase, options.retryMax, err);
      if (delay > options.timeout) throw err;
      await sleep(delay);
    }
  }
}
