/** What the watch needs of a logger (a pino Logger is one). */
export interface HoldLog {
  warn(fields: { held_ms: number }, message: string): void;
}

/**
 * Warns each time this process's event loop was held for `thresholdMs` or more (a timer of
 * `everyMs` fired that much late): a long synchronous step, a long garbage collection or a
 * starved core. A Kafka consumer's heartbeats wait on the same loop, so a hold past the group's
 * session timeout costs it its membership, and the log then says why.
 */
export function watchEventLoop(log: HoldLog, thresholdMs = 2000, everyMs = 250): { stop(): void } {
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    const heldMs = now - last - everyMs;
    last = now;
    if (heldMs >= thresholdMs) log.warn({ held_ms: Math.round(heldMs) }, 'event loop held');
  }, everyMs);
  timer.unref();
  return { stop: () => clearInterval(timer) };
}

/**
 * Lets timers and I/O callbacks run before going on: a heartbeat, another partition's statement
 * results. An `await` of something already resolved goes on in the microtask queue without them,
 * so the synchronous stages of a large batch, and of the batches of other partitions, ran back to
 * back: holds of 2–5 s on a starved machine, and a consumer evicted from its group
 * (docs/performance.md). Called between such stages.
 */
export const yieldToLoop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
