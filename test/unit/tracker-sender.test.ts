import assert from 'node:assert/strict';
import {
  MAX_RETRY_AFTER_MS,
  MAX_RETRY_MS,
  batchLength,
  outcomeOf,
  parseRetryAfter,
  refusedIndex,
  retryDelay,
} from '../../clients/browser/src/policy.js';
import { EVENTS_PATH, KEEPALIVE_BYTES, type Reply, Sender } from '../../clients/browser/src/sender.js';

describe('tracker: sending policy', () => {
  it('maps statuses to what the sender does', () => {
    const cases: [number, string][] = [
      [202, 'sent'],
      [200, 'sent'],
      [0, 'retry'],
      [408, 'retry'],
      [429, 'retry'],
      [500, 'retry'],
      [503, 'retry'],
      [413, 'split'],
      [400, 'refused'],
      [401, 'drop'],
      [403, 'drop'],
      [404, 'drop'],
      [415, 'drop'],
    ];
    for (const [status, outcome] of cases) assert.equal(outcomeOf(status), outcome, String(status));
  });

  it('reads Retry-After as seconds or as an HTTP date, capped at an hour', () => {
    const now = Date.UTC(2025, 0, 1, 12);
    assert.equal(parseRetryAfter('120', now), 120_000);
    assert.equal(parseRetryAfter(' 0 ', now), 0);
    assert.equal(parseRetryAfter(new Date(now + 30_000).toUTCString(), now), 30_000);
    assert.equal(parseRetryAfter(new Date(now - 30_000).toUTCString(), now), 0, 'a past date: now');
    assert.equal(parseRetryAfter('86400', now), MAX_RETRY_AFTER_MS);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter(null, now), undefined);
  });

  it('backs off exponentially with equal jitter up to a minute, and obeys Retry-After', () => {
    assert.equal(retryDelay(1, undefined, 0), 500);
    assert.equal(retryDelay(1, undefined, 1), 1000);
    assert.equal(retryDelay(3, undefined, 0.5), 3000);
    assert.equal(retryDelay(30, undefined, 1), MAX_RETRY_MS);
    assert.equal(retryDelay(30, undefined, 0), MAX_RETRY_MS / 2);
    assert.equal(retryDelay(5, 7000, 0.9), 7000);
  });

  it('finds the refused event in a 400 body', () => {
    const body = (field: unknown) => ({ error: { code: 'invalid_request', details: { field } } });
    assert.equal(refusedIndex(body('events[3].properties.ui_response')), 3);
    assert.equal(refusedIndex(body('events[12]')), 12);
    assert.equal(refusedIndex(body('events')), undefined);
    assert.equal(refusedIndex(body(7)), undefined);
    assert.equal(refusedIndex(undefined), undefined);
  });

  it('fills a request up to the count and byte limits, never with nothing', () => {
    assert.equal(batchLength([10, 10, 10], 50, 100), 3);
    assert.equal(batchLength([10, 10, 10], 2, 100), 2);
    assert.equal(batchLength([60, 30, 20], 50, 100), 2);
    assert.equal(batchLength([500, 10], 50, 100), 1, 'an item bigger than the limit goes alone');
    assert.equal(batchLength([], 50, 100), 0);
  });
});

/** A sender on a hand-driven clock: timers run only when the test advances time. */
function harness(replies: ((body: { events?: { n: number }[] }) => Reply)[]) {
  let now = 0;
  const timers: { at: number; run: () => void }[] = [];
  const requests: { path: string; body: { events?: { n: number }[] }; keepalive: boolean; at: number }[] = [];
  const warnings: string[] = [];
  const sender = new Sender({
    post: (path, text, keepalive) => {
      const body = JSON.parse(text) as { events?: { n: number }[] };
      requests.push({ path, body, keepalive, at: now });
      const reply = replies.shift() ?? (() => ({ status: 202, retryAfter: null }));
      return Promise.resolve(reply(body));
    },
    batchSize: 3,
    intervalMs: 1000,
    maxQueue: 10,
    warn: (m) => warnings.push(m),
    now: () => now,
    random: () => 1,
    setTimer: (run, ms) => {
      const timer = { at: now + ms, run };
      timers.push(timer);
      return timer;
    },
    clearTimer: (t) => timers.splice(timers.indexOf(t as (typeof timers)[number]) >>> 0, 1),
  });
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  return {
    sender,
    requests,
    warnings,
    event: (n: number) => sender.add({ path: EVENTS_PATH, payload: { n } }),
    sent: () => requests.map((r) => r.body.events?.map((e) => e.n) ?? r.path),
    async advance(ms: number) {
      const end = now + ms;
      for (;;) {
        await settle();
        timers.sort((a, b) => a.at - b.at);
        const next = timers[0];
        if (!next || next.at > end) break;
        timers.shift();
        now = next.at;
        next.run();
      }
      now = end;
      await settle();
    },
  };
}

describe('tracker: the sender', () => {
  it('sends a batch once it is full, else a second after the first event', async () => {
    const t = harness([]);
    t.event(1);
    t.event(2);
    await t.advance(999);
    assert.deepEqual(t.sent(), []);
    await t.advance(1);
    assert.deepEqual(t.sent(), [[1, 2]]);
    t.event(3);
    t.event(4);
    t.event(5);
    await t.advance(0);
    assert.deepEqual(
      t.sent(),
      [
        [1, 2],
        [3, 4, 5],
      ],
      'a full batch leaves at once',
    );
    assert.equal(t.requests[0]!.keepalive, true);
  });

  it('keeps the defaults (50 events, 1 s) for options given as undefined', async () => {
    const waits: number[] = [];
    const bodies: string[] = [];
    const sender = new Sender({
      post: (_path, body) => {
        bodies.push(body);
        return Promise.resolve({ status: 202, retryAfter: null });
      },
      batchSize: undefined,
      intervalMs: undefined,
      setTimer: (_run, ms) => waits.push(ms),
      clearTimer: () => undefined,
    });
    for (let n = 0; n < 49; n++) sender.add({ path: EVENTS_PATH, payload: { n } });
    assert.deepEqual([waits, bodies.length], [[1000], 0]);
    sender.add({ path: EVENTS_PATH, payload: { n: 49 } });
    await sender.flush();
    assert.deepEqual(
      bodies.map((b) => (JSON.parse(b) as { events: unknown[] }).events.length),
      [50],
    );
  });

  it('retries the same events after a backoff and honours Retry-After on 429', async () => {
    const t = harness([() => ({ status: 0, retryAfter: null }), () => ({ status: 429, retryAfter: '30' })]);
    t.event(1);
    const flushed = t.sender.flush();
    await t.advance(0);
    assert.equal(t.requests.length, 1);
    await t.advance(999);
    assert.equal(t.requests.length, 1, 'first retry after 1 s (random = 1)');
    await t.advance(1);
    assert.equal(t.requests.length, 2);
    await t.advance(29_999);
    assert.equal(t.requests.length, 2, 'Retry-After: 30 is obeyed');
    await t.advance(1);
    await flushed;
    assert.deepEqual(t.sent(), [[1], [1], [1]]);
    assert.deepEqual(
      t.requests.map((r) => r.at),
      [0, 1000, 31_000],
    );
  });

  it('drops only the event a 400 names and sends the rest', async () => {
    const t = harness([
      () => ({ status: 400, retryAfter: null, body: { error: { details: { field: 'events[1].x' } } } }),
    ]);
    t.event(1);
    t.event(2);
    t.event(3);
    await t.sender.flush();
    assert.deepEqual(t.sent(), [
      [1, 2, 3],
      [1, 3],
    ]);
    assert.equal(t.warnings.length, 1);
  });

  it('halves a batch the service finds too large (413)', async () => {
    const t = harness([() => ({ status: 413, retryAfter: null })]);
    t.event(1);
    t.event(2);
    t.event(3);
    await t.sender.flush();
    assert.deepEqual(t.sent(), [[1, 2, 3], [1, 2], [3]]);
  });

  it('gives up on answers a resend cannot change (401, 403) and says so', async () => {
    const t = harness([() => ({ status: 403, retryAfter: null })]);
    t.event(1);
    await t.sender.flush();
    t.event(2);
    await t.sender.flush();
    assert.deepEqual(t.sent(), [[1], [2]]);
    assert.match(t.warnings[0]!, /status 403/);
  });

  it('sends identify calls alone, between the events around them', async () => {
    const t = harness([]);
    t.event(1);
    t.sender.add({ path: '/users/identify', payload: { user_id: 'u1' } });
    t.event(2);
    await t.sender.flush();
    assert.deepEqual(t.sent(), [[1], '/users/identify', [2]]);
  });

  it('flush resolves only once the events before it are acknowledged', async () => {
    let release: (reply: Reply) => void = () => undefined;
    let calls = 0;
    const sender = new Sender({
      post: () => {
        calls++;
        return new Promise((resolve) => (release = resolve));
      },
    });
    sender.add({ path: EVENTS_PATH, payload: { n: 1 } });
    let done = false;
    const flushed = sender.flush().then(() => (done = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(calls, 1);
    assert.equal(done, false);
    release({ status: 202, retryAfter: null });
    await flushed;
    assert.equal(done, true);
    assert.deepEqual(sender.items(), []);
    await sender.flush();
  });

  it('drops the oldest waiting items beyond the queue bound, with a warning', () => {
    const t = harness([]);
    for (let n = 1; n <= 12; n++) t.sender.add({ path: '/users/identify', payload: { n } });
    // 1 left in a request once three waited; 2 and 3 made room for 11 and 12.
    assert.deepEqual(
      t.sender.items().map((i) => (i.payload as { n: number }).n),
      [1, 4, 5, 6, 7, 8, 9, 10, 11, 12],
    );
    assert.equal(t.warnings.length, 2);
  });

  it('on unload sends everything at once with keepalive, but not during a Retry-After', async () => {
    const t = harness([() => ({ status: 429, retryAfter: '60' })]);
    t.event(1);
    t.sender.unload();
    await t.advance(0);
    t.event(2);
    t.sender.unload();
    await t.advance(0);
    assert.deepEqual(t.sent(), [[1]], 'nothing is sent while the service asked to wait');
    assert.equal(t.sender.items().length, 2, 'both stay queued (and the tracker saves them)');
    const big = 'x'.repeat(KEEPALIVE_BYTES / 2);
    const u = harness([]);
    for (let n = 0; n < 3; n++) u.sender.add({ path: EVENTS_PATH, payload: { n, big } });
    u.sender.unload();
    await u.advance(0);
    assert.equal(u.requests.length, 3, 'each request stays within the keepalive budget');
    assert.ok(u.requests.every((r) => r.keepalive));
  });
});
