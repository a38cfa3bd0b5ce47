import pgListen, { type Subscriber } from 'pg-listen';
import { setTimeout as sleep } from 'node:timers/promises';
import { classify } from './errors.js';
import type { Logger } from './log.js';
import { type RunShare, restFor } from './pacing.js';

// pg-listen is CommonJS with an __esModule default export.
const createSubscriber = pgListen.default;

/** Serialization failure and deadlock: another transaction changed the same rows first. */
const LOST_A_RACE = new Set(['40001', '40P01']);

/**
 * Runs `work` when woken, never twice at once; wakes during a run coalesce into one more run.
 * A failed run is logged and retried at the next wake; one that lost a race with another
 * transaction runs again at once. With a `pace`, each run is followed by a
 * rest in proportion to its length (`RunShare`), and wakes in it wait for its end: a long run
 * is a busy machine's sign, and the next one then finds more to do at once. `wake(true)` (a
 * user waits on the run) skips or cuts the rest, as `stop` does.
 */
export function wakeLoop(work: () => Promise<void>, log: Logger, pace?: RunShare) {
  let running: Promise<void> | undefined;
  let again = false;
  let urgent = false;
  let stopped = false;
  let endRest: (() => void) | undefined;
  const rest = (ms: number) =>
    new Promise<void>((resolve) => {
      const end = () => {
        clearTimeout(timer);
        endRest = undefined;
        resolve();
      };
      const timer = setTimeout(end, ms);
      endRest = end;
    });
  const run = async (): Promise<void> => {
    do {
      again = false;
      urgent = false;
      const started = performance.now();
      try {
        await work();
      } catch (err) {
        const { code } = classify(err);
        if (LOST_A_RACE.has(code)) {
          // As it may at any time (npm start's own set-up meets the workers' first runs): run again.
          log.info({ code }, 'run met a concurrent transaction; running it again');
          again = true;
        } else log.error({ err }, 'run failed; retried at the next wake-up');
      }
      const ms = pace ? Math.min(pace.maxRestMs, restFor(performance.now() - started, pace.share)) : 0;
      if (ms > 0 && !stopped && !urgent) await rest(ms);
    } while (again && !stopped);
    running = undefined;
  };
  return {
    wake(now = false): void {
      if (stopped) return;
      if (!running) {
        running = run();
        return;
      }
      again = true;
      if (!now) return;
      urgent = true;
      endRest?.();
    },
    async stop(): Promise<void> {
      stopped = true;
      endRest?.();
      await running;
    },
  };
}

/**
 * A worker that runs `work` now and then every `everyMs` (never twice at once): for work that
 * follows tables, not notifications. `pace` as in `wakeLoop`.
 */
export function periodicWorker(
  work: () => Promise<unknown>,
  everyMs: number,
  log: Logger,
  pace?: RunShare,
): Promise<{ stop(): Promise<void> }> {
  const loop = wakeLoop(
    async () => {
      await work();
    },
    log,
    pace,
  );
  const timer = setInterval(() => loop.wake(), everyMs);
  loop.wake();
  return Promise.resolve({
    async stop() {
      clearInterval(timer);
      await loop.stop();
    },
  });
}

export const LISTENER_APPLICATION = 'pi-listener';

export interface Listener {
  close(): Promise<void>;
}

/**
 * LISTEN on `channels` with pg-listen, reconnecting forever. NOTIFY is only a wake-up signal:
 * `onWake` also runs after every (re)connection and every `pollMs`, so work announced while the
 * connection was down is found by the catch-up, late but never lost.
 */
export function listen(options: {
  databaseUrl: string;
  channels: string[];
  pollMs: number;
  log: Logger;
  onNotification?: (channel: string, payload: unknown) => void;
  onWake: (reason: 'notification' | 'connected' | 'timer') => void;
}): Listener {
  const { log } = options;
  let closed = false;
  let subscriber: Subscriber | undefined;
  const timer = setInterval(() => options.onWake('timer'), options.pollMs);
  timer.unref();

  const connect = async () => {
    for (let attempt = 0; !closed; attempt++) {
      const candidate = createSubscriber(
        // Named, so an operator (and a test) can tell listener connections apart.
        { connectionString: options.databaseUrl, application_name: LISTENER_APPLICATION },
        {
          retryLimit: Infinity,
          retryTimeout: 0,
          retryInterval: (n) => Math.min(5000, 100 * 2 ** n),
          paranoidChecking: 10_000,
        },
      );
      candidate.events.on('error', (err) => log.warn({ err }, 'notification listener error'));
      candidate.events.on('reconnect', (n) => log.warn({ attempt: n }, 'notification listener reconnecting'));
      candidate.events.on('connected', () => options.onWake('connected'));
      candidate.events.on('notification', (n) => {
        options.onNotification?.(n.channel, n.payload);
        options.onWake('notification');
      });
      try {
        await candidate.connect();
        for (const channel of options.channels) await candidate.listenTo(channel);
        subscriber = candidate;
        if (closed) await candidate.close();
        // LISTEN came after `connected`: catch up on what was announced in between.
        else options.onWake('connected');
        return;
      } catch (err) {
        log.warn({ err, attempt }, 'notification listener cannot connect yet');
        await candidate.close().catch(() => undefined);
        await sleep(Math.min(5000, 100 * 2 ** attempt));
      }
    }
  };
  const connecting = connect();

  return {
    async close() {
      closed = true;
      clearInterval(timer);
      await connecting;
      await subscriber?.close().catch(() => undefined);
    },
  };
}
