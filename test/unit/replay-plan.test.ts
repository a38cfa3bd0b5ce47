import assert from 'node:assert/strict';
import { UsageError } from '../../lib/cli.js';
import { parseFrom, remaining, restartOffsets, sessionsHolding } from '../../processors/runtime/replay-plan.js';

const NOW = Date.parse('2026-11-20T12:00:00Z');

describe('replay plan', () => {
  describe('--from', () => {
    it('is undefined without the option', () => {
      assert.equal(parseFrom(undefined, NOW), undefined);
    });
    const good: [string, string][] = [
      ['2026-11-01', '2026-11-01T00:00:00.000Z'],
      ['2026-11-01T00:00:00Z', '2026-11-01T00:00:00.000Z'],
      ['2026-11-01T09:30Z', '2026-11-01T09:30:00.000Z'],
      ['2026-11-01T01:00:00.250+02:00', '2026-10-31T23:00:00.250Z'],
    ];
    for (const [text, iso] of good) {
      it(`${text} → ${iso}`, () => assert.equal(parseFrom(text, NOW), Date.parse(iso)));
    }
    for (const text of ['', 'yesterday', '2026-11-01T00:00:00', '2026-13-01', '2026-11-01 00:00Z', '1700000000000']) {
      it(`refuses '${text}'`, () => {
        assert.throws(
          () => parseFrom(text, NOW),
          (err: unknown) => err instanceof UsageError && err.message.includes(`got '${text}'`),
        );
      });
    }
    it('refuses an instant in the future', () => {
      assert.throws(() => parseFrom('2026-11-21', NOW), /2026-11-21T00:00:00.000Z is in the future/);
    });
  });

  describe('restart offsets', () => {
    const m = (o: Record<number, number>) => new Map(Object.entries(o).map(([p, v]) => [Number(p), v]));
    it('moves each partition back to its first record stamped at or after the instant', () => {
      assert.deepEqual(restartOffsets(m({ 0: 100, 1: 50, 2: 7 }), m({ 0: 60, 1: 50, 2: 7 }), m({})), m({ 0: 60 }));
    });
    it('goes lower when a stored row received since the instant lies before that offset', () => {
      assert.deepEqual(
        restartOffsets(m({ 0: 100, 1: 50 }), m({ 0: 60, 1: 40 }), m({ 0: 55, 1: 45 })),
        m({ 0: 55, 1: 40 }),
      );
    });
    it('leaves partitions not read as far, and those never read', () => {
      assert.deepEqual(restartOffsets(m({ 0: 30 }), m({ 0: 60, 1: 0 }), m({ 1: 0 })), m({}));
    });
  });

  describe('sessions holding removed events', () => {
    const s = (session_id: string, started: number, ended: number) => ({ session_id, started, ended });
    const sessions = [s('a', 0, 100), s('b', 100, 200), s('c', 500, 600), s('d', 900, 900)];
    it('picks the sessions whose span holds a time, edges included', () => {
      assert.deepEqual(
        sessionsHolding(sessions, [650, 50, 900]).map((x) => x.session_id),
        ['a', 'd'],
      );
    });
    it('picks both sessions of a shared edge (a cut at the length limit)', () => {
      assert.deepEqual(
        sessionsHolding(sessions, [100]).map((x) => x.session_id),
        ['a', 'b'],
      );
    });
    it('picks none for times between sessions', () => {
      assert.deepEqual(sessionsHolding(sessions, [300, 601, 899]), []);
    });
  });

  it('counts the messages left, from 0 for partitions without a stored offset', () => {
    const ends = new Map([
      [0, 100],
      [1, 40],
      [2, 0],
    ]);
    assert.equal(remaining(ends, new Map([[0, 60]])), 80);
    assert.equal(
      remaining(
        ends,
        new Map([
          [0, 100],
          [1, 40],
        ]),
      ),
      0,
    );
  });
});
