import type { AnalyticsConfig } from '../../domain/analytics-config.js';
import type { AnalyticsEvent } from '../../domain/event.js';
import { type Session, chainsOf } from '../../domain/session.js';
import type { PoolClient } from '../../lib/db.js';
import { yieldToLoop } from '../../lib/loop-watch.js';
import type { SessionChainRecord } from '../sessionize/record.js';
import {
  type StoredSessionSpan,
  applyChains,
  candidateChains,
  chainsMatchStored,
  lastChainAfter,
  stillStored,
} from './core.js';
import type { RecentSessions } from './recent-sessions.js';
import { type SessionChange, type StoredSession, freshSession, resessionize } from './resessionize.js';
import { type Stored, erasedUsers, keyOf, touchedBy } from './stored-events.js';

/** Users' chains checked and applied between two turns of the event loop (`yieldToLoop`). */
const YIELD_EVERY_USERS = 250;

/** What a batch's chains change, and what to remember of each changed user once it commits. */
export interface ChainPlan {
  changes: SessionChange[];
  /** Per user key, their last chain as the batch stores it. */
  remember: Map<string, Session[]>;
}

/**
 * What the batch's chains change, per user. The chain records hold only the events new to the
 * sessionizer; the sink splits them with the user's recent sessions (`RecentSessions`) and applies
 * the chains that hold an event stored now, when they continue the stored sessions. Otherwise (the
 * user is not recent here, or the chains do not continue what is stored) it re-splits from the
 * stored events around the events stored now. A user with none stored now changes nothing: the
 * stored sessions are already the split of the stored events.
 */
export async function chainChanges(
  client: PoolClient,
  chains: SessionChainRecord[],
  { rows, copies }: Stored,
  configs: Map<string, AnalyticsConfig>,
  recent: RecentSessions,
): Promise<ChainPlan> {
  // Per project, the ids stored now: looked up per event of every changed user's chains, where a
  // key joined of project and id cost a string each (docs/performance.md, fourteenth session).
  const storedNow = new Map<string, Set<string>>();
  for (const r of rows) {
    const ids = storedNow.get(r.project_id);
    if (ids) ids.add(r.message_id);
    else storedNow.set(r.project_id, new Set([r.message_id]));
  }
  const none = new Set<string>();
  // Chains written again after a restart of the sessionizer bring nothing stored now and end here.
  const withNew = new Set(rows.map((r) => keyOf(r.project_id, r.user_id)));
  const byUser = new Map<string, { key: string; projectId: string; userId: string; events: AnalyticsEvent[] }>();
  for (const chain of chains) {
    const key = keyOf(chain.project_id, chain.user_id);
    if (!withNew.has(key)) continue;
    let user = byUser.get(key);
    if (!user) byUser.set(key, (user = { key, projectId: chain.project_id, userId: chain.user_id, events: [] }));
    user.events.push(...eventsOfRecord(chain));
  }
  const users = [...byUser.values()].sort(
    (a, b) => a.projectId.localeCompare(b.projectId) || a.userId.localeCompare(b.userId),
  );
  const erased = await erasedUsers(client, users);
  const candidates = users
    .filter((u) => !erased.has(u.key))
    .map((u) => {
      const held = recent.get(u.key);
      const newIds = storedNow.get(u.projectId) ?? none;
      return {
        ...u,
        recent: held,
        newIds,
        ...candidateChains(held, u.events, (id) => newIds.has(id), configs.get(u.projectId)!.session),
      };
    })
    .filter((u) => u.chains.length > 0);
  const stored = await storedAround(client, candidates, configs);
  const plan: ChainPlan = { changes: [], remember: new Map() };
  const resplit = new Set(users.map((u) => u.key));
  for (const [i, u] of candidates.entries()) {
    if (i % YIELD_EVERY_USERS === YIELD_EVERY_USERS - 1) await yieldToLoop();
    const gapMs = configs.get(u.projectId)!.session.gapMs;
    if (!stillStored(u.recentUsed, stored[i]!)) continue;
    // Recent events are stored copies: they were when this process stored them, and still are.
    const recentCopies = new Map<string, AnalyticsEvent>();
    for (const s of u.recentUsed) for (const e of s.events) recentCopies.set(e.message_id, e);
    const copyOf = (id: string) => copies.get(keyOf(u.projectId, id)) ?? recentCopies.get(id);
    if (!chainsMatchStored(u.userId, u.chains, copyOf)) continue;
    const events = u.chains.flat().flatMap((s) => s.events);
    const present = new Set(events.filter((e) => !u.newIds.has(e.message_id)).map((e) => e.message_id));
    const outcome = applyChains(stored[i]!, u.chains, gapMs, present);
    if (!outcome) continue;
    resplit.delete(u.key);
    const all = u.chains.flat();
    plan.changes.push({
      t: {
        projectId: u.projectId,
        userId: u.userId,
        min: Math.min(...all.map((s) => s.started_at)),
        max: Math.max(...all.map((s) => s.ended_at)),
      },
      old: outcome.removed,
      fresh: outcome.added.map((s) => freshSession(s, configs.get(u.projectId)!)),
    });
    plan.remember.set(u.key, lastChainAfter(u.recent, outcome, gapMs));
  }
  const fallback = touchedBy(rows).filter((t) => resplit.has(keyOf(t.projectId, t.userId)));
  for (const change of await resessionize(client, fallback, configs)) {
    const { projectId, userId } = change.t;
    const split = chainsOf(
      change.fresh.map((f) => f.session),
      configs.get(projectId)!.session.gapMs,
    );
    plan.remember.set(keyOf(projectId, userId), split.at(-1) ?? []);
    plan.changes.push(change);
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
      properties: JSON.parse(e.properties) as Record<string, unknown>,
    })),
  );
}

type StoredAround = StoredSession & StoredSessionSpan;

/** Each user's stored sessions within a gap of their chains, one statement for the batch. */
async function storedAround(
  client: PoolClient,
  users: { projectId: string; userId: string; chains: Session[][] }[],
  configs: Map<string, AnalyticsConfig>,
): Promise<StoredAround[][]> {
  const out = users.map((): StoredAround[] => []);
  if (users.length === 0) return out;
  const spans = users.map((u) => {
    const all = u.chains.flat();
    const gap = configs.get(u.projectId)!.session.gapMs;
    return { lo: Math.min(...all.map((s) => s.started_at)) - gap, hi: Math.max(...all.map((s) => s.ended_at)) + gap };
  });
  const { rows } = await client.query<StoredSession & { i: number; started: string; ended: string; events: number }>(
    `select u.i, s.session_id, s.contribution, s.events,
            (extract(epoch from s.started_at) * 1000)::bigint as started, (extract(epoch from s.ended_at) * 1000)::bigint as ended
     from unnest($1::uuid[], $2::text[], $3::bigint[], $4::bigint[]) with ordinality as u(project_id, user_id, lo, hi, i)
     join sessions s on s.project_id = u.project_id and s.user_id = u.user_id
       and s.ended_at > to_timestamp(u.lo / 1000.0) and s.started_at < to_timestamp(u.hi / 1000.0)`,
    [users.map((u) => u.projectId), users.map((u) => u.userId), spans.map((s) => s.lo), spans.map((s) => s.hi)],
  );
  for (const { i, started, ended, ...session } of rows) {
    out[i - 1]!.push({ ...session, started: Number(started), ended: Number(ended) });
  }
  return out;
}
