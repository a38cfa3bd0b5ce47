import { type TimedEvent, byTime } from '../../domain/event.js';
import { type Session, chainsOf, splitSessions } from '../../domain/session.js';

/** A session the analytics step holds, with what it contributes to the tables as stored. */
export interface HeldSession<E extends TimedEvent, C> {
  session: Session<E>;
  c: C;
}

/** What a user's new events do to the chain the step holds of them. */
export interface ChainAdvance<E extends TimedEvent, C> {
  /** Held sessions no longer stored as they are: their contributions are taken away. */
  removed: HeldSession<E, C>[];
  /** Sessions stored in their place, with their contributions. */
  added: HeldSession<E, C>[];
  /** The user's last chain once the change is stored: what the step holds of them next. */
  last: HeldSession<E, C>[];
}

const sameEvents = <E extends TimedEvent>(a: Session<E>, b: Session<E>) =>
  a.events.length === b.events.length && a.events.every((e, i) => e.message_id === b.events[i]!.message_id);

/**
 * A user's events stored now, applied to the last chain the step holds of them (pure). The held
 * chain is complete: every stored event of the user from its first one on is in it (the step is
 * the only writer of its partition's users, and holds a chain only while that is so). Events from
 * its start on can therefore only change it and what follows, so the split of its events and the
 * new ones is what a split of all the user's stored events gives there. An event before its start
 * may join an earlier chain the step does not hold: undefined, and the caller reads the stored
 * sessions instead (so it does for a user it holds nothing of). Repeats of held events are left out.
 */
export function advanceChain<E extends TimedEvent, C>(
  held: HeldSession<E, C>[],
  events: E[],
  rules: { gapMs: number; maxMs: number },
  describe: (session: Session<E>) => C,
): ChainAdvance<E, C> | undefined {
  const first = held[0]?.session.events[0];
  if (first === undefined || events.some((e) => byTime(e, first) < 0)) return undefined;
  const ids = new Set(held.flatMap((h) => h.session.events.map((e) => e.message_id)));
  const fresh = events.filter((e) => !ids.has(e.message_id));
  if (fresh.length === 0) return { removed: [], added: [], last: held };
  const heldById = new Map(held.map((h) => [h.session.session_id, h]));
  const kept = new Set<HeldSession<E, C>>();
  const added: HeldSession<E, C>[] = [];
  const split = splitSessions([...held.flatMap((h) => h.session.events), ...fresh], rules.gapMs, rules.maxMs);
  const described = split.map((session) => {
    const h = heldById.get(session.session_id);
    if (h && sameEvents(h.session, session)) {
      kept.add(h);
      return h;
    }
    const entry = { session, c: describe(session) };
    added.push(entry);
    return entry;
  });
  const byId = new Map(described.map((d) => [d.session.session_id, d]));
  const lastChain = chainsOf(split, rules.gapMs).at(-1)!;
  return {
    removed: held.filter((h) => !kept.has(h)),
    added,
    last: lastChain.map((s) => byId.get(s.session_id)!),
  };
}
