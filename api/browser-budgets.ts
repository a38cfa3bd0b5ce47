/**
 * What a browser key may use of its project's hour (docs/adr/0085-browser-key-budgets.md). A browser
 * key sits in every page's source, so anyone may send with it, from a script as well as a page:
 * its requests and events are counted on buckets of their own, and per client address and per
 * anonymous id, so that a stranger with the key can neither lock the project's server and admin
 * keys out of their hour nor take the page's whole share from one address.
 */
export interface BrowserBudget {
  /** Requests of all the project's browser keys. */
  requests: number;
  /** Of those, from one client address. */
  requestsPerAddress: number;
  /** Events those requests carry. */
  events: number;
  /** Of those, from one client address, and under one user or anonymous id. */
  eventsPerAddress: number;
  eventsPerId: number;
}

/** The browser keys' share of the project's hourly requests; server and admin keys keep the rest. */
export const BROWSER_SHARE = 0.5;
/** Events a browser request may carry on average: the tracker batches a page's events. */
export const EVENTS_PER_BROWSER_REQUEST = 50;

/** The browser keys' budgets in a project whose hourly limit is `projectLimit` requests. */
export function browserBudget(projectLimit: number): BrowserBudget {
  const requests = Math.max(1, Math.floor(projectLimit * BROWSER_SHARE));
  const events = requests * EVENTS_PER_BROWSER_REQUEST;
  return {
    requests,
    // A quarter for an address and a tenth for an id, but never so little that a developer trying
    // the tracker from one machine, or one busy visitor of a small project, is refused.
    requestsPerAddress: Math.min(requests, Math.max(100, Math.floor(requests / 4))),
    events,
    eventsPerAddress: Math.min(events, Math.max(5_000, Math.floor(events / 4))),
    eventsPerId: Math.min(events, Math.max(2_500, Math.floor(events / 10))),
  };
}

/**
 * Hourly counts by key kept in this process only (per client address, per anonymous id): too many
 * keys to settle with Postgres on every request, and one stranger's requests reach one process at
 * a time often enough. With n API processes an address may send up to n times its share; the
 * shared buckets bound the total. At most `maxKeys` keys are kept per window (the oldest go first).
 */
export class LocalWindows {
  private window = -1;
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly windowMs: number,
    private readonly maxKeys = 200_000,
  ) {}

  /** The first of the keys that `n` more would take over `cap`, if any (nothing is counted). */
  over(now: number, keys: { key: string; n: number }[], cap: number): string | undefined {
    this.roll(now);
    return keys.find(({ key, n }) => (this.counts.get(key) ?? 0) + n > cap)?.key;
  }

  /** Counts `n` more for each key. */
  add(now: number, keys: { key: string; n: number }[]): void {
    this.roll(now);
    for (const { key, n } of keys) {
      const was = this.counts.get(key);
      if (was === undefined && this.counts.size >= this.maxKeys) {
        this.counts.delete(this.counts.keys().next().value!);
      }
      this.counts.set(key, (was ?? 0) + n);
    }
  }

  private roll(now: number): void {
    const window = Math.floor(now / this.windowMs);
    if (window === this.window) return;
    this.window = window;
    this.counts.clear();
  }
}

/** The user id of each event of an ingest body (one for POST /events), as sent; '' where none is a string. */
export function eventUserIds(json: unknown): string[] {
  const events =
    json && typeof json === 'object' && Array.isArray((json as { events?: unknown }).events)
      ? (json as { events: unknown[] }).events
      : [json];
  return events.map((e) => {
    const id = e && typeof e === 'object' ? (e as { user_id?: unknown }).user_id : undefined;
    return typeof id === 'string' ? id : '';
  });
}
