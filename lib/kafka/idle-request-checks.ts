import { createRequire } from 'node:module';

/** What kafkajs's RequestQueue (one per broker connection) holds that the mend reads. */
export interface RequestQueue {
  pending: unknown[];
  /** ms since the epoch; -1 when never throttled */
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
  destroy(): void;
}

export interface RequestQueueClass {
  new (options: {
    maxInFlightRequests: number | null;
    requestTimeout: number;
    enforceRequestTimeout: boolean;
    clientId: string;
    broker: string;
    logger: unknown;
  }): RequestQueue;
  prototype: RequestQueue;
}

/** kafkajs's own class (its package has no exports map: the path is reachable). */
export const kafkajsRequestQueue = (): RequestQueueClass =>
  createRequire(import.meta.url)('kafkajs/src/network/requestQueue/index.js') as RequestQueueClass;

let mended = false;

/**
 * kafkajs 2.2.4 arms a timer to check its held-back requests after every check, also when none is
 * held back and the broker does not throttle, and then at a negative delay, i.e. 1 ms
 * (tulios/kafkajs#1556 and #1704, unreleased fixes): each broker connection of a process ran a
 * 1 ms timer loop for ever. Timers were 23 % of the API's busy CPU in a profile under load, nearly
 * all of them this loop's, and 14 % of the processors' (docs/performance.md). A
 * check is now armed only when a request waits or the broker throttles; a request held back later
 * arms its own (`push`), and a fulfilled one checks at once (`fulfillRequest`). Every other case
 * runs kafkajs's own code.
 */
export function stopIdleRequestChecks(): void {
  if (mended) return;
  const RequestQueue = kafkajsRequestQueue();
  const { prototype } = RequestQueue;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with the queue as `this` below
  const schedule = prototype.scheduleCheckPendingRequests;
  if (typeof schedule !== 'function') throw new Error('kafkajs: RequestQueue.scheduleCheckPendingRequests is gone');
  prototype.scheduleCheckPendingRequests = function (this: RequestQueue) {
    if (this.pending.length === 0 && this.throttledUntil <= Date.now()) return;
    schedule.call(this);
  };
  mended = true;
}
