import { type Capture, type Properties, currentPage, startCapture } from './capture.js';
import { type Consent, consentState, doNotTrack, redactPath } from './privacy.js';
import { type Refusal, refusalOf } from './policy.js';
import { EVENTS_PATH, type Item, type Reply, Sender } from './sender.js';
import { idStore, unsent } from './storage.js';

export interface TrackerOptions {
  /** An `events:write` key; for a browser, one with `allowed_origins` (docs/api.md). */
  apiKey: string;
  /** Origin of the service, e.g. `https://pi.example.com` (default: the page's own origin). */
  host?: string;
  /** Capture page views, clicks, feature impressions and uses by itself (default true). */
  autocapture?: boolean;
  /** Treat `navigator.globalPrivacyControl` as an opt-out until optIn() (default true). */
  respectGpc?: boolean;
  /** Treat Do-Not-Track (`navigator.doNotTrack === '1'`) as an opt-out until optIn() (default true). */
  respectDnt?: boolean;
  /** Store nothing and send nothing until optIn(); what is tracked before is dropped (default false). */
  requireConsent?: boolean;
  /**
   * Rewrites the page (path plus hash route) before it leaves the page. Default: the built-in
   * `redactPath` (segments that look like ids or tokens become `:id`); `false`: the full path.
   */
  redactPath?: ((path: string) => string) | false;
  /** Send after at most this many ms (default 1000) … */
  flushIntervalMs?: number;
  /** … or once this many events wait (default 50). */
  batchSize?: number;
}

export interface Tracker {
  /**
   * Events from now on carry `userId`; `properties` are merged into the user's (POST /v1/users/identify).
   * The first identify after anonymous events links their anonymous id to the user (`anonymous_id`).
   */
  identify(userId: string, properties?: Properties): void;
  track(event: string, properties?: Properties): void;
  /**
   * Resolves once every event queued so far (clicks still in their response window included) is acknowledged.
   * Rejects when the service refuses the key (401, 403) or the project's quota is used up (429), with the
   * message the console shows.
   */
  flush(): Promise<void>;
  /** Forgets the user and the anonymous id (log-out): a new anonymous id from the next event on. */
  reset(): void;
  /** Stops all collection on this site, remembered across visits; drops what is queued. */
  optOut(): void;
  /** Consents to collection, remembered across visits; overrides GPC and DNT; sends a page view. */
  optIn(): void;
}

const ANON = 'pi_anon_id';
const USER = 'pi_user_id';
const CONSENT = 'pi_consent';

/** A random v4 UUID; getRandomValues works outside secure contexts, randomUUID does not. */
export function uuid(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** Answers whose error body the tracker reads: 400 names the bad event, 401/403/429 why it was refused. */
const READ_BODY = new Set([400, 401, 403, 429]);

function post(
  base: string,
  apiKey: string,
  heard: (reply: Reply) => void,
): (path: string, body: string, keepalive: boolean) => Promise<Reply> {
  return async (path, body, keepalive) => {
    const res = await fetch(base + path, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body,
      keepalive,
      credentials: 'omit',
    });
    const reply: Reply = { status: res.status, retryAfter: res.headers.get('Retry-After') };
    if (READ_BODY.has(res.status)) reply.body = await res.json().catch(() => undefined);
    heard(reply);
    return reply;
  };
}

export function createTracker(options: TrackerOptions): Tracker {
  if (!options.apiKey) throw new Error('pi: createTracker needs an apiKey');
  const base = `${(options.host ?? location.origin).replace(/\/+$/, '')}/v1`;
  const store = idStore();
  const tab = uuid();
  // The key refused (for the life of the page), or the quota used up (until a request passes).
  let denied: Error | undefined;
  let limited: { error: Error; until: number } | undefined;
  const stalled = new Set<(err: Error) => void>();
  const heard = (reply: Reply) => {
    if (reply.status >= 200 && reply.status < 300) limited = undefined;
    const refusal: Refusal | undefined = denied ? undefined : refusalOf(reply, location.origin, Date.now());
    if (!refusal) return;
    const error = new Error(refusal.message);
    // Said once: a refused key stops the tracker, a 429 is said again only after a request passed.
    if (refusal.kind === 'denied' || !limited) console.error(refusal.message);
    if (refusal.kind === 'denied') {
      // Resending cannot help and a refused key must not fill the visitor's storage.
      denied = error;
      sender.clear();
      unsent.save(tab, []);
    } else {
      limited = { error, until: refusal.retryAt ?? Date.now() };
    }
    for (const reject of stalled) reject(error);
  };
  const sender = new Sender({
    post: post(base, options.apiKey, heard),
    batchSize: options.batchSize,
    intervalMs: options.flushIntervalMs,
    // After a refusal the console error says it all; the dropped batch needs no warning of its own.
    warn: (m) => {
      if (!denied) console.warn(`pi: ${m}`);
    },
  });

  const consent = (): Consent =>
    consentState({
      stored: store.get(CONSENT),
      requireConsent: options.requireConsent === true,
      signalsOptOut:
        (options.respectGpc !== false &&
          (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true) ||
        (options.respectDnt !== false && doNotTrack(navigator, window as { doNotTrack?: string | null })),
    });
  const optedOut = () => consent() !== 'granted';
  const custom = options.redactPath;
  // A hook that throws or returns no string falls back to the built-in: never the full path by accident.
  const redact = (path: string): string => {
    if (custom === false) return path;
    if (!custom) return redactPath(path);
    try {
      const out = custom(path);
      if (typeof out === 'string') return out.slice(0, 500);
    } catch {
      // The site's hook failed; the built-in still applies.
    }
    return redactPath(path);
  };
  const page = () => redact(currentPage());
  // Created on first use, so an opted-out visitor never gets an identifier stored.
  const userId = () => {
    const known = store.get(USER) ?? store.get(ANON);
    if (known) return known;
    const fresh = `anon-${uuid()}`;
    store.set(ANON, fresh);
    return fresh;
  };
  const emit = (event: string, properties: Properties, at = new Date()) => {
    if (optedOut() || denied) return;
    sender.add({
      path: EVENTS_PATH,
      payload: { user_id: userId(), event, properties, timestamp: at.toISOString(), message_id: uuid() },
    });
  };

  // What an earlier page (or another tab) could not deliver.
  if (!optedOut()) for (const item of unsent.take<Item>()) sender.add(item);
  let capture: Capture | undefined;
  if (options.autocapture !== false) {
    capture = startCapture(emit, redact);
    capture.pageView();
  }

  const leave = () => {
    capture?.leave();
    sender.unload();
    if (!optedOut() && !denied) unsent.save(tab, sender.items());
  };
  addEventListener('pagehide', leave);
  document.addEventListener('visibilitychange', () =>
    // Back in view: this page sends its own queue again, so the saved copy is not needed.
    document.visibilityState === 'hidden' ? leave() : unsent.save(tab, []),
  );

  return {
    identify(id, properties) {
      if (typeof id !== 'string' || id.length === 0 || id.length > 255) {
        throw new Error('pi.identify: userId must be a string of 1 to 255 characters');
      }
      if (optedOut() || denied) return;
      // Stitching: the anonymous id of this visitor's events so far becomes the user's, once; a
      // visitor already identified (as this user or another) has no anonymous id left to link.
      const anonymous = store.get(USER) === null ? store.get(ANON) : null;
      store.set(USER, id);
      store.remove(ANON);
      sender.add({
        path: '/users/identify',
        payload: {
          user_id: id,
          ...(anonymous && anonymous !== id && { anonymous_id: anonymous }),
          ...(properties && { properties }),
        },
      });
    },
    track(event, properties = {}) {
      if (typeof event !== 'string' || event.length === 0 || event.length > 255) {
        throw new Error('pi.track: the event name must be a string of 1 to 255 characters');
      }
      emit(event, { page: page(), ...properties });
    },
    async flush() {
      if (denied) throw denied;
      await capture?.settle();
      if (limited && Date.now() < limited.until && sender.items().length > 0) throw limited.error;
      // Settled by the sender, or rejected by the next refusal (the sender would wait for the retry).
      let stop: (err: Error) => void = () => undefined;
      try {
        await new Promise<void>((resolve, reject) => {
          stop = reject;
          stalled.add(reject);
          void sender.flush().then(resolve);
        });
      } finally {
        stalled.delete(stop);
      }
    },
    reset() {
      store.remove(USER);
      store.remove(ANON);
    },
    optOut() {
      store.set(CONSENT, 'out');
      store.remove(USER);
      store.remove(ANON);
      sender.clear();
      unsent.save(tab, []);
    },
    optIn() {
      const was = optedOut();
      store.set(CONSENT, 'in');
      if (was) capture?.pageView(true);
    },
  };
}
