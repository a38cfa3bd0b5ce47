import assert from 'node:assert/strict';
import { suiteEnv } from '../../scripts/faults/plan.js';
import { type Sent, type Stored, broken, figures, table } from '../../scripts/faults/report.js';

const sent = (messageId: string, statuses: number[], acked = statuses.at(-1) === 202): Sent => ({
  messageId,
  statuses,
  latenciesMs: statuses.map((_, i) => 10 * (i + 1)),
  ...(acked && { ackedAt: 1000 }),
});

const stored = (raw: Record<string, number>, sessionEvents: Record<string, number>, total?: number): Stored => ({
  raw: new Map(Object.entries(raw)),
  sessionEvents: new Map(Object.entries(sessionEvents)),
  sessionEventTotal: total ?? Object.values(sessionEvents).reduce((a, n) => a + n, 0),
});

const visible = { afterClear: { raw: 100, session_events: 900 }, afterLastAck: { raw: 50, session_events: 400 } };

describe('fault suite figures (scripts/faults/report.ts)', () => {
  it('counts refusals by status, retries, abandoned messages and what was stored', () => {
    const f = figures(
      [sent('a', [202]), sent('b', [503, 503, 202]), sent('c', [0, 429, 202]), sent('d', [503, 503])],
      [
        { what: '/health', status: 503, ms: 5, ok: true },
        { what: '/health', status: 0, ms: 30_000, ok: false },
        { what: '/analytics/features', status: 200, ms: 40, ok: true },
      ],
      stored({ a: 1, b: 1, c: 1, d: 1 }, { a: 1, b: 1, c: 1 }),
      visible,
      ['api(SIGKILL)'],
    );
    assert.equal(f.sent, 4);
    assert.equal(f.acknowledged, 3);
    assert.deepEqual(f.refused, { 0: 1, 429: 1, 503: 4 });
    assert.equal(f.retried, 5);
    assert.equal(f.abandoned, 1);
    assert.equal(f.abandoned_but_stored, 1, 'd was refused twice yet landed');
    assert.equal(f.lost_raw + f.lost_session_events + f.duplicates_raw + f.session_count_excess, 0);
    assert.equal(f.ingest_ms.n, 9);
    assert.deepEqual(f.bystanders['/health']!.failed, 1);
    assert.deepEqual(f.bystanders['/analytics/features']!.failed, 0);
    assert.deepEqual(f.visible_after_clear_ms, visible.afterClear);
    assert.equal(broken(f), false);
  });

  it('calls a fault broken when an acknowledged message is missing from either table', () => {
    const f = figures([sent('a', [202]), sent('b', [202])], [], stored({ a: 1, b: 1 }, { a: 1 }), visible, []);
    assert.equal(f.lost_raw, 0);
    assert.equal(f.lost_session_events, 1);
    assert.equal(broken(f), true);
  });

  it('calls a fault broken when a message is stored or counted twice', () => {
    const twice = figures([sent('a', [202])], [], stored({ a: 2 }, { a: 1 }), visible, []);
    assert.equal(twice.duplicates_raw, 1);
    assert.equal(broken(twice), true);
    const counted = figures([sent('a', [202])], [], stored({ a: 1 }, { a: 1 }, 2), visible, []);
    assert.equal(counted.session_count_excess, 1);
    assert.equal(broken(counted), true);
  });

  it('prints one row per fault with lost and twice as raw/session_events', () => {
    const f = figures([sent('a', [503, 202])], [], stored({ a: 1 }, { a: 1 }), visible, []);
    const lines = table([{ fault: 'kafka-kill', figures: f }]).split('\n');
    assert.match(lines[0]!, /^fault\s+sent\s+acked/);
    assert.match(lines[1]!, /^kafka-kill\s+1\s+1\s+503×1\s+1\s+0\/0\s+0\/0\/0\s+900\/400/);
  });
});

describe('fault suite environment (scripts/faults/plan.ts)', () => {
  it('replaces every address of the stack and drops what would point at the shared one', () => {
    const env = suiteEnv(
      { DATABASE_URL: 'postgres://x@127.0.0.1:5433/pi', PI_SECRET_KEYS: 'k', PATH: '/bin', KAFKA_BROKERS: 'h:9092' },
      '/tmp/s',
    );
    assert.equal(env.DATABASE_URL, undefined);
    assert.equal(env.PI_SECRET_KEYS, undefined);
    assert.equal(env.PATH, '/bin');
    assert.equal(env.PI_STACK_DIR, '/tmp/s');
    assert.equal(env.KAFKA_BROKERS, '127.0.0.1:9192');
    assert.equal(env.PI_EMBEDDED_PG_PORT, '5443');
    assert.equal(env.SCHEMA_REGISTRY_URL, 'http://127.0.0.1:8181/apis/ccompat/v7');
  });
});
