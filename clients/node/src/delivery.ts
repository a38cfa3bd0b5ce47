import { ApiError, DeliveryError } from './errors.js';
import { type HttpOptions, exchange, retriable, retryDelay } from './http.js';

/** One event as POST /v1/events/batch takes it. */
export interface WireEvent {
  user_id: string;
  event: string;
  properties?: Record<string, unknown>;
  timestamp?: string;
  message_id: string;
}

export type ErrorCallback = (error: Error, events: WireEvent[]) => void;

export interface DeliveryOptions extends HttpOptions {
  maxQueueSize: number;
  batchSize: number;
  /** ms an event waits for its batch to fill */
  flushInterval: number;
  maxRetries: number;
  retryBaseDelay: number;
  retryMaxDelay: number;
  onError: ErrorCallback;
}

/** The service's limit on a request body. */
export const MAX_BODY_BYTES = 1_048_576;
const ENVELOPE_BYTES = '{"events":[]}'.length;

/**
 * The background queue: bounded (a full queue drops its oldest event and counts it), sent in
 * batches of at most `batchSize` events and 1 MiB by one sender at a time, each batch retried
 * with the same body (so the same message_ids) until the service takes it or it is given up.
 * Nothing here throws into the application: failures go to `onError`.
 */
export class Delivery {
  private readonly queue: { event: WireEvent; json: string }[] = [];
  private timer: NodeJS.Timeout | undefined;
  private sending: Promise<void> | undefined;
  /** Set by flush(timeout): retries stop waiting, and what is left is given up, at this instant. */
  private deadline = Infinity;
  /** Flushes being awaited: while there are any, a retry's wait keeps the process alive. */
  private flushers = 0;
  private retryTimer: NodeJS.Timeout | undefined;
  dropped = 0;
  delivered = 0;
  failed = 0;

  constructor(private readonly options: DeliveryOptions) {}

  get pending(): number {
    return this.queue.length + (this.sending ? 1 : 0);
  }

  add(event: WireEvent): void {
    let json: string;
    try {
      json = JSON.stringify(event);
    } catch (err) {
      return this.giveUp([event], err instanceof Error ? err : new Error(String(err)));
    }
    if (Buffer.byteLength(json) + ENVELOPE_BYTES > MAX_BODY_BYTES) {
      return this.giveUp([event], new DeliveryError('the event is larger than the 1 MiB a request may carry'));
    }
    if (this.queue.length >= this.options.maxQueueSize) {
      this.queue.shift();
      this.dropped++;
    }
    this.queue.push({ event, json });
    if (this.queue.length >= this.options.batchSize) this.send();
    else this.timer ??= setTimeout(() => this.send(), this.options.flushInterval).unref();
  }

  /**
   * Sends everything queued and waits for it: true once each event is delivered or refused by the
   * service, false when `timeout` (ms) ran out first (what was left is given up, to onError).
   */
  async flush(timeout = Infinity): Promise<boolean> {
    this.deadline = Math.min(this.deadline, Date.now() + timeout);
    const failed = this.failed;
    this.flushers++;
    this.retryTimer?.ref();
    try {
      while (this.queue.length > 0 || this.sending) {
        this.send();
        await this.sending;
      }
      return !(Date.now() >= this.deadline && this.failed > failed);
    } finally {
      if (--this.flushers === 0) this.deadline = Infinity;
    }
  }

  /** Gives up what is still queued (after a flush ran out of time). */
  close(reason: string): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    const left = this.queue.splice(0);
    if (left.length > 0)
      this.giveUp(
        left.map((q) => q.event),
        new DeliveryError(reason),
      );
  }

  private send(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.sending ??= this.drain().finally(() => {
      this.sending = undefined;
      if (this.queue.length > 0) this.timer ??= setTimeout(() => this.send(), this.options.flushInterval).unref();
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      if (Date.now() >= this.deadline) return this.close('the flush ran out of time');
      await this.deliver(this.takeBatch());
    }
  }

  /** The oldest events that fit in one request: at most batchSize of them and 1 MiB. */
  private takeBatch(): { event: WireEvent; json: string }[] {
    let bytes = ENVELOPE_BYTES;
    let n = 0;
    while (n < this.queue.length && n < this.options.batchSize) {
      const next = Buffer.byteLength(this.queue[n]!.json) + (n > 0 ? 1 : 0);
      if (bytes + next > MAX_BODY_BYTES) break;
      bytes += next;
      n++;
    }
    return this.queue.splice(0, n);
  }

  private async deliver(batch: { event: WireEvent; json: string }[]): Promise<void> {
    for (let attempt = 0; batch.length > 0; attempt++) {
      try {
        await exchange(this.options, 'POST', '/events/batch', `{"events":[${batch.map((b) => b.json).join(',')}]}`);
        this.delivered += batch.length;
        return;
      } catch (err) {
        // One invalid event refuses its whole batch (events[i]…): hand it over, send the rest again.
        const bad = refusedIndex(err, batch.length);
        if (bad !== undefined) {
          this.giveUp(
            batch.splice(bad, 1).map((b) => b.event),
            err as Error,
          );
          attempt = -1;
          continue;
        }
        const delay = retryDelay(attempt, this.options.retryBaseDelay, this.options.retryMaxDelay, err);
        if (!retriable(err) || attempt >= this.options.maxRetries || Date.now() + delay >= this.deadline) {
          return this.giveUp(
            batch.map((b) => b.event),
            err as Error,
          );
        }
        await new Promise((resolve) => {
          // Waiting alone never keeps the application alive; a flush being awaited does.
          this.retryTimer = setTimeout(resolve, delay);
          if (this.flushers === 0) this.retryTimer.unref();
        });
        this.retryTimer = undefined;
      }
    }
  }

  /** Hands events to onError, counted as failed. */
  giveUp(events: WireEvent[], error: Error): void {
    this.failed += events.length;
    try {
      this.options.onError(error, events);
    } catch {
      // The application's callback failing must not stop the sender.
    }
  }
}

/** The event a 400 names (details.field events[i]…), if the batch has it. */
function refusedIndex(err: unknown, size: number): number | undefined {
  if (!(err instanceof ApiError) || err.status !== 400) return undefined;
  const field = err.details.field;
  const match = typeof field === 'string' ? /^events\[(\d+)\]/.exec(field) : null;
  const i = match ? Number(match[1]) : undefined;
  return i !== undefined && i < size ? i : undefined;
}
