import assert from 'node:assert/strict';
import { DEFAULT_ANALYTICS } from '../../domain/analytics-config.js';
import type { SessionContribution } from '../../domain/contribution/types.js';
import type { Session } from '../../domain/session.js';
import { type SessionWrites, movedSignals } from '../../store/sessions.js';
import { asStored as stored, frictionSessions, prefixContribution as prefix } from './simulated-sessions.js';

const PROJECT = '00000000-0000-4000-8000-000000000001';

/** The friction_signals rows of contributions, as JSON texts keyed by signal id. */
function rowsOf(items: { userId: string; c: SessionContribution }[]): Map<string, string> {
  return new Map(
    items.flatMap(({ userId, c }) =>
      c.signals.map(
        (s) =>
          [
            s.signal_id,
            JSON.stringify({ ...s, project_id: PROJECT, session_id: c.session_id, user_id: userId }),
          ] as const,
      ),
    ),
  );
}

/** The table after a batch's writes: the removed sessions' rows, less those gone, with the fresh ones inserted. */
function afterWrites(writes: SessionWrites): Map<string, string> {
  const table = rowsOf(writes.removed.map((r) => ({ userId: r.c.user_id, c: r.c })));
  const { gone, fresh } = movedSignals(writes);
  for (const g of gone) assert.ok(table.delete(g.id), `deletes ${g.id}, which is stored`);
  for (const row of fresh) {
    assert.ok(!table.has(row.signal_id), `inserts ${row.signal_id} only where none is left`);
    table.set(row.signal_id, JSON.stringify(row));
  }
  return table;
}

const sorted = (rows: Map<string, string>) => [...rows.values()].sort();

describe('the signals a batch writes (store/sessions.ts, movedSignals)', () => {
  const sessions = frictionSessions(5);

  it('leaves a grown session with the signals of its fresh contribution, writing only those that moved', () => {
    let kept = 0;
    let moved = 0;
    for (const session of sessions) {
      for (let n = 1; n < session.events.length; n++) {
        const old = stored(prefix(session, n));
        const fresh = prefix(session, n + 1);
        const writes: SessionWrites = {
          removed: [{ projectId: PROJECT, c: old }],
          added: [{ projectId: PROJECT, userId: session.events[0]!.user_id, c: fresh, config: DEFAULT_ANALYTICS }],
        };
        assert.deepEqual(sorted(afterWrites(writes)), sorted(rowsOf(writes.added)), `${session.session_id}, ${n + 1}`);
        const { gone, fresh: written } = movedSignals(writes);
        kept += fresh.signals.length - written.length;
        moved += gone.length + written.length;
      }
    }
    // Growths that keep signals as they were, and growths that change or add some.
    assert.ok(kept >= 5, `${kept} signals kept`);
    assert.ok(moved >= 20, `${moved} signals moved`);
  });

  it('writes the signals of sessions split and merged anew', () => {
    const byUser = new Map<string, Session[]>();
    for (const s of sessions) byUser.set(s.events[0]!.user_id, [...(byUser.get(s.events[0]!.user_id) ?? []), s]);
    let checked = 0;
    for (const [userId, list] of byUser) {
      if (list.length < 2 || list.every((s) => prefix(s, s.events.length).signals.length === 0)) continue;
      const whole = list.map((s) => stored(prefix(s, s.events.length)));
      // The stored sessions go; the first returns shortened, the others do not return.
      const first = list[0]!;
      const writes: SessionWrites = {
        removed: whole.map((c) => ({ projectId: PROJECT, c })),
        added: [
          {
            projectId: PROJECT,
            userId,
            c: prefix(first, Math.ceil(first.events.length / 2)),
            config: DEFAULT_ANALYTICS,
          },
        ],
      };
      assert.deepEqual(sorted(afterWrites(writes)), sorted(rowsOf(writes.added)), userId);
      checked++;
    }
    assert.ok(checked > 5, `${checked} users`);
  });

  it('writes again a signal whose id stays and whose row changes', () => {
    const [session] = sessions.filter((s) => prefix(s, s.events.length).signals.length > 0);
    const c = prefix(session!, session!.events.length);
    const changed = { ...c, signals: c.signals.map((s, i) => (i === 0 ? { ...s, count: s.count + 1 } : s)) };
    const { gone, fresh } = movedSignals({
      removed: [{ projectId: PROJECT, c: stored(c) }],
      added: [{ projectId: PROJECT, userId: c.user_id, c: changed, config: DEFAULT_ANALYTICS }],
    });
    assert.deepEqual(
      gone.map((g) => g.id),
      [c.signals[0]!.signal_id],
    );
    assert.deepEqual(
      fresh.map((f) => [f.signal_id, f.count]),
      [[c.signals[0]!.signal_id, c.signals[0]!.count + 1]],
    );
  });
});
