import type { AnalyticsConfig } from '../../domain/analytics-config.js';
import type { AnalyticsEvent } from '../../domain/event.js';
import type { Session } from '../../domain/session.js';
import type { PoolClient } from '../../lib/db.js';
import type { SessionChainRecord } from '../sessionize/record.js';
import { type StoredSessionSpan, applyChains, chainsMatchStored } from './core.js';
import { type SessionChange, type StoredSession, freshSession, resessionize } from './resessionize.js';
import { type Stored, erasedUsers, keyOf, touchedBy } from './stored-events.js';

/**
 * What the batch's chains change, per user: the chains themselves when they continue the stored
 * sessions, else a re-split from the stored events around the events stored now (none stored now:
 * the stored sessions are already the split of the stored events, nothing changes).
 */
export async function chainChanges(
  client: PoolClient,
  chains: SessionChainRecord[],
  { rows, copies }: Stored,
  configs: Map<string, AnalyticsConfig>,
): Promise<SessionChange[]> {
  const storedNow = new Set(rows.map((r) => keyOf(r.project_id, r.message_id)));
  // A user with no event stored now changes nothing: the stored sessions are already the split of
  // the stored events (chains written again after a restart of the sessionizer end here).
  const withNew = new Set(rows.map((r) => keyOf(r.project_id, r.user_id)));
  const byUser = new Map<string, { projectId: string; userId: string; chains: Session[][]; trusted: boolean }>();
  for (const chain of chains) {
    const key = keyOf(chain.project_id, chain.user_id);
    if (!withNew.has(key)) continue;
    let user = byUser.get(key);
    if (!user)
      byUser.set(key, (user = { projectId: chain.project_id, userId: chain.user_id, chains: [], trusted: true }));
    const rules = configs.get(chain.project_id)!.session;
    // A chain split with other rules (a settings change in between) or cut short is not trusted.
    if (!chain.complete || Number(chain.gap_ms) !== rules.gapMs || Number(chain.max_ms) !== rules.maxMs)
      user.trusted = false;
    user.chains.push(sessionsOf(chain));
  }
  const users = [...byUser.values()].sort(
    (a, b) => a.projectId.localeCompare(b.projectId) || a.userId.localeCompare(b.userId),
  );
  const erased = await erasedUsers(client, users);
  const trusted = users.filter((u) => u.trusted && !erased.has(keyOf(u.projectId, u.userId)));
  const stored = await storedAround(client, trusted, configs);
  const changes: SessionChange[] = [];
  const resplit = new Set(users.map((u) => keyOf(u.projectId, u.userId)));
  trusted.forEach((u, i) => {
    const config = configs.get(u.projectId)!;
    if (!chainsMatchStored(u.userId, u.chains, (id) => copies.get(keyOf(u.projectId, id)))) return;
    const present = new Set(
      u.chains
        .flat()
        .flatMap((s) => s.events)
        .filter((e) => !storedNow.has(keyOf(u.projectId, e.message_id)))
        .map((e) => e.message_id),
    );
    const outcome = applyChains(stored[i]!, u.chains, config.session.gapMs, present);
    if (!outcome) return;
    resplit.delete(keyOf(u.projectId, u.userId));
    const all = u.chains.flat();
    changes.push({
      t: {
        projectId: u.projectId,
        userId: u.userId,
        min: Math.min(...all.map((s) => s.started_at)),
        max: Math.max(...all.map((s) => s.ended_at)),
      },
      old: outcome.removed,
      fresh: outcome.added.map((s) => freshSession(s, config)),
    });
  });
  const fallback = touchedBy(rows).filter((t) => resplit.has(keyOf(t.projectId, t.userId)));
  changes.push(...(await resessionize(client, fallback, configs)));
  return changes;
}

function sessionsOf(chain: SessionChainRecord): Session[] {
  return chain.sessions.map((s) => {
    const events: AnalyticsEvent[] = s.events.map((e) => ({
      message_id: e.message_id,
      user_id: chain.user_id,
      event: e.event,
      timestamp: Number(e.timestamp),
      received_at: Number(e.received_at),
      offset: Number(e.offset),
      properties: JSON.parse(e.properties) as Record<string, unknown>,
    }));
    return {
      session_id: s.session_id,
      user_id: chain.user_id,
      started_at: events[0]!.timestamp,
      ended_at: events[events.length - 1]!.timestamp,
      events,
    };
  });
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
