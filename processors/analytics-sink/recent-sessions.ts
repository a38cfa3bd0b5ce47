import type { AnalyticsEvent } from '../../domain/event.js';
import type { Session } from '../../domain/session.js';

/**
 * Per user, the sessions of their last chain as this process stored them, with their events: a
 * batch that brings a user new events splits them with these (`candidateChains`) instead of
 * receiving the whole chain again or reading it back. Bounded by the events held: the users
 * stored least recently are let go first. A user let go costs one read of their stored events
 * when they come back (`resessionize`), so memory bounds only how often that read happens.
 */
export class RecentSessions {
  /** In order of storing: the least recent user first. */
  private readonly users = new Map<string, Session[]>();
  private held = 0;

  constructor(private readonly maxEvents: number) {}

  get(key: string): Session[] {
    return this.users.get(key) ?? [];
  }

  /** Remembers the user's last chain; call once it is committed, and only then. */
  set(key: string, sessions: Session[]): void {
    this.delete(key);
    if (sessions.length === 0) return;
    this.users.set(key, sessions);
    this.held += eventsIn(sessions);
    for (const [oldest, chain] of this.users) {
      if (this.held <= this.maxEvents) break;
      this.users.delete(oldest);
      this.held -= eventsIn(chain);
    }
  }

  delete(key: string): void {
    const chain = this.users.get(key);
    if (!chain) return;
    this.users.delete(key);
    this.held -= eventsIn(chain);
  }

  get heldEvents(): number {
    return this.held;
  }
}

const eventsIn = (sessions: Session<AnalyticsEvent>[]) => sessions.reduce((n, s) => n + s.events.length, 0);
