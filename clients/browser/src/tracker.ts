import { type Capture, type Properties, currentPage, startCapture } from './capture.js';
import { type Consent, consentState, doNotTrack, redactPath } from './privacy.js';
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
  /** Events from now on carry `userId`; `properties` are merged into the user's (POST /v1/users/identify). */
  identify(userId: string, properties?: Properties): void;
  track(event: string, properties?: Properties): void;
  /** Resolves once every event queued so far (clicks still in their response window included) is acknowledged. */
  flush(): Promise<void>;
  /** Forgets the user (log-out): a new anonymous id from now on. */
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

function post(base: string, apiKey: string): (path: string, body: string, keepalive: boolean) => Promise<Reply> {
  return async (path, body, keepalive) => {
    const res = await fetch(base + path, {
      method: 'POST',
      headers: { Authorization: `Bearer ${apiKey}`, 'Content-Type': 'application/json' },
      body,
      keepalive,
      credentials: 'omit',
    });
    const reply: Reply = { status: res.status, retryAfter: res.headers.get('Retry-After') };
    if (res.status === 400) reply.body = await res.json().catch(() => undefined);
    return reply;
  };
}

export function createTracker(options: TrackerOptions): Tracker {
  if (!options.apiKey) throw new Error('pi: createTracker needs an apiKey');
  const base = `${(options.host ?? location.origin).replace(/\/+$/, '')}/v1`;
  const store = idStore();
  const tab = uuid();
  const sender = new Sender({
    post: post(base, options.apiKey),
    batchSize: options.batchSize,
    intervalMs: options.flushIntervalMs,
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
    if (optedOut()) return;
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
    if (!optedOut()) unsent.save(tab, sender.items());
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
      if (optedOut()) return;
      store.set(USER, id);
      sender.add({ path: '/users/identify', payload: { user_id: id, ...(properties && { properties }) } });
    },
    track(event, properties = {}) {
      if (typeof event !== 'string' || event.length === 0 || event.length > 255) {
        throw new Error('pi.track: the event name must be a string of 1 to 255 characters');
      }
      emit(event, { page: page(), ...properties });
    },
    async flush() {
      await capture?.settle();
      await sender.flush();
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
