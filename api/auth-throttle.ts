import { ApiError } from './errors.js';

const WINDOW_MS = 60_000;

/**
 * Failed authentications (401) per client address in fixed one-minute windows, in this process's
 * memory: an address over its budget is refused with 429 before its key is looked up, so a flood
 * of missing or wrong keys costs neither Postgres queries nor hashing. Each API process keeps its
 * own counts (n processes allow n times the budget), and requests of one address checked while
 * none of them had failed yet all pass (the budget is exceeded by at most the address's
 * concurrency). The map holds one window and is emptied when the next begins.
 */
export class AuthThrottle {
  private window = 0;
  private readonly failures = new Map<string, number>();

  constructor(private readonly perMinute: number) {}

  /** Throws 429 (Retry-After: the end of the window) when `address` used up its failures. */
  check(address: string, now = Date.now()): void {
    this.roll(now);
    if ((this.failures.get(address) ?? 0) < this.perMinute) return;
    const retryAfter = Math.max(1, Math.ceil((this.window + WINDOW_MS - now) / 1000));
    throw new ApiError(
      429,
      'rate_limited',
      `Too many requests without a valid API key from this address; retry after ${retryAfter} s.`,
      { limit: this.perMinute, reset: (this.window + WINDOW_MS) / 1000 },
      { 'Retry-After': String(retryAfter) },
    );
  }

  failed(address: string, now = Date.now()): void {
    this.roll(now);
    this.failures.set(address, (this.failures.get(address) ?? 0) + 1);
  }

  private roll(now: number): void {
    const window = Math.floor(now / WINDOW_MS) * WINDOW_MS;
    if (window === this.window) return;
    this.window = window;
    this.failures.clear();
  }
}
