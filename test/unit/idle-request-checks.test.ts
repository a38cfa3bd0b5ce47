import assert from 'node:assert/strict';
import { kafkajsRequestQueue, stopIdleRequestChecks } from '../../lib/kafka/idle-request-checks.js';

describe("kafkajs's request queue, mended (lib/kafka/idle-request-checks.ts)", () => {
  const RequestQueue = kafkajsRequestQueue();
  const queues: InstanceType<typeof RequestQueue>[] = [];
  const queue = () => {
    const q = new RequestQueue({
      maxInFlightRequests: null,
      requestTimeout: 30_000,
      enforceRequestTimeout: false,
      clientId: 'test',
      broker: 'localhost:9092',
      logger: { debug() {}, info() {}, warn() {}, error() {} },
    });
    queues.push(q);
    return q;
  };
  // Their timers stopped whatever the outcome (kafkajs 2.2.4's would keep the process alive).
  afterEach(() => queues.splice(0).forEach((q) => q.destroy()));
  before(stopIdleRequestChecks);

  it('arms no timer when no request waits and the broker does not throttle (kafkajs 2.2.4 armed one every 1 ms)', () => {
    const q = queue();
    q.checkPendingRequests();
    assert.equal(q.throttleCheckTimeoutId, null);
  });

  it('still checks again while the broker throttles, or when a request waits', () => {
    const throttled = queue();
    throttled.throttledUntil = Date.now() + 60_000;
    throttled.checkPendingRequests();
    assert.notEqual(throttled.throttleCheckTimeoutId, null);

    const waiting = queue();
    waiting.pending.push({ held: 'back' });
    waiting.scheduleCheckPendingRequests();
    assert.notEqual(waiting.throttleCheckTimeoutId, null);
  });
});
