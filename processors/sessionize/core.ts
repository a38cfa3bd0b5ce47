import FlatQueue from 'flatqueue';
import type { AnalyticsEvent } from '../../domain/event.js';
import { type Session, chainsOf, splitSessions } from '../../domain/session.js';

/**
 * An event as the sessionizer holds it: its properties stay the JSON text they arrived as. It never
 * reads them, and lets them go once the batch that brought the event is split: a chain's record
 * carries only the chain's new events (`SessionChain.added`).
 */
export type HeldEvent = Omit<AnalyticsEvent, 'properties'> & { properties: string };

export interface SessionRules {
  gapMs: number;
  maxMs: number;
}

/**
 * A user's run of sessions, each less than a gap from the next: only the length limit cut them,
 * so a late event anywhere in the run can move every cut. It is the unit the sessionizer emits.
 */
export interface SessionChain {
  projectId: string;
  userId: string;
  rules: SessionRules;
  sessions: Session<HeldEvent>[];
  /** The message ids of the batch's events new to the chain: the only events that keep their properties. */
  added: Set<string>;
}

/** What a batch makes of the state: its chains, and the state after it once committed. */
export interface SessionizeStep {
  chains: SessionChain[];
  /**
   * Where a restart must re-read from once the step is committed: the lowest offset of a held
   * event, or `next` (the offset after the last one read) when none is held.
   */
  restartOffset(next: number): number;
  /** Makes the step the state; call once its chains and offsets are committed, and only then. */
  commit(): void;
}

/**
 * A held event whose properties went on in its chain. Named field by field: an object spread per
 * event cost ~1 µs on Node 20.
 */
const withoutProperties = (e: HeldEvent): HeldEvent => ({
  message_id: e.message_id,
  user_id: e.user_id,
  event: e.event,
  timestamp: e.timestamp,
  received_at: e.received_at,
  offset: e.offset,
  properties: '',
});

/** A user's state for a batch to change, kept only if its transaction commits (field by field, as above). */
const copyOf = (held: UserState): UserState => ({
  projectId: held.projectId,
  userId: held.userId,
  events: held.events,
  ids: new Set(held.ids),
  lowest: held.lowest,
  lastReceived: held.lastReceived,
});

export interface PartitionEvent {
  projectId: string;
  event: HeldEvent;
}

interface UserState {
  projectId: string;
  userId: string;
  /** The events of the user's last chain: the only one a later event in order can change. */
  events: HeldEvent[];
  ids: Set<string>;
  /** The lowest offset among `events`. */
  lowest: number;
  lastReceived: number;
}

/**
 * The sessionizer's state for one input partition (pure): per user, the events of the last
 * chain. `add` takes a batch in offset order and returns every chain holding one of its new
 * events, as the user's held events and the new ones now split. Earlier chains are not held, so
 * an event older than the held chain by a gap or more forms a chain of its own; the consumer of
 * the chains notices that it does not continue what it stored and re-splits from stored events.
 * A user idle (by receipt time) for `idleMs` is forgotten, and so are the least recently active
 * users while more than `maxHeld` events are held (memory stays bounded, whatever the number of
 * users), and users holding an event more than `maxBehind` offsets behind the latest one read (a
 * restart re-reads at most that many: a user who sent one event and is still within `idleMs`, or
 * whose chain runs on, held the restart offset back by as much as an hour of traffic).
 */
export class PartitionSessions {
  /** In order of activity: the least recently active user first. */
  private readonly users = new Map<string, UserState>();
  /**
   * The held users' keys by their lowest offset, for the restart offset of every batch: walking all
   * users for it cost each small live batch a time that grew with the users held (docs/performance.md).
   * Entries of users since changed or forgotten stay until they reach the head, or until they
   * outnumber the users and the heap is rebuilt.
   */
  private lows = new FlatQueue<string>();
  /** The latest receipt time seen in the partition: the clock of eviction, so a replay evicts alike. */
  private clock = 0;
  /** The highest offset read in the partition: what `maxBehind` counts from. */
  private top = -1;
  private held = 0;

  constructor(
    private readonly idleMs: number,
    private readonly maxHeld = Infinity,
    private readonly maxBehind = Infinity,
  ) {}

  /**
   * The chains of a batch and the state after it, without changing the state: `commit` does, once
   * the chains and the offset are committed. A batch whose transaction failed is then read again
   * against the same state, not taken for repeats of itself.
   */
  add(batch: PartitionEvent[], rulesOf: (projectId: string) => SessionRules): SessionizeStep {
    const touched = new Map<string, UserState>(); // in order of activity in the batch
    const fresh = new Map<string, HeldEvent[]>();
    let clock = this.clock;
    let top = this.top;
    for (const { projectId, event } of batch) {
      const key = `${projectId}\u0000${event.user_id}`;
      clock = Math.max(clock, event.received_at);
      top = Math.max(top, event.offset);
      let state = touched.get(key);
      if (!state) {
        const held = this.users.get(key);
        state = held
          ? copyOf(held)
          : { projectId, userId: event.user_id, events: [], ids: new Set(), lowest: Infinity, lastReceived: 0 };
      }
      touched.delete(key);
      touched.set(key, state);
      if (state.ids.has(event.message_id)) continue;
      state.ids.add(event.message_id);
      state.lastReceived = Math.max(state.lastReceived, event.received_at);
      let events = fresh.get(key);
      if (!events) fresh.set(key, (events = []));
      events.push(event);
    }
    const chains: SessionChain[] = [];
    let held = this.held;
    for (const [key, events] of fresh) {
      const state = touched.get(key)!;
      const rules = rulesOf(state.projectId);
      const added = new Set(events.map((e) => e.message_id));
      const split = chainsOf(splitSessions([...state.events, ...events], rules.gapMs, rules.maxMs), rules.gapMs);
      for (const chain of split) {
        if (chain.some((s) => s.events.some((e) => added.has(e.message_id)))) {
          chains.push({ projectId: state.projectId, userId: state.userId, rules, sessions: chain, added });
        }
      }
      held -= state.events.length;
      state.events = split[split.length - 1]!.flatMap((s) =>
        s.events.map((e) => (added.has(e.message_id) ? withoutProperties(e) : e)),
      );
      held += state.events.length;
      state.ids = new Set(state.events.map((e) => e.message_id));
      state.lowest = state.events.reduce((lowest, e) => Math.min(lowest, e.offset), Infinity);
    }
    const evicted = new Set<string>();
    const evict = (key: string, state: UserState) => {
      evicted.add(key);
      held -= state.events.length;
    };
    // First the users holding an event too far behind, whatever their activity.
    const floor = top - this.maxBehind;
    for (const [key, state] of touched) if (state.lowest < floor) evict(key, state);
    for (const [key, state] of this.heldBelow(floor, (k) => touched.has(k))) evict(key, state);
    // Then, least recently active first: the users the batch did not touch (the map is in order of
    // activity, so the walk ends at the first one kept), then those it did.
    const evicts = (key: string, state: UserState): boolean => {
      if (evicted.has(key)) return true;
      if (held <= this.maxHeld && clock - state.lastReceived <= this.idleMs) return false;
      evict(key, state);
      return true;
    };
    let kept = false;
    for (const [key, state] of this.users) {
      if (!touched.has(key) && !(kept = !evicts(key, state))) break;
    }
    if (!kept) for (const [key, state] of touched) if (!evicts(key, state)) break;
    return {
      chains,
      restartOffset: (next) => {
        let lowest = next;
        for (const [key, state] of touched) if (!evicted.has(key)) lowest = Math.min(lowest, state.lowest);
        return Math.min(
          lowest,
          this.lowestHeld((key) => touched.has(key) || evicted.has(key)),
        );
      },
      commit: () => {
        for (const [key, state] of touched) {
          // A user's lowest offset only rises (new events come later, a new chain starts later), so
          // an entry is pushed when it moves and each held user has one entry that is not stale.
          if (!evicted.has(key) && this.users.get(key)?.lowest !== state.lowest) this.lows.push(key, state.lowest);
          this.users.delete(key);
          this.users.set(key, state);
        }
        for (const key of evicted) this.users.delete(key);
        this.clock = clock;
        this.top = top;
        this.held = held;
        if (this.lows.length > 2 * this.users.size + 1024) {
          this.lows = new FlatQueue<string>();
          for (const [key, state] of this.users) this.lows.push(key, state.lowest);
        }
      },
    };
  }

  /**
   * The users other than those `skip` names whose lowest offset is below `floor`, read off the
   * head of the lowest offsets (stale entries met there are dropped, the others put back).
   */
  private heldBelow(floor: number, skip: (key: string) => boolean): [string, UserState][] {
    const below: [string, UserState][] = [];
    const kept: [string, number][] = [];
    while (this.lows.length > 0 && this.lows.peekValue()! < floor) {
      const value = this.lows.peekValue()!;
      const key = this.lows.pop()!;
      const state = this.users.get(key);
      if (state?.lowest !== value) continue;
      kept.push([key, value]);
      if (!skip(key)) below.push([key, state]);
    }
    for (const [key, value] of kept) this.lows.push(key, value);
    return below;
  }

  /**
   * The lowest offset held by a user other than those `skip` names (a step's own users, whose state
   * it changes): stale entries at the head are dropped, skipped ones put back.
   */
  private lowestHeld(skip: (key: string) => boolean): number {
    const skipped: [string, number][] = [];
    let lowest = Infinity;
    for (let key = this.lows.peek(); key !== undefined; key = this.lows.peek()) {
      const value = this.lows.peekValue()!;
      if (this.users.get(key)?.lowest === value && !skip(key)) {
        lowest = value;
        break;
      }
      this.lows.pop();
      if (this.users.get(key)?.lowest === value) skipped.push([key, value]);
    }
    for (const [key, value] of skipped) this.lows.push(key, value);
    return lowest;
  }

  get heldEvents(): number {
    return this.held;
  }
}
