import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  applyChains,
  candidateChains,
  chainsMatchStored,
  lastChainAfter,
  stillStored,
} from '../../processors/analytics-sink/core.js';
import { type HeldEvent, PartitionSessions } from '../../processors/sessionize/core.js';
import { type SessionChainRecord, chainRecord, halvesOf } from '../../processors/sessionize/record.js';
import { type Session, chainsOf, splitSessions } from '../../domain/session.js';

const RULES = { gapMs: 10, maxMs: 25 };
const P = 'p1';

let arrival = 0;
function ev(id: string, timestamp: number, over: Partial<HeldEvent> = {}): HeldEvent {
  const offset = arrival++;
  return {
    message_id: id,
    user_id: 'u1',
    event: 'click',
    timestamp,
    received_at: offset,
    offset,
    properties: '{}',
    ...over,
  };
}
const batch = (...events: HeldEvent[]) => events.map((event) => ({ projectId: P, event }));
/** One batch through the sessionizer, committed. */
function take(s: PartitionSessions, events: ReturnType<typeof batch>) {
  const step = s.add(events, () => RULES);
  step.commit();
  return step.chains;
}
const ids = (sessions: Session<HeldEvent>[]) => sessions.map((s) => s.events.map((e) => e.message_id));

describe('chainsOf', () => {
  it('joins sessions less than a gap apart (cut by the length limit) and parts those a gap or more apart', () => {
    const sessions = splitSessions(
      [ev('a', 0), ev('b', 9), ev('c', 18), ev('d', 27), ev('e', 37), ev('f', 60)],
      10,
      25,
    );
    assert.deepEqual(ids(sessions), [['a', 'b', 'c'], ['d'], ['e'], ['f']]);
    // d is 9 after c (a length cut), e is 10 after d (a gap), f is 23 after e.
    assert.deepEqual(
      chainsOf(sessions, 10).map((c) => ids(c)),
      [[['a', 'b', 'c'], ['d']], [['e']], [['f']]],
    );
  });
});

describe('PartitionSessions', () => {
  it('emits the chain a batch changes, and keeps only the last chain', () => {
    const s = new PartitionSessions(1000);
    assert.deepEqual(
      take(s, batch(ev('a', 0), ev('b', 5))).map((c) => ids(c.sessions)),
      [[['a', 'b']]],
    );
    assert.deepEqual(
      take(s, batch(ev('c', 8))).map((c) => ids(c.sessions)),
      [[['a', 'b', 'c']]],
    );
    // A gap: a new chain, and the old one is let go.
    const chains = take(s, batch(ev('d', 40)));
    assert.deepEqual(
      chains.map((c) => ids(c.sessions)),
      [[['d']]],
    );
    assert.equal(s.heldEvents, 1);
    assert.deepEqual(chains[0]!.rules, RULES);
  });

  it('skips repeats of held events and emits nothing for a batch of repeats only', () => {
    const s = new PartitionSessions(1000);
    take(s, batch(ev('a', 0)));
    assert.deepEqual(take(s, batch(ev('a', 0))), []);
    assert.equal(s.heldEvents, 1);
  });

  it('re-splits the held chain around a late event, and emits an event older than it as a chain of its own', () => {
    const s = new PartitionSessions(1000);
    take(s, batch(ev('a', 100), ev('b', 108)));
    // 104 falls between a and b: the held chain changes.
    assert.deepEqual(
      take(s, batch(ev('late', 104))).map((c) => ids(c.sessions)),
      [[['a', 'late', 'b']]],
    );
    // 50 is a gap or more before the held chain: alone here, whatever the sink stored around it.
    assert.deepEqual(
      take(s, batch(ev('older', 50))).map((c) => ids(c.sessions)),
      [[['older']]],
    );
    assert.equal(s.heldEvents, 3);
  });

  it('forgets users idle (by receipt time) longer than the limit, and restarts from the lowest held offset', () => {
    const s = new PartitionSessions(100);
    const a = ev('a', 0, { received_at: 1000, offset: 10 });
    take(s, batch(a));
    const second = s.add(batch(ev('x', 0, { user_id: 'u2', received_at: 1050, offset: 11 })), () => RULES);
    assert.equal(second.restartOffset(12), 10);
    second.commit();
    const third = s.add(batch(ev('y', 1, { user_id: 'u2', received_at: 1101, offset: 12 })), () => RULES);
    assert.equal(third.restartOffset(13), 11, 'u1 (last received 1000) is forgotten at 1101');
    third.commit();
    assert.equal(s.heldEvents, 2);
    assert.equal(new PartitionSessions(100).add([], () => RULES).restartOffset(7), 7);
  });

  it("restarts from the lowest offset a user holds now, not one a user's earlier chain held", () => {
    const s = new PartitionSessions(1_000_000);
    const of = (user: string, id: string, t: number, offset: number) =>
      ev(id, t, { user_id: user, received_at: offset, offset });
    take(s, batch(of('u1', 'a1', 0, 0), of('u2', 'b1', 0, 1)));
    // u1's next event comes a gap later: u1 now holds offset 2 only.
    const reset = s.add(batch(of('u1', 'a2', 50, 2)), () => RULES);
    assert.equal(reset.restartOffset(3), 1, "the step's own user counts as it will be");
    const other = s.add(batch(of('u3', 'c1', 0, 3)), () => RULES);
    assert.equal(other.restartOffset(4), 0, 'an uncommitted step changes nothing');
    reset.commit();
    const after = s.add(batch(of('u3', 'c1', 0, 3)), () => RULES);
    assert.equal(after.restartOffset(4), 1);
    after.commit();
    take(s, batch(of('u2', 'b2', 50, 4)));
    assert.equal(s.add([], () => RULES).restartOffset(5), 2);
    // Many more steps than users, u2's chain starting anew each time: stale entries pile up, then
    // the lowest offsets are rebuilt from the users held.
    for (let i = 5; i < 3000; i++) {
      take(s, batch(of('u2', `b${i}`, 50 + 20 * i, i)));
      if (i % 500 === 0) assert.equal(s.add([], () => RULES).restartOffset(i + 1), 2);
    }
    assert.equal(s.add([], () => RULES).restartOffset(3000), 2);
  });

  it('restarts from the lowest offset its users hold, whatever the batches, evictions and abandoned steps', () => {
    // The held users, read from outside: the reference the restart offset must agree with.
    const heldLowest = (s: PartitionSessions) =>
      [...(s as unknown as { users: Map<string, { lowest: number }> }).users.values()].map((u) => u.lowest);
    fc.assert(
      fc.property(
        fc.array(fc.record({ user: fc.nat(5), dt: fc.nat(30), abandoned: fc.boolean() }), {
          minLength: 1,
          maxLength: 80,
        }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 2, max: 40 }),
        fc.integer({ min: 20, max: 400 }),
        fc.integer({ min: 1, max: 60 }),
        (specs, size, maxHeld, idle, maxBehind) => {
          const s = new PartitionSessions(idle, maxHeld, maxBehind);
          let t = 0;
          for (let at = 0; at < specs.length; at += size) {
            const events = specs.slice(at, at + size).map((spec, i) => {
              t += spec.dt;
              const offset = at + i;
              return ev(`m${offset}`, t, { user_id: `u${spec.user}`, received_at: offset * 5, offset });
            });
            const next = at + events.length;
            if (specs[at]!.abandoned) s.add(batch(...events), () => RULES).restartOffset(next);
            const step = s.add(batch(...events), () => RULES);
            const restart = step.restartOffset(next);
            step.commit();
            assert.equal(restart, Math.min(next, ...heldLowest(s)));
            assert.ok(s.heldEvents <= maxHeld, `${s.heldEvents} events held, at most ${maxHeld}`);
            assert.ok(
              restart >= next - 1 - maxBehind,
              `restart ${restart}, ${next - 1} read, ${maxBehind} at most behind`,
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('forgets users holding an event more than its limit of offsets behind the latest read, however active', () => {
    const s = new PartitionSessions(1_000_000, 1_000_000, 100);
    const of = (user: string, id: string, t: number, offset: number) =>
      ev(id, t, { user_id: user, received_at: offset, offset });
    take(s, batch(of('u1', 'a1', 0, 0)));
    // u2 sends every offset, each within a gap of the last: one chain that runs on.
    for (let o = 1; o <= 100; o++) take(s, batch(of('u2', `b${o}`, o, o)));
    assert.equal(s.add([], () => RULES).restartOffset(101), 0, 'u1 at offset 0 is 100 behind: still held');
    const step = s.add(batch(of('u2', 'b101', 101, 101)), () => RULES);
    assert.equal(step.restartOffset(102), 1, 'u1 is 101 behind, u2 (from offset 1) 100');
    step.commit();
    assert.equal(s.heldEvents, 101);
    const last = s.add(batch(of('u2', 'b102', 102, 102)), () => RULES);
    assert.deepEqual(
      last.chains.map((c) => c.sessions.flatMap((x) => x.events).length),
      [102],
      'u2 is sent whole',
    );
    assert.equal(last.restartOffset(103), 103, 'then forgotten, however active');
    last.commit();
    assert.equal(s.heldEvents, 0);
    // u2's next event starts a chain of its own; the sink splits it with the stored sessions.
    assert.deepEqual(
      take(s, batch(of('u2', 'b103', 103, 103))).map((c) => ids(c.sessions)),
      [[['b103']]],
    );
  });

  it('changes nothing until a step is committed: a batch read again after a failed transaction gives the same chains', () => {
    const s = new PartitionSessions(1000);
    take(s, batch(ev('a', 0)));
    const b = ev('b', 5);
    const failed = s.add(batch(b), () => RULES);
    assert.equal(s.heldEvents, 1);
    const retried = s.add(batch(b), () => RULES);
    assert.deepEqual(
      retried.chains.map((c) => ids(c.sessions)),
      failed.chains.map((c) => ids(c.sessions)),
    );
    assert.deepEqual(
      retried.chains.map((c) => ids(c.sessions)),
      [[['a', 'b']]],
    );
    retried.commit();
    assert.equal(s.heldEvents, 2);
  });

  it('forgets the least recently active users while it holds more events than its limit', () => {
    const s = new PartitionSessions(1000, 3);
    const of = (user: string, id: string, t: number) => ev(id, t, { user_id: user, received_at: t });
    take(s, batch(of('u1', 'a1', 0), of('u1', 'a2', 1), of('u2', 'b1', 2)));
    take(s, batch(of('u1', 'a3', 3))); // u1 is now the most recently active
    assert.equal(s.heldEvents, 3, 'u2 (1 event) went to keep 3');
    take(s, batch(of('u3', 'c1', 4)));
    assert.equal(s.heldEvents, 1, 'u1 (3 events, now the least recent) went too');
    // u2 comes back: its chain holds only what it sends now.
    assert.deepEqual(
      take(s, batch(of('u2', 'b2', 5))).map((c) => ids(c.sessions)),
      [[['b2']]],
    );
  });
});

describe('chainsMatchStored', () => {
  const a = ev('a', 100);
  const chains = [[{ session_id: 's', user_id: 'u1', started_at: 100, ended_at: 100, events: [a] }]];
  const stored = { user_id: 'u1', timestamp: 100, offset: a.offset };
  const cases: [string, typeof stored | undefined, boolean][] = [
    ['the stored copy itself', stored, true],
    ["another user's event with the same id", { ...stored, user_id: 'u2' }, false],
    ['a repeat sent with another time', { ...stored, timestamp: 160 }, false],
    ['a repeat read at another offset', { ...stored, offset: a.offset + 7 }, false],
    ['an event not stored at all', undefined, false],
  ];
  for (const [what, copy, expected] of cases) {
    it(what, () =>
      assert.equal(
        chainsMatchStored('u1', chains, () => copy),
        expected,
      ),
    );
  }
});

/**
 * A model of the analytics sink: the sessionizer sends only the events new to its chains; the sink
 * splits them with its recent sessions (sometimes forgotten, sometimes out of date, as after a
 * rebalance) and trusts the chains when the recent sessions are still stored, the chains carry the
 * stored copies of their events, and `applyChains` says they continue the stored sessions.
 * Otherwise it splits all stored events again (what the re-split around the new events amounts
 * to). Whatever the order, batches, repeats and forgetting, the stored sessions must end as the
 * split of every event.
 */
describe('chains applied by the sink give the sessions of all events', () => {
  it('holds for any arrival order, batching, repeats, idle, held-events and offsets-behind limits and recent sessions', () => {
    let trusted = 0;
    let resplit = 0;
    // A repeat sometimes comes with another time: an event without a timestamp is stamped on receipt.
    const eventArb = fc.record({
      t: fc.integer({ min: 0, max: 200 }),
      repeat: fc.boolean(),
      retime: fc.option(fc.integer({ min: 0, max: 200 }), { nil: undefined }),
    });
    // What the sink knows of its recent sessions after a batch: what it stored, nothing, or the
    // state before (it did not learn of the batch).
    const memoryArb = fc.constantFrom('kept', 'kept', 'kept', 'forgotten', 'stale');
    fc.assert(
      fc.property(
        fc.array(eventArb, { minLength: 1, maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 10 }),
        fc.integer({ min: 1, max: 30 }),
        fc.integer({ min: 1, max: 40 }),
        fc.array(memoryArb, { minLength: 1, maxLength: 10 }),
        fc.integer({ min: 1, max: 60 }),
        (specs, sizes, idle, held, memory, behind) => {
          const events: HeldEvent[] = [];
          specs.forEach((spec, i) => {
            const offset = events.length;
            events.push({
              message_id: `m${i}`,
              user_id: 'u',
              event: 'click',
              timestamp: spec.t,
              received_at: offset,
              offset,
              properties: '{}',
            });
            if (spec.repeat && i > 0) {
              const first = events[Math.floor(i / 2)]!;
              events.push({
                ...first,
                timestamp: spec.retime ?? first.timestamp,
                received_at: events.length,
                offset: events.length,
              });
            }
          });
          const sessionizer = new PartitionSessions(idle, held, behind);
          let stored: Session<HeldEvent>[] = [];
          let recent: Session<HeldEvent>[] = [];
          const storedEvents = new Map<string, HeldEvent>();
          for (let at = 0, k = 0; at < events.length; k++) {
            const slice = events.slice(at, at + sizes[k % sizes.length]!);
            at += slice.length;
            const sent = take(sessionizer, batch(...slice)).flatMap((c) =>
              c.sessions.flatMap((s) => s.events.filter((e) => c.added.has(e.message_id))),
            );
            const storedNow = new Set(sent.filter((e) => !storedEvents.has(e.message_id)).map((e) => e.message_id));
            for (const e of sent) if (storedNow.has(e.message_id)) storedEvents.set(e.message_id, e);
            if (storedNow.size === 0) continue;
            const spans = stored.map((s) => ({
              ...s,
              started: s.started_at,
              ended: s.ended_at,
              events: s.events.length,
            }));
            const { chains, recentUsed } = candidateChains(recent, sent, (id) => storedNow.has(id), RULES);
            const copy = (id: string) => {
              const e = storedEvents.get(id);
              return e && { user_id: e.user_id, timestamp: e.timestamp, offset: e.offset };
            };
            const present = new Set(
              chains
                .flatMap((c) => c.flatMap((s) => s.events.map((e) => e.message_id)))
                .filter((id) => !storedNow.has(id)),
            );
            const outcome =
              stillStored(recentUsed, spans) && chainsMatchStored('u', chains, copy)
                ? applyChains(spans, chains, RULES.gapMs, present)
                : undefined;
            let last: Session<HeldEvent>[];
            if (outcome) {
              trusted++;
              const gone = new Set(outcome.removed.map((s) => s.session_id));
              stored = [...stored.filter((s) => !gone.has(s.session_id)), ...outcome.added];
              last = lastChainAfter(recent, outcome, RULES.gapMs);
            } else {
              resplit++;
              stored = splitSessions([...storedEvents.values()], RULES.gapMs, RULES.maxMs);
              last = chainsOf(stored, RULES.gapMs).at(-1)!;
            }
            const remembered = memory[k % memory.length]!;
            if (remembered === 'kept') recent = last;
            else if (remembered === 'forgotten') recent = [];
          }
          const sort = (sessions: Session<HeldEvent>[]) => [...sessions].sort((a, b) => a.started_at - b.started_at);
          // The stored copy of each message id is the first one read.
          const exact = splitSessions(
            events.filter((e, i) => events.findIndex((f) => f.message_id === e.message_id) === i),
            RULES.gapMs,
            RULES.maxMs,
          );
          assert.deepEqual(ids(sort(stored)), ids(exact));
          assert.deepEqual(
            sort(stored).map((s) => s.session_id),
            exact.map((s) => s.session_id),
          );
        },
      ),
      { numRuns: 2000 },
    );
    // Both ways were taken, many times.
    assert.ok(trusted > 1000 && resplit > 1000, `trusted ${trusted}, re-split ${resplit}`);
  });
});

describe('candidateChains', () => {
  const recent = splitSessions([ev('a', 0), ev('b', 5), ev('c', 40)], RULES.gapMs, RULES.maxMs);

  it('splits the batch events with the recent ones, keeping the chains with an event stored now', () => {
    const d = ev('d', 44);
    const { chains, recentUsed } = candidateChains(recent, [d], (id) => id === 'd', RULES);
    assert.deepEqual(
      chains.map((c) => ids(c)),
      [[['c', 'd']]],
    );
    assert.deepEqual(ids(recentUsed), [['c']]);
  });

  it('keeps the recent copy of a repeated id, and leaves out chains with nothing stored now', () => {
    const again = ev('b', 90);
    const { chains, recentUsed } = candidateChains(recent, [again, ev('e', 8)], (id) => id === 'e', RULES);
    assert.deepEqual(
      chains.map((c) => ids(c)),
      [[['a', 'b', 'e']]],
    );
    assert.equal(chains[0]![0]!.events[1]!.timestamp, 5);
    assert.deepEqual(ids(recentUsed), [['a', 'b']]);
  });
});

describe('stillStored', () => {
  const [session] = splitSessions([ev('a', 0), ev('b', 5)], RULES.gapMs, RULES.maxMs);
  const span = { session_id: session!.session_id, started: 0, ended: 5, events: 2 };

  it('holds when each recent session is stored with its id, span and number of events', () => {
    assert.equal(stillStored([session!], [span]), true);
    assert.equal(stillStored([], []), true);
  });

  it('fails when another writer moved one', () => {
    assert.equal(stillStored([session!], []), false);
    assert.equal(stillStored([session!], [{ ...span, events: 3 }]), false);
    assert.equal(stillStored([session!], [{ ...span, ended: 7 }]), false);
    assert.equal(stillStored([session!], [{ ...span, session_id: 'other' }]), false);
  });
});

describe('lastChainAfter', () => {
  it('is the last chain of the recent sessions the outcome kept and the sessions it added', () => {
    const [early, late] = splitSessions([ev('a', 0), ev('b', 30)], RULES.gapMs, RULES.maxMs);
    const grown = splitSessions([late!.events[0]!, ev('c', 33)], RULES.gapMs, RULES.maxMs);
    const outcome = { removed: [{ session_id: late!.session_id }], added: grown };
    assert.deepEqual(ids(lastChainAfter([early!, late!], outcome, RULES.gapMs)), [['b', 'c']]);
    // A late event before the last chain: the last chain stays.
    const before = splitSessions([early!.events[0]!, ev('z', 2)], RULES.gapMs, RULES.maxMs);
    const outcome2 = { removed: [{ session_id: early!.session_id }], added: before };
    assert.deepEqual(ids(lastChainAfter([early!, late!], outcome2, RULES.gapMs)), [['b']]);
  });
});

describe('chain records', () => {
  const s = new PartitionSessions(1000);
  take(s, batch(ev('a', 0, { properties: '{"n":1}' }), ev('b', 5), ev('c', 14)));
  const [chain] = take(s, batch(ev('d', 20), ev('e', 27)));
  const eventsOf = (r: SessionChainRecord) => r.sessions.map((x) => [x.session_id, x.events.map((e) => e.message_id)]);

  it('carry only the events new to the chain, in the sessions they fall in', () => {
    // a b c d | e: the length limit (25) cuts before e.
    assert.deepEqual(ids(chain!.sessions), [['a', 'b', 'c', 'd'], ['e']]);
    assert.deepEqual(eventsOf(chainRecord(chain!)), [
      [chain!.sessions[0]!.session_id, ['d']],
      [chain!.sessions[1]!.session_id, ['e']],
    ]);
    // The sessionizer has let go of the properties of the events it held from the earlier batch.
    assert.equal(chain!.sessions[0]!.events[0]!.properties, '');
  });

  it('cut in halves keep their order and sessions, down to one event', () => {
    const all = { ...chain!, added: new Set(['a', 'b', 'c', 'd', 'e']) };
    const [first, second] = halvesOf(chainRecord(all))!;
    assert.deepEqual(eventsOf(first), [[chain!.sessions[0]!.session_id, ['a', 'b', 'c']]]);
    assert.deepEqual(eventsOf(second), [
      [chain!.sessions[0]!.session_id, ['d']],
      [chain!.sessions[1]!.session_id, ['e']],
    ]);
    assert.equal(halvesOf(chainRecord({ ...chain!, added: new Set(['e']) })), undefined);
  });
});
