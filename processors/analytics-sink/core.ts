import type { TimedEvent } from '../../domain/event.js';
import type { Session } from '../../domain/session.js';

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

/** The stored copy of an event: whose it is, when it happened, where it was read. */
export interface StoredCopy {
  userId: string;
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
          copy !== undefined && copy.userId === userId && copy.timestamp === e.timestamp && copy.offset === e.offset
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
