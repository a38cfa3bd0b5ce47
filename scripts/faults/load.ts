/**
 * The fault suite's clients: a paced load of `POST /events` from a few simulated users, each
 * message with its own `message_id` and retried as a well-behaved client does, and a bystander
 * loop that times reads the fault should not touch.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { Probe, Sent } from './report.js';

export interface LoadOptions {
  baseUrl: string;
  key: string;
  /** message ids are `${run}-${n}`, users `${run}-u${k}` */
  run: string;
  users: number;
  /** messages offered per second */
  rate: number;
  /** a client gives an attempt this long before it counts as no answer */
  timeoutMs: number;
  /** attempts per message at most (the first included) */
  attempts: number;
  /** wait after a network error or an answer without Retry-After, ms */
  backoffMs: number;
}

export interface RunningLoad {
  /** Message ids acknowledged so far. */
  acked(): string[];
  /** Stops offering new messages; resolves once every message was acknowledged or gave up. */
  stop(): Promise<Sent[]>;
}

/** Clock of the run: ms since the suite started (performance.now is monotonic). */
export const now = () => performance.now();

async function attempt(o: LoadOptions, body: string): Promise<{ status: number; retryAfterS?: number }> {
  try {
    const res = await fetch(`${o.baseUrl}/events`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${o.key}`, 'Content-Type': 'application/json' },
      body,
      signal: AbortSignal.timeout(o.timeoutMs),
    });
    await res.arrayBuffer();
    const retryAfter = Number(res.headers.get('retry-after'));
    return { status: res.status, ...(retryAfter > 0 && { retryAfterS: retryAfter }) };
  } catch {
    return { status: 0 };
  }
}

/** One message until 202 or its attempts run out; 503, 429 and network errors are retried. */
async function deliver(o: LoadOptions, messageId: string, user: string): Promise<Sent> {
  const sent: Sent = { messageId, statuses: [], latenciesMs: [] };
  const body = JSON.stringify({ user_id: user, event: 'page_view', message_id: messageId, properties: { page: '/f' } });
  for (let i = 0; i < o.attempts; i++) {
    const start = now();
    const { status, retryAfterS } = await attempt(o, body);
    sent.statuses.push(status);
    sent.latenciesMs.push(now() - start);
    if (status === 202) {
      sent.ackedAt = now();
      return sent;
    }
    if (status !== 0 && status !== 429 && status !== 503) return sent; // the request itself is wrong
    await sleep(retryAfterS !== undefined ? retryAfterS * 1000 : o.backoffMs);
  }
  return sent;
}

/** Offers `rate` messages per second, round-robin over the users, until stopped. */
export function startLoad(o: LoadOptions): RunningLoad {
  const pending: Promise<Sent>[] = [];
  const acked: string[] = [];
  let running = true;
  const loop = (async () => {
    const start = now();
    for (let n = 0; running; n++) {
      const sending = deliver(o, `${o.run}-${n}`, `${o.run}-u${n % o.users}`);
      pending.push(sending.then((s) => (s.ackedAt !== undefined && acked.push(s.messageId), s)));
      const wait = start + ((n + 1) * 1000) / o.rate - now();
      if (wait > 0) await sleep(wait);
    }
  })();
  return {
    acked: () => [...acked],
    async stop() {
      running = false;
      await loop;
      return Promise.all(pending);
    },
  };
}

export interface RunningProbes {
  stop(): Promise<Probe[]>;
}

/** Times each GET of `paths` in turn, one request at a time, every `everyMs`. */
export function startProbes(baseUrl: string, key: string, paths: string[], everyMs: number): RunningProbes {
  const probes: Probe[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      for (const path of paths) {
        const start = now();
        const status = await fetch(`${baseUrl}${path}`, {
          headers: { Authorization: `Bearer ${key}` },
          signal: AbortSignal.timeout(30_000),
        }).then(
          async (res) => (await res.arrayBuffer(), res.status),
          () => 0,
        );
        const ok = status === 200 || (path === '/health' && status === 503);
        probes.push({ what: path, status, ms: now() - start, ok });
      }
      await sleep(everyMs);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return probes;
    },
  };
}
