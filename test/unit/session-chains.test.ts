import assert from 'node:assert/strict';
import fc from 'fast-check';
import { advanceChain } from '../../processors/analytics-sink/core.js';
import { KeyedChains } from '../../processors/analytics-sink/keyed-chains.js';
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

/** A stand-in contribution: the session's event ids, so a test sees which split it describes. */
const describeIds = (s: Session<HeldEvent>) => s.events.map((e) => e.message_id).join(',');
const held = (events: HeldEvent[]) =>
  chainsOf(splitSessions(events, RULES.gapMs, RULES.maxMs), RULES.gapMs)
    .at(-1)!
    .map((session) => ({ session, c: describeIds(session) }));

describe('advanceChain', () => {
  // Sessions cut by the length limit (25) stay in one chain: a and d are 8 apart.
  const chain = held([ev('a', 0), ev('b', 9), ev('c', 18), ev('d', 26)]);

  it('grows the held chain by new events, taking away only the sessions they change', () => {
    const advance = advanceChain(chain, [ev('e', 30)], RULES, describeIds)!;
    assert.deepEqual(
      advance.removed.map((h) => h.c),
      ['d'],
    );
    assert.deepEqual(
      advance.added.map((h) => h.c),
      ['d,e'],
    );
    assert.deepEqual(
      advance.last.map((h) => h.c),
      ['a,b,c', 'd,e'],
    );
    // The kept session is the held entry itself: its contribution is not computed again.
    assert.equal(advance.last[0], chain[0]);
  });

  it('re-splits the held chain around a late event within it, and starts a new chain after a gap', () => {
    const late = advanceChain(chain, [ev('m', 2)], RULES, describeIds)!;
    assert.deepEqual(
      late.removed.map((h) => h.c),
      ['a,b,c'],
    );
    assert.deepEqual(
      late.last.map((h) => h.c),
      ['a,m,b,c', 'd'],
    );
    const apart = advanceChain(chain, [ev('z', 40)], RULES, describeIds)!;
    assert.deepEqual(apart.removed, []);
    assert.deepEqual(
      apart.last.map((h) => h.c),
      ['z'],
    );
  });

  it('cannot tell for an event before the held chain, nor for a user it holds nothing of', () => {
    const chain = held([ev('a', 30), ev('b', 35)]);
    assert.equal(advanceChain(chain, [ev('x', 29)], RULES, describeIds), undefined);
    assert.equal(advanceChain([], [ev('x', 29)], RULES, describeIds), undefined);
  });

  it('leaves out repeats of held events', () => {
    const a = ev('a', 0);
    const chain = held([a, ev('b', 5)]);
    const advance = advanceChain(chain, [{ ...a, timestamp: 7 }], RULES, describeIds)!;
    assert.deepEqual(advance, { removed: [], added: [], last: chain });
  });
});

describe('the keyed chains give the sessions of all stored events', () => {
  it('holds for any arrival order, batching, repeats, forgotten and stale state', () => {
    let advanced = 0;
    let resplit = 0;
    // Times mostly rise, as live traffic's do; a step back is a late event.
    const stepArb = fc.oneof(
      { arbitrary: fc.integer({ min: 0, max: 12 }), weight: 9 },
      { arbitrary: fc.integer({ min: -40, max: -1 }), weight: 1 },
    );
    const eventArb = fc.record({ step: stepArb, repeat: fc.boolean() });
    // What the step holds after a batch: what it stored, nothing (let go, another member wrote), or
    // a commit it never saw (the fence then finds another offset stored and drops the partition).
    const memoryArb = fc.constantFrom('kept', 'kept', 'kept', 'forgotten', 'unseen');
    fc.assert(
      fc.property(
        fc.array(eventArb, { minLength: 1, maxLength: 40 }),
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 10 }),
        fc.array(memoryArb, { minLength: 1, maxLength: 10 }),
        (specs, sizes, memory) => {
          const events: HeldEvent[] = [];
          let t = 100;
          specs.forEach((spec, i) => {
            t += spec.step;
            events.push({ ...ev(`m${i}`, t), user_id: 'u', received_at: events.length, offset: events.length });
            if (spec.repeat && i > 0) {
              events.push({ ...events[Math.floor(i / 2)]!, received_at: events.length, offset: events.length });
            }
          });
          const state = new KeyedChains<HeldEvent, string>(1_000);
          const storedEvents = new Map<string, HeldEvent>();
          let stored: Session<HeldEvent>[] = [];
          let offset = 0;
          for (let at = 0, k = 0; at < events.length; k++) {
            const slice = events.slice(at, at + sizes[k % sizes.length]!);
            at += slice.length;
            const from = offset;
            offset += slice.length;
            state.validate(0, from);
            // The first copy of an id read is the one stored (firstOccurrences, then the insert).
            const now: HeldEvent[] = [];
            for (const e of slice) {
              if (storedEvents.has(e.message_id)) continue;
              storedEvents.set(e.message_id, e);
              now.push(e);
            }
            const chain = state.get(0, 'u')?.sessions;
            const advance = chain && now.length > 0 ? advanceChain(chain, now, RULES, describeIds) : undefined;
            let last: ReturnType<typeof held> | null = null;
            if (advance) {
              advanced++;
              const gone = new Set(advance.removed.map((h) => h.session.session_id));
              stored = [...stored.filter((s) => !gone.has(s.session_id)), ...advance.added.map((h) => h.session)];
              // The contributions held are those of the sessions as stored.
              for (const h of advance.last) assert.equal(h.c, describeIds(h.session));
              last = advance.last;
            } else if (now.length > 0) {
              resplit++;
              stored = splitSessions([...storedEvents.values()], RULES.gapMs, RULES.maxMs);
              last = held([...storedEvents.values()]);
            } else if (chain) last = chain;
            const remembered = memory[k % memory.length]!;
            if (remembered === 'kept')
              state.commit(0, offset, new Map([['u', last && { sessions: last, config: 'c' }]]));
            else if (remembered === 'forgotten') state.commit(0, offset, new Map([['u', null]]));
          }
          const sort = (sessions: Session<HeldEvent>[]) => [...sessions].sort((a, b) => a.started_at - b.started_at);
          const exact = splitSessions([...storedEvents.values()], RULES.gapMs, RULES.maxMs);
          assert.deepEqual(ids(sort(stored)), ids(exact));
        },
      ),
      { numRuns: 2000 },
    );
    assert.ok(advanced > 1000 && resplit > 1000, `advanced ${advanced}, re-split ${resplit}`);
  });
});

describe('KeyedChains', () => {
  const chain = (n: number) => ({
    sessions: held(Array.from({ length: n }, (_, i) => ev(`k${arrival}-${i}`, i))),
    config: 'c',
  });

  it('drops a partition it did not commit up to the offset stored, and only that partition', () => {
    const state = new KeyedChains<HeldEvent, string>(100);
    state.commit(0, 10, new Map([['a', chain(2)]]));
    state.commit(1, 7, new Map([['b', chain(2)]]));
    state.validate(0, 10);
    assert.ok(state.get(0, 'a'));
    state.validate(1, 9);
    assert.equal(state.get(1, 'b'), undefined);
    assert.ok(state.get(0, 'a'));
    // Moved past transaction markers by this process: still its own.
    state.moved(0, 10, 12);
    state.validate(0, 12);
    assert.ok(state.get(0, 'a'));
  });

  it('lets the least recently stored users go past its events, and forgets a user committed as null', () => {
    const state = new KeyedChains<HeldEvent, string>(5);
    state.commit(0, 1, new Map([['a', chain(2)]]));
    state.commit(0, 2, new Map([['b', chain(2)]]));
    state.commit(0, 3, new Map([['a', chain(2)]]));
    state.commit(0, 4, new Map([['c', chain(2)]]));
    assert.equal(state.get(0, 'b'), undefined);
    assert.ok(state.get(0, 'a') && state.get(0, 'c'));
    assert.equal(state.heldEvents, 4);
    state.commit(0, 5, new Map([['a', null]]));
    assert.equal(state.get(0, 'a'), undefined);
    assert.equal(state.heldEvents, 2);
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
