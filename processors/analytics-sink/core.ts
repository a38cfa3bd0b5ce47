import type { TimedEvent } from '../../domain/event.js';
import { type Session, chainsOf, splitSessions } from '../../domain/session.js';

/** A stored session as far as the check needs it: its span and how many events it holds. */
export interface StoredSessionSpan {
  session_id: string;
  started: number;
  ended: number;
  events: number;
}

export interface ChainOutcome<S, E extends TimedEvent> {
  /** Stored sessions the chains replace. */
  removed: S[];
  /** Sessions to store: the last word of the chains on each. */
  added: Session<E>[];
}

type ViewEntry<S, E extends TimedEvent> = { stored: S } | { added: Session<E> };

const spanOf = <S extends StoredSessionSpan, E extends TimedEvent>(entry: ViewEntry<S, E>) =>
  'stored' in entry
    ? { started: entry.stored.started, ended: entry.stored.ended, events: entry.stored.events }
    : { started: entry.added.started_at, ended: entry.added.ended_at, events: entry.added.events.length };

/** A user's chains to apply, split by the sink itself. */
export interface CandidateChains<E extends TimedEvent> {
  /** The chains holding an event stored now, in time order. */
  chains: Session<E>[][];
  /** The recent sessions whose events the chains hold: they must still be stored as they were. */
  recentUsed: Session<E>[];
}

/**
 * Splits a user's recent sessions (their last chain, as this process stored it) with a batch's
 * events for the user (pure). The sessionizer sends only the events new to a chain, so the
 * events it does not send again come from here. A batch event whose message id a recent session
 * holds is a repeat: the recent one is the stored copy. Nothing here has to be right: the chains
 * are checked against the stored sessions (`stillStored`, `chainsMatchStored`, `applyChains`)
 * before they are trusted.
 */
export function candidateChains<E extends TimedEvent>(
  recent: Session<E>[],
  events: E[],
  storedNow: (messageId: string) => boolean,
  rules: { gapMs: number; maxMs: number },
): CandidateChains<E> {
  const byId = new Map<string, E>();
  for (const e of recent.flatMap((s) => s.events)) byId.set(e.message_id, e);
  for (const e of events) if (!byId.has(e.message_id)) byId.set(e.message_id, e);
  const split = splitSessions([...byId.values()], rules.gapMs, rules.maxMs);
  const chains = chainsOf(split, rules.gapMs).filter((c) =>
    c.some((s) => s.events.some((e) => storedNow(e.message_id))),
  );
  const inChains = new Set(chains.flatMap((c) => c.flatMap((s) => s.events.map((e) => e.message_id))));
  return { chains, recentUsed: recent.filter((s) => s.events.some((e) => inChains.has(e.message_id))) };
}

/**
 * Whether each recent session is stored as this process stored it: same id, span and number of
 * events among `stored` (the stored sessions around the chains, which hold every recent session
 * whose events a chain holds). Another writer (another member after a rebalance, an erasure, a
 * replay) that moved one since makes its remembered events untrustworthy.
 */
export function stillStored<E extends TimedEvent>(recent: Session<E>[], stored: StoredSessionSpan[]): boolean {
  const byId = new Map(stored.map((s) => [s.session_id, s]));
  return recent.every((s) => {
    const t = byId.get(s.session_id);
    return t !== undefined && t.started === s.started_at && t.ended === s.ended_at && t.events === s.events.length;
  });
}

/** The user's last chain once an outcome is stored over the recent sessions: what to remember of them. */
export function lastChainAfter<S extends { session_id: string }, E extends TimedEvent>(
  recent: Session<E>[],
  outcome: ChainOutcome<S, E>,
  gapMs: number,
): Session<E>[] {
  const gone = new Set(outcome.removed.map((s) => s.session_id));
  const added = new Set(outcome.added.map((s) => s.session_id));
  const sessions = [...recent.filter((s) => !gone.has(s.session_id) && !added.has(s.session_id)), ...outcome.added];
  return (
    chainsOf(
      sessions.sort((a, b) => a.started_at - b.started_at),
      gapMs,
    ).at(-1) ?? []
  );
}

/** The stored copy of an event: whose it is, when it happened, where it was read (an event is one). */
export interface StoredCopy {
  user_id: string;
  timestamp: number;
  offset: number;
}

/**
 * Whether every event of a user's chains is the stored copy of its message id. A chain may carry
 * another copy: an event of another user with the same client-chosen id, or a repeat the
 * sessionizer took for new (it had forgotten the first) sent with another time or read at another
 * offset. Such a chain is not what the stored events split into, and `applyChains`' count cannot
 * tell, so the sink re-splits instead.
 */
export function chainsMatchStored<E extends TimedEvent>(
  userId: string,
  chains: Session<E>[][],
  copyOf: (messageId: string) => StoredCopy | undefined,
): boolean {
  return chains.every((chain) =>
    chain.every((s) =>
      s.events.every((e) => {
        const copy = copyOf(e.message_id);
        return (
          copy !== undefined && copy.user_id === userId && copy.timestamp === e.timestamp && copy.offset === e.offset
        );
      }),
    ),
  );
}

/**
 * Applies one user's chains, in the order the sessionizer wrote them, to the user's stored
 * sessions around them (pure). A chain continues the stored state when the sessions within a gap
 * of it hold exactly those of its events that were stored before: each such event lies in one of
 * them, so equal counts mean equal sets, and the chain is then what a split of the stored events
 * and its new ones gives. It replaces those sessions. `present` holds the ids of the chains'
 * events stored before the batch; it grows as chains are applied. The chains' events must be
 * the stored copies (`chainsMatchStored`).
 *
 * Returns undefined as soon as a chain does not continue the state: the sessionizer had forgotten
 * part of the user (an idle user, an event older than its held chain, a restart from a replay
 * point). The sink then re-splits from the stored events, which is exact whatever the cause.
 */
export function applyChains<S extends StoredSessionSpan, E extends TimedEvent>(
  stored: S[],
  chains: Session<E>[][],
  gapMs: number,
  present: Set<string>,
): ChainOutcome<S, E> | undefined {
  let view: ViewEntry<S, E>[] = stored.map((s) => ({ stored: s }));
  const removed: S[] = [];
  for (const chain of chains) {
    const lo = chain[0]!.started_at - gapMs;
    const hi = chain[chain.length - 1]!.ended_at + gapMs;
    const near = (entry: ViewEntry<S, E>) => {
      const span = spanOf(entry);
      return span.ended > lo && span.started < hi;
    };
    const held = view.filter(near).reduce((n, entry) => n + spanOf(entry).events, 0);
    const events = chain.flatMap((s) => s.events);
    if (held !== events.filter((e) => present.has(e.message_id)).length) return undefined;
    for (const entry of view) if (near(entry) && 'stored' in entry) removed.push(entry.stored);
    view = [...view.filter((entry) => !near(entry)), ...chain.map((added) => ({ added }))];
    for (const e of events) present.add(e.message_id);
  }
  return { removed, added: view.flatMap((entry) => ('added' in entry ? [entry.added] : [])) };
}
