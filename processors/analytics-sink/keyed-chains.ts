import type { TimedEvent } from '../../domain/event.js';
import type { HeldSession } from './core.js';

/**
 * A user's held chain and the version of the config it was split with: a chain split under other
 * session rules may not be complete under the new ones (a longer gap joins it to the chain before),
 * so after a change of the project's settings the user is read again once.
 */
export interface Held<E extends TimedEvent, C> {
  sessions: HeldSession<E, C>[];
  config: string;
  /**
   * The user's identity links' `moved` stamp when the chain was stored (store/identity-links.ts;
   * undefined: none): another partition moved an anonymous id's rows into the user when it differs.
   */
  moved?: number;
}

/**
 * The analytics step's keyed state: per partition of its input and per user, the user's last
 * chain as stored, each session with its contribution (`advanceChain`). A batch of a user it
 * holds reads nothing back; one of a user it does not hold reads their stored sessions (and the
 * step holds them from then on). Bounded by the events held: the users stored least recently are
 * let go first, which costs only that read when they come back.
 *
 * The state is trusted only while this process is the partition's only writer. Each partition
 * remembers the offset its state was committed up to (`appliedTo`, moved only once a transaction
 * commits); a transaction that finds another offset stored (another member applied the partition
 * meanwhile) drops the partition's state first (`validate`). An erasure, and an anonymous id's rows
 * moved into the user by another partition, are seen in the transaction (`userMarks`: the sink reads
 * the user's stored sessions back).
 */
export class KeyedChains<E extends TimedEvent, C> {
  /** In order of storing, least recent first; key: partition, NUL, project, NUL, user. */
  private readonly users = new Map<string, Held<E, C>>();
  private readonly appliedTo = new Map<number, number>();
  private held = 0;

  constructor(private readonly maxEvents: number) {}

  /** Drops the partition's state unless it was committed up to `from`, the offset stored now. */
  validate(partition: number, from: number): void {
    if (this.appliedTo.get(partition) === from) return;
    this.appliedTo.delete(partition);
    const prefix = `${partition}\u0000`;
    for (const [key, chain] of this.users) {
      if (!key.startsWith(prefix)) continue;
      this.users.delete(key);
      this.held -= eventsIn(chain);
    }
  }

  clear(): void {
    this.users.clear();
    this.appliedTo.clear();
    this.held = 0;
  }

  get(partition: number, user: string): Held<E, C> | undefined {
    return this.users.get(`${partition}\u0000${user}`);
  }

  /**
   * What a committed transaction of the partition stored, up to offset `to`: each user's last
   * chain, or null for a user whose stored sessions it cannot vouch for.
   */
  commit(partition: number, to: number, chains: Map<string, Held<E, C> | null>): void {
    this.appliedTo.set(partition, to);
    for (const [user, chain] of chains) {
      const key = `${partition}\u0000${user}`;
      const was = this.users.get(key);
      if (was) {
        this.users.delete(key);
        this.held -= eventsIn(was);
      }
      if (chain === null || chain.sessions.length === 0) continue;
      this.users.set(key, chain);
      this.held += eventsIn(chain);
    }
    for (const [oldest, chain] of this.users) {
      if (this.held <= this.maxEvents) break;
      this.users.delete(oldest);
      this.held -= eventsIn(chain);
    }
  }

  /** The partition's stored offset moved from `from` to `to` without a write (past transaction markers). */
  moved(partition: number, from: number, to: number): void {
    if (this.appliedTo.get(partition) === from) this.appliedTo.set(partition, to);
  }

  get heldEvents(): number {
    return this.held;
  }
}

const eventsIn = <E extends TimedEvent, C>(chain: Held<E, C>) =>
  chain.sessions.reduce((n, h) => n + h.session.events.length, 0);
