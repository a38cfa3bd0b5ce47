import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { RequestWaits } from '../../api/waits.js';

describe('RequestWaits', () => {
  it('records each wait, failed ones too, and starts again after each report', async () => {
    const waits = new RequestWaits();
    assert.equal(
      await waits.timed(
        'kafka',
        sleep(30).then(() => 'sent'),
      ),
      'sent',
    );
    await assert.rejects(
      waits.timed(
        'kafka',
        sleep(5).then(() => Promise.reject(new Error('refused'))),
      ),
      /refused/,
    );
    await waits.timed('auth', Promise.resolve());
    const first = waits.report();
    assert.equal(first.kafka.count, 2);
    assert.ok(first.kafka.max_ms >= 29 && first.kafka.max_ms < 1000, `max ${first.kafka.max_ms}`);
    assert.ok(first.kafka.p50_ms >= 4 && first.kafka.p50_ms <= first.kafka.max_ms, `p50 ${first.kafka.p50_ms}`);
    assert.equal(first.auth.count, 1);
    assert.deepEqual(first.rate_limit, { count: 0, p50_ms: 0, p99_ms: 0, max_ms: 0 });
    assert.equal(waits.report().kafka.count, 0);
  });
});
