import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ApiError, Client, NetworkError } from '../dist/index.js';
import { identifyBody } from '../dist/client.js';
import { parseRetryAfter, retriable, retryDelay } from '../dist/http.js';

describe('retry rules (no service needed)', () => {
  it('reads Retry-After as seconds or as an HTTP date, and ignores anything else', () => {
    const now = Date.parse('2026-11-26T12:00:00Z');
    assert.equal(parseRetryAfter('7', now), 7);
    assert.equal(parseRetryAfter('Thu, 26 Nov 2026 12:00:30 GMT', now), 30);
    assert.equal(parseRetryAfter('Thu, 26 Nov 2026 11:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter(null, now), undefined);
  });

  it('retries no answer, 429 and 5xx except 501; never another 4xx', () => {
    const api = (status: number) => new ApiError(status, 'x', 'x');
    assert.deepEqual(
      [
        new NetworkError('down'),
        api(429),
        api(500),
        api(503),
        api(501),
        api(400),
        api(401),
        api(404),
        new Error('x'),
      ].map(retriable),
      [true, true, true, true, false, false, false, false, false],
    );
  });

  it('backs off exponentially with full jitter up to the cap, never below Retry-After', () => {
    const error = new NetworkError('down');
    assert.equal(
      retryDelay(0, 500, 30_000, error, () => 1),
      500,
    );
    assert.equal(
      retryDelay(3, 500, 30_000, error, () => 1),
      4000,
    );
    assert.equal(
      retryDelay(10, 500, 30_000, error, () => 1),
      30_000,
    );
    assert.equal(
      retryDelay(3, 500, 30_000, error, () => 0.25),
      1000,
    );
    const limited = new ApiError(429, 'rate_limited', 'slow down', {}, 2);
    assert.equal(
      retryDelay(0, 500, 30_000, limited, () => 0.5),
      2000,
    );
  });

  it('refuses bad options at construction, the only place it throws', () => {
    assert.throws(() => new Client({ apiKey: '' }), TypeError);
    assert.throws(() => new Client({ apiKey: 'pi_x', batchSize: 1001 }), RangeError);
    const client = new Client({ apiKey: 'pi_x', flushAtExit: false, onError: () => undefined });
    assert.doesNotThrow(() => client.track(undefined as never));
  });
});

describe('identify body (no service needed)', () => {
  it('sends anonymous_id only when given, next to user_id and properties', () => {
    assert.deepEqual(identifyBody({ userId: 'u_42' }), { user_id: 'u_42', properties: {} });
    assert.deepEqual(identifyBody({ userId: 'u_42', properties: { plan: 'pro' }, anonymousId: 'anon_7' }), {
      user_id: 'u_42',
      properties: { plan: 'pro' },
      anonymous_id: 'anon_7',
    });
  });
});
