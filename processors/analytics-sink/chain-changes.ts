import { type AnalyticsConfig, configVersion } from '../../domain/analytics-config.js';
import type { AnalyticsEvent } from '../../domain/event.js';
import { chainsOf } from '../../domain/session.js';
import type { PoolClient } from '../../lib/db.js';
import { yieldToLoop } from '../../lib/loop-watch.js';
import type { SessionChainRecord } from '../sessionize/record.js';
import { advanceChain } from './core.js';
import type { Held } from './keyed-chains.js';
import { type FreshSession, type SessionChange, freshSession, resessionize } from './resessionize.js';
import { keyOf, touchedBy } from './stored-events.js';
import type { StoredEvent } from '../../store/session-events.js';
import { latestSessionStarts } from '../../store/sessions.js';
import { userMarks } from '../../store/identity-links.js';
import { propertiesOf } from './parsed-properties.js';

/** Users' chains advanced between two turns of the event loop (`yieldToLoop`). */
const YIELD_EVERY_USERS = 250;

/** What the analytics step holds of a user: their last chain's sessions, events and contributions as stored. */
export type HeldChain = Held<AnalyticsEvent, FreshSession['c']>;

/** What a batch changes, and what the step holds of each changed user once it commits. */
export interface ChainPlan {
  changes: SessionChange[];
  /** Per user key, their last chain as the batch stores it; null: hold nothing of them. */
  remember: Map<string, HeldChain | null>;
}

/**
 * What the events stored now change, per user. A user whose last chain the step holds
 * (`held`) and whose new events come from its start on is advanced in memory (`advanceChain`):
 * the held sessions' contributions are what is stored, so nothing is read back. Any other user
 * (not held, an event before the held chain, erased once: the held chain may predate the erasure,
 * or with an anonymous id's rows moved in since: `moved`, stitch.ts) has their stored sessions around
 * the new events split again (`resessionize`), with the events moved into them now (`moved`, already
 * stored under them).
 */
export async function chainChanges(
  client: PoolClient,
  chains: SessionChainRecord[],
  rows: StoredEvent[],
  configs: Map<string, AnalyticsConfig>,
  held: (user: string) => HeldChain | undefined,
  moved: StoredEvent[] = [],
): Promise<ChainPlan> {
  const stitched = new Set(moved.map((r) => keyOf(r.project_id, r.user_id)));
  const storedNow = new Map(rows.map((r) => [keyOf(r.project_id, r.message_id), r.user_id]));
  const byUser = new Map<string, { key: string; projectId: string; userId: string; events: AnalyticsEvent[] }>();
  for (const chain of chains) {
    const key = keyOf(chain.project_id, chain.user_id);
    for (const e of eventsOfRecord(chain)) {
      // A chain's event stored before (a repeat) or by another user of the project changes nothing.
      const id = keyOf(chain.project_id, e.message_id);
      if (storedNow.get(id) !== chain.user_id) continue;
      storedNow.delete(id);
      let user = byUser.get(key);
      if (!user) byUser.set(key, (user = { key, projectId: chain.project_id, userId: chain.user_id, events: [] }));
      user.events.push(e);
    }
  }
  const users = [...byUser.values()].sort(
    (a, b) => a.projectId.localeCompare(b.projectId) || a.userId.localeCompare(b.userId),
  );
  const marks = await userMarks(client, users);
  const plan: ChainPlan = { changes: [], remember: new Map() };
  const unheld = new Set<string>();
  for (const [i, u] of users.entries()) {
    if (i % YIELD_EVERY_USERS === YIELD_EVERY_USERS - 1) await yieldToLoop();
    const config = configs.get(u.projectId)!;
    const version = configVersion(config);
    const chain = marks.erased.has(u.key) || stitched.has(u.key) ? undefined : held(u.key);
    const advance =
      chain?.config === version &&
      chain.moved === marks.moved.get(u.key) &&
      advanceChain(chain.sessions, u.events, config.session, (s) => freshSession(s, config).c);
    if (!advance) {
      unheld.add(u.key);
      continue;
    }
    plan.remember.set(u.key, { sessions: advance.last, config: version, moved: marks.moved.get(u.key) });
    if (advance.added.length === 0 && advance.removed.length === 0) continue;
    plan.changes.push({
      t: {
        projectId: u.projectId,
        userId: u.userId,
        min: Math.min(...u.events.map((e) => e.timestamp)),
        max: Math.max(...u.events.map((e) => e.timestamp)),
      },
      old: advance.removed.map((h) => ({ session_id: h.session.session_id, contribution: h.c })),
      fresh: advance.added.map((h) => ({
        session: h.session,
        c: h.c,
        receivedAt: h.session.events.reduce((latest, e) => Math.max(latest, e.received_at), 0),
      })),
    });
  }
  const fallback = touchedBy([...rows, ...moved]).filter((t) => {
    const key = keyOf(t.projectId, t.userId);
    return unheld.has(key) || stitched.has(key);
  });
  const latest = new Map(
    (await latestSessionStarts(client, fallback)).map((r) => [keyOf(r.project_id, r.user_id), r.latest]),
  );
  const stored = new Set([...rows, ...moved].map((r) => keyOf(r.project_id, r.message_id)));
  for (const change of await resessionize(client, fallback, configs, stored)) {
    const { projectId, userId } = change.t;
    const key = keyOf(projectId, userId);
    const after = latest.get(key);
    plan.changes.push(after === undefined && change.old.length === 0 ? { ...change, newUser: true } : change);
    // What was split is the user's last chain only when no stored session starts after it.
    const ends = Math.max(...change.fresh.map((f) => f.session.ended_at));
    if (after !== undefined && after > ends) {
      plan.remember.set(key, null);
      continue;
    }
    const last = chainsOf(
      change.fresh.map((f) => f.session),
      configs.get(projectId)!.session.gapMs,
    ).at(-1)!;
    const contributions = new Map(change.fresh.map((f) => [f.session.session_id, f.c]));
    plan.remember.set(key, {
      sessions: last.map((session) => ({ session, c: contributions.get(session.session_id)! })),
      config: configVersion(configs.get(projectId)!),
      moved: marks.moved.get(key),
    });
  }
  return plan;
}

function eventsOfRecord(chain: SessionChainRecord): AnalyticsEvent[] {
  return chain.sessions.flatMap((s) =>
    s.events.map((e) => ({
      message_id: e.message_id,
      user_id: chain.user_id,
      event: e.event,
      timestamp: Number(e.timestamp),
      received_at: Number(e.received_at),
      offset: Number(e.offset),
      properties: propertiesOf(e),
    })),
  );
}
