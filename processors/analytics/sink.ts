import type { SessionContribution } from '../../lib/session-contribution.js';
import type { PoolClient } from '../../lib/db.js';
import { type TrackedEventRecord, firstOccurrences } from '../../lib/tracked-event.js';
import type { SinkMessage } from '../runtime/postgres-sink.js';
import type { Session } from '../sessionize/core.js';
import type { SessionChainRecord } from '../sessionize/record.js';
import { type StoredCopy, type StoredSessionSpan, applyChains, chainsMatchStored } from './chain-apply.js';
import type { AnalyticsConfig } from '../../lib/analytics-config.js';
import { type FrictionTotals, frictionIndex } from '../../lib/friction-index.js';
import type { PostgresSink } from '../runtime/postgres-sink.js';
import { splitSessions } from '../sessionize/core.js';
import { sessionContribution } from './contribution.js';
import type { AnalyticsEvent } from './event.js';
import { ContributionDeltas } from '../../lib/contribution-store.js';
import { keepingAnswerTables } from '../../lib/answer-tables.js';
import { lockUsers } from '../../lib/user-data.js';
import { projectAnalyticsConfigs } from '../../lib/project-config.js';
import { type PageDay, frictionAlert } from '../friction/alerts.js';
import { recordFrictionEpisodes, recordInterventions, recordJobCompletions } from './moments.js';

interface Touched {
  projectId: string;
  userId: string;
  min: number;
  max: number;
}

/**
 * pi.sessions.v1 → sessions, friction signals and the daily tables. The sessionize processor
 * sends each user's chain of sessions as new events change it; the sink stores the events, checks
 * that the chain continues what it stored (`applyChains`) and then replaces the stored sessions
 * with the chain's: the old contributions are subtracted and the new ones added, in the
 * transaction that moves the offsets. When a chain does not continue the stored state (the
 * sessionizer forgot the user, or an event came later than its held chain), the user's sessions
 * around the new events are split again from the stored events. Either way the tables depend only
 * on the set of events: late events of any lateness land where they belong, and a replay gives
 * the same tables.
 */
export const analyticsSink: PostgresSink<SessionChainRecord> = {
  name: 'analytics',
  topic: 'sessions',
  tables: [
    'session_events',
    'sessions',
    'friction_signals',
    'friction_page_daily',
    'friction_element_daily',
    'friction_page_users',
    'user_daily',
    'user_friction',
    'feature_user_daily',
    'feature_users',
    'event_context_daily',
    'user_metrics',
    'feature_daily',
    'project_daily',
    'feature_reach',
    'tenure_sessions',
    'feature_discovery',
    'friction_page_reach',
    'segment_daily',
    'segment_feature_daily',
    'segment_feature_reach',
  ],
  async write(client, messages) {
    const chains = messages.flatMap((m) => (m.value ? [m.value] : []));
    const records = firstOccurrences(chains.flatMap(eventsOf));
    if (records.length === 0) return;
    const rows = await storeEvents(client, records);
    const configs = await configsOf(client, records);
    const changes = await chainChanges(client, chains, rows, configs);
    await applyChanges(client, rows, changes, configs);
  },
};

/**
 * Raw events straight into the analytics tables, split again from the stored events: the path of
 * `replay --from`, which puts back the kept events of the sessions it took out.
 */
export async function applyEvents(client: PoolClient, messages: SinkMessage<TrackedEventRecord>[]): Promise<void> {
  const records = firstOccurrences(messages.flatMap((m) => (m.value ? [{ ...m.value, offset: m.offset }] : [])));
  if (records.length === 0) return;
  const rows = await storeEvents(client, records);
  const configs = await configsOf(client, records);
  await applyChanges(client, rows, await resessionize(client, touchedBy(rows), configs), configs);
}

type StorableEvent = TrackedEventRecord & { offset: number };

interface StoredEvent {
  project_id: string;
  user_id: string;
  ms: number;
  rx: number;
  kafka_offset: number;
  event: string;
  message_id: string;
  intervention: Record<string, unknown> | null;
}

/** A key of a user or of an event within its project (ids are unique per project only). */
const keyOf = (projectId: string, id: string) => `${projectId}\u0000${id}`;

function eventsOf(chain: SessionChainRecord): StorableEvent[] {
  return chain.sessions.flatMap((s) =>
    s.events.map((e) => ({
      project_id: chain.project_id,
      user_id: chain.user_id,
      message_id: e.message_id,
      event: e.event,
      timestamp: Number(e.timestamp),
      received_at: Number(e.received_at),
      offset: Number(e.offset),
      properties: e.properties,
    })),
  );
}

const configsOf = (client: PoolClient, records: StorableEvent[]) =>
  projectAnalyticsConfigs(client, [...new Set(records.map((r) => r.project_id))].sort());

/**
 * Locks the users and stores their events, except repeats and those of a user erased after they
 * were received; returns the events stored now.
 */
async function storeEvents(client: PoolClient, records: StorableEvent[]): Promise<StoredEvent[]> {
  await lockUsers(
    client,
    records.map((r) => ({ projectId: r.project_id, userId: r.user_id })),
  );
  const { rows } = await client.query<StoredEvent>(
    `insert into session_events (project_id, user_id, message_id, occurred_at, received_at, kafka_offset, event, properties)
     select u.project_id, u.user_id, u.message_id, to_timestamp(u.ts / 1000.0), to_timestamp(u.rx / 1000.0), u.off, u.event, u.properties
     from unnest($1::uuid[], $2::text[], $3::text[], $4::bigint[], $5::bigint[], $6::bigint[], $7::text[], $8::jsonb[])
       as u(project_id, user_id, message_id, ts, rx, off, event, properties)
     where not exists (select 1 from deleted_users d
                       where d.project_id = u.project_id and d.user_hash = sha256(convert_to(u.user_id, 'UTF8'))
                         and d.deleted_at >= to_timestamp(u.rx / 1000.0))
     on conflict (project_id, message_id) do nothing
     returning project_id, user_id, (extract(epoch from occurred_at) * 1000)::bigint as ms,
               (extract(epoch from received_at) * 1000)::bigint as rx, kafka_offset, event, message_id,
               case when event in ('intervention_shown', 'intervention_accepted') then properties end as intervention`,
    [
      records.map((r) => r.project_id),
      records.map((r) => r.user_id),
      records.map((r) => r.message_id),
      records.map((r) => r.timestamp),
      records.map((r) => r.received_at),
      records.map((r) => r.offset),
      records.map((r) => r.event),
      records.map((r) => r.properties),
    ],
  );
  return rows.map((r) => ({ ...r, ms: Number(r.ms), rx: Number(r.rx), kafka_offset: Number(r.kafka_offset) }));
}

/** The users with events stored now, each with the time span of those events. */
function touchedBy(rows: StoredEvent[]): Touched[] {
  const touched = new Map<string, Touched>();
  for (const row of rows) {
    const key = keyOf(row.project_id, row.user_id);
    const t = touched.get(key);
    if (t) {
      t.min = Math.min(t.min, row.ms);
      t.max = Math.max(t.max, row.ms);
    } else touched.set(key, { projectId: row.project_id, userId: row.user_id, min: row.ms, max: row.ms });
  }
  return [...touched.values()].sort(
    (a, b) => a.projectId.localeCompare(b.projectId) || a.userId.localeCompare(b.userId),
  );
}

interface SessionChange {
  t: Touched;
  old: StoredSession[];
  fresh: FreshSession[];
}

/**
 * What the batch's chains change, per user: the chains themselves when they continue the stored
 * sessions, else a re-split from the stored events around the events stored now (none stored now:
 * the stored sessions are already the split of the stored events, nothing changes).
 */
async function chainChanges(
  client: PoolClient,
  chains: SessionChainRecord[],
  rows: StoredEvent[],
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
  const copies = await storedCopies(client, trusted, rows);
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

const freshSession = (s: Session, config: AnalyticsConfig): FreshSession => ({
  c: sessionContribution(s, config),
  receivedAt: s.events.reduce((latest, e) => Math.max(latest, e.received_at), 0),
});

/**
 * The stored copy of every event of the users' chains, keyed by project and message id: those
 * stored now from the rows, the others read (one statement for the batch).
 */
async function storedCopies(
  client: PoolClient,
  users: { projectId: string; chains: Session[][] }[],
  rows: StoredEvent[],
): Promise<Map<string, StoredCopy>> {
  const copies = new Map<string, StoredCopy>();
  const keep = (r: Pick<StoredEvent, 'project_id' | 'message_id' | 'user_id' | 'ms' | 'kafka_offset'>) =>
    copies.set(keyOf(r.project_id, r.message_id), { userId: r.user_id, timestamp: r.ms, offset: r.kafka_offset });
  rows.forEach(keep);
  const before = users.flatMap((u) =>
    u.chains
      .flat()
      .flatMap((s) => s.events)
      .filter((e) => !copies.has(keyOf(u.projectId, e.message_id)))
      .map((e) => ({ projectId: u.projectId, messageId: e.message_id })),
  );
  if (before.length === 0) return copies;
  const { rows: stored } = await client.query<{
    project_id: string;
    message_id: string;
    user_id: string;
    ms: number;
    kafka_offset: number;
  }>(
    `select e.project_id, e.message_id, e.user_id, (extract(epoch from e.occurred_at) * 1000)::bigint as ms, e.kafka_offset
     from unnest($1::uuid[], $2::text[]) as u(project_id, message_id)
     join session_events e on e.project_id = u.project_id and e.message_id = u.message_id`,
    [before.map((b) => b.projectId), before.map((b) => b.messageId)],
  );
  stored.forEach(keep);
  return copies;
}

/** Users with an erasure on record: their chains may hold events that must not count. */
async function erasedUsers(client: PoolClient, users: { projectId: string; userId: string }[]): Promise<Set<string>> {
  if (users.length === 0) return new Set();
  const { rows } = await client.query<{ project_id: string; user_id: string }>(
    `select u.project_id, u.user_id from unnest($1::uuid[], $2::text[]) as u(project_id, user_id)
     where exists (select 1 from deleted_users d
                   where d.project_id = u.project_id and d.user_hash = sha256(convert_to(u.user_id, 'UTF8')))`,
    [users.map((u) => u.projectId), users.map((u) => u.userId)],
  );
  return new Set(rows.map((r) => keyOf(r.project_id, r.user_id)));
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

/**
 * Writes the changed sessions, their shares of the daily and answer tables, and the moments the
 * events stored now raise (alerts, friction episodes, interventions, job completions).
 */
async function applyChanges(
  client: PoolClient,
  rows: StoredEvent[],
  changes: SessionChange[],
  configs: Map<string, AnalyticsConfig>,
): Promise<void> {
  const pageDays = new Map<string, PageDay>();
  const deltas = new ContributionDeltas();
  const features: { projectId: string; userId: string; feature: string }[] = [];
  const writes: SessionWrites = { removed: [], added: [] };
  const users = changes
    .map((c) => c.t)
    .sort((a, b) => a.projectId.localeCompare(b.projectId) || a.userId.localeCompare(b.userId));
  for (const { t, old, fresh } of changes) {
    for (const session of old) {
      deltas.add(t.projectId, session.contribution, -1);
      writes.removed.push({ projectId: t.projectId, sessionId: session.session_id });
    }
    for (const { c, receivedAt } of fresh) {
      deltas.add(t.projectId, c, 1);
      writes.added.push({ projectId: t.projectId, userId: t.userId, c });
      for (const p of c.pages) {
        const key = `${t.projectId}\u0000${p.page}\u0000${c.day}`;
        const latest = Math.max(pageDays.get(key)?.receivedAt ?? 0, receivedAt);
        pageDays.set(key, { projectId: t.projectId, page: p.page, day: c.day, receivedAt: latest });
      }
    }
    const touchedFeatures = [...old.map((s) => s.contribution), ...fresh.map((f) => f.c)].flatMap((c) => c.features);
    for (const feature of new Set(touchedFeatures.map((f) => f.feature))) {
      features.push({ projectId: t.projectId, userId: t.userId, feature });
    }
  }
  await keepingAnswerTables(client, users, async () => {
    // Sessions and daily tables first: the refreshes below read them.
    await writeSessions(client, writes);
    await deltas.apply(client);
    await refreshFeatureUsers(client, features);
    await refreshUserMetrics(client, users, configs);
  });
  await raiseAlerts(client, [...pageDays.values()], configs);
  await recordFrictionEpisodes(client, writes.added, configs);
  await recordInterventions(
    client,
    rows.filter((r) => r.intervention),
  );
  await recordJobCompletions(
    client,
    rows.map((r) => ({
      project_id: r.project_id,
      user_id: r.user_id,
      event: r.event,
      message_id: r.message_id,
      occurred_at: r.ms,
      received_at: r.rx,
    })),
  );
}

/**
 * One alert per page and day once the page's Friction Index that day reaches the threshold with
 * enough users affected. Alerts are moments, not state: a replay does not raise them again.
 */
async function raiseAlerts(client: PoolClient, pageDays: PageDay[], configs: Map<string, AnalyticsConfig>) {
  if (pageDays.length === 0) return;
  const { rows } = await client.query<FrictionTotals & { i: number; users: number }>(
    `select k.i, p.views, p.clicks, p.dead_clicks, p.rage_clicks, p.loop_views, p.backtracks, p.active_ms, p.idle_ms,
            (select count(*)::int from friction_page_users u
             where u.project_id = p.project_id and u.page = p.page and u.day = p.day) as users
     from unnest($1::uuid[], $2::text[], $3::date[]) with ordinality as k(project_id, page, day, i)
     join friction_page_daily p on p.project_id = k.project_id and p.page = k.page and p.day = k.day
     order by k.i`,
    [pageDays.map((pd) => pd.projectId), pageDays.map((pd) => pd.page), pageDays.map((pd) => pd.day)],
  );
  const now = Date.now();
  const alerts = rows.flatMap((row) => {
    const pd = pageDays[row.i - 1]!;
    return frictionAlert(pd, row, row.users, configs.get(pd.projectId)!, now) ?? [];
  });
  if (alerts.length === 0) return;
  // In key order, as every shared row (see AdditiveDeltas.apply).
  alerts.sort(
    (a, b) => a.projectId.localeCompare(b.projectId) || a.page.localeCompare(b.page) || a.day.localeCompare(b.day),
  );
  await client.query(
    `insert into friction_alerts (project_id, alert_id, page, day, friction_index, users_affected)
     select * from unnest($1::uuid[], $2::text[], $3::text[], $4::date[], $5::float8[], $6::int[])
     on conflict (project_id, page, day) do nothing`,
    [
      alerts.map((a) => a.projectId),
      alerts.map((a) => a.alertId),
      alerts.map((a) => a.page),
      alerts.map((a) => a.day),
      alerts.map((a) => a.index),
      alerts.map((a) => a.users),
    ],
  );
}

/** A session as its stored events now form it, and when its latest event was received. */
interface FreshSession {
  c: SessionContribution;
  receivedAt: number;
}

interface StoredSession {
  session_id: string;
  contribution: SessionContribution;
}

/** A touched user's time window: stored sessions within it are split again with the new events. */
interface Window {
  t: Touched;
  gap: number;
  lo: number;
  hi: number;
  old: (StoredSession & { started: number; ended: number })[];
}

/**
 * Re-splits the touched users' sessions around their new events: each user's stored sessions
 * (`old`) and the sessions their stored events now form (`fresh`). Reads all users of the batch
 * with one statement per step, not per user.
 */
async function resessionize(
  client: PoolClient,
  users: Touched[],
  configs: Map<string, AnalyticsConfig>,
): Promise<SessionChange[]> {
  const windows: Window[] = users.map((t) => {
    const gap = configs.get(t.projectId)!.session.gapMs;
    return { t, gap, lo: t.min, hi: t.max, old: [] };
  });
  // The stored sessions within a gap of the new events, widened until stable: a session cut at
  // the 24 h limit is followed by its continuation less than a gap later, and a late event that
  // moves the cut must re-split the whole chain.
  let pending = windows;
  while (pending.length > 0) {
    const { rows } = await client.query<StoredSession & { i: number; started: number; ended: number }>(
      `select u.i, s.session_id, s.contribution,
              (extract(epoch from s.started_at) * 1000)::bigint as started, (extract(epoch from s.ended_at) * 1000)::bigint as ended
       from unnest($1::uuid[], $2::text[], $3::bigint[], $4::bigint[]) with ordinality as u(project_id, user_id, lo, hi, i)
       join sessions s on s.project_id = u.project_id and s.user_id = u.user_id
         and s.ended_at > to_timestamp(u.lo / 1000.0) and s.started_at < to_timestamp(u.hi / 1000.0)`,
      [
        pending.map((w) => w.t.projectId),
        pending.map((w) => w.t.userId),
        pending.map((w) => w.lo - w.gap),
        pending.map((w) => w.hi + w.gap),
      ],
    );
    for (const w of pending) w.old = [];
    for (const { i, ...session } of rows) pending[i - 1]!.old.push(session);
    pending = pending.filter((w) => {
      const wider = Math.min(w.lo, ...w.old.map((s) => s.started));
      const higher = Math.max(w.hi, ...w.old.map((s) => s.ended));
      if (wider === w.lo && higher === w.hi) return false;
      [w.lo, w.hi] = [wider, higher];
      return true;
    });
  }
  const { rows: stored } = await client.query<{
    i: number;
    message_id: string;
    ts: number;
    rx: number;
    kafka_offset: number;
    event: string;
    properties: Record<string, unknown>;
  }>(
    `select u.i, e.message_id, (extract(epoch from e.occurred_at) * 1000)::bigint as ts,
            (extract(epoch from e.received_at) * 1000)::bigint as rx, e.kafka_offset, e.event, e.properties
     from unnest($1::uuid[], $2::text[], $3::bigint[], $4::bigint[]) with ordinality as u(project_id, user_id, lo, hi, i)
     join session_events e on e.project_id = u.project_id and e.user_id = u.user_id
       and e.occurred_at between to_timestamp(u.lo / 1000.0) and to_timestamp(u.hi / 1000.0)`,
    [
      windows.map((w) => w.t.projectId),
      windows.map((w) => w.t.userId),
      windows.map((w) => w.lo),
      windows.map((w) => w.hi),
    ],
  );
  const events = windows.map((): AnalyticsEvent[] => []);
  for (const e of stored) {
    events[e.i - 1]!.push({
      message_id: e.message_id,
      user_id: windows[e.i - 1]!.t.userId,
      event: e.event,
      timestamp: e.ts,
      received_at: e.rx,
      offset: e.kafka_offset,
      properties: e.properties,
    });
  }
  return windows.map((w, i) => {
    const config = configs.get(w.t.projectId)!;
    const fresh = splitSessions(events[i]!, w.gap, config.session.maxMs).map((s) => ({
      c: sessionContribution(s, config),
      receivedAt: s.events.reduce((latest, e) => Math.max(latest, e.received_at), 0),
    }));
    return { t: w.t, old: w.old, fresh };
  });
}

interface SessionWrites {
  removed: { projectId: string; sessionId: string }[];
  added: { projectId: string; userId: string; c: SessionContribution }[];
}

/** Replaces the changed sessions and their signals, a statement per table for the whole batch. */
async function writeSessions(client: PoolClient, writes: SessionWrites): Promise<void> {
  if (writes.removed.length > 0) {
    const keys = [writes.removed.map((r) => r.projectId), writes.removed.map((r) => r.sessionId)];
    for (const table of ['friction_signals', 'sessions']) {
      await client.query(
        `delete from ${table} t using unnest($1::uuid[], $2::text[]) as u(project_id, session_id)
         where t.project_id = u.project_id and t.session_id = u.session_id`,
        keys,
      );
    }
  }
  if (writes.added.length === 0) return;
  const added = writes.added;
  await client.query(
    `insert into sessions (project_id, session_id, user_id, day, started_at, ended_at, events, contribution)
     select u.project_id, u.session_id, u.user_id, u.day, to_timestamp(u.started / 1000.0), to_timestamp(u.ended / 1000.0),
            u.events, u.contribution
     from unnest($1::uuid[], $2::text[], $3::text[], $4::date[], $5::bigint[], $6::bigint[], $7::int[], $8::jsonb[])
       as u(project_id, session_id, user_id, day, started, ended, events, contribution)`,
    [
      added.map((a) => a.projectId),
      added.map((a) => a.c.session_id),
      added.map((a) => a.userId),
      added.map((a) => a.c.day),
      added.map((a) => a.c.started_at),
      added.map((a) => a.c.ended_at),
      added.map((a) => a.c.events),
      added.map((a) => JSON.stringify(a.c)),
    ],
  );
  const signals = added.flatMap((a) =>
    a.c.signals.map((sig) => ({ ...sig, project_id: a.projectId, session_id: a.c.session_id, user_id: a.userId })),
  );
  if (signals.length === 0) return;
  await client.query(
    `insert into friction_signals (project_id, signal_id, session_id, user_id, kind, page, element, at, count, timings_ms, message_ids)
     select (s->>'project_id')::uuid, s->>'signal_id', s->>'session_id', s->>'user_id', s->>'kind', s->>'page', s->>'element',
            to_timestamp((s->>'at')::bigint / 1000.0), (s->>'count')::int,
            array(select jsonb_array_elements_text(s->'timings_ms'))::double precision[],
            array(select jsonb_array_elements_text(s->'message_ids'))
     from jsonb_array_elements($1::jsonb) s`,
    [JSON.stringify(signals)],
  );
}

/**
 * First sighting / first use of each touched (user, feature), over all the user's sessions. Each
 * session's feature list is expanded once (materialized), not once per touched feature of its user.
 */
async function refreshFeatureUsers(
  client: PoolClient,
  pairs: { projectId: string; userId: string; feature: string }[],
): Promise<void> {
  if (pairs.length === 0) return;
  const params = [pairs.map((p) => p.projectId), pairs.map((p) => p.userId), pairs.map((p) => p.feature)];
  await client.query(
    `delete from feature_users f using unnest($1::uuid[], $2::text[], $3::text[]) as u(project_id, user_id, feature)
     where f.project_id = u.project_id and f.user_id = u.user_id and f.feature = u.feature`,
    params,
  );
  await client.query(
    `with f as materialized (
       select s.project_id, s.user_id, s.session_id, f.value as facts
       from (select distinct project_id, user_id from unnest($1::uuid[], $2::text[]) as p(project_id, user_id)) p
       join sessions s on s.project_id = p.project_id and s.user_id = p.user_id
       cross join lateral jsonb_array_elements(s.contribution->'features') f
     )
     insert into feature_users (project_id, feature, user_id, first_seen_at, first_used_at, first_use_source)
     select u.project_id, u.feature, u.user_id,
            to_timestamp(min((f.facts->>'first_seen_at')::bigint) / 1000.0),
            to_timestamp(min((f.facts->>'first_used_at')::bigint) / 1000.0),
            (array_agg(f.facts->>'first_use_source' order by (f.facts->>'first_used_at')::bigint nulls last, f.session_id))[1]
     from unnest($1::uuid[], $2::text[], $3::text[]) as u(project_id, user_id, feature)
     join f on f.project_id = u.project_id and f.user_id = u.user_id and f.facts->>'feature' = u.feature
     group by u.project_id, u.user_id, u.feature`,
    params,
  );
}

/** The touched users' rows of user_metrics (cohort criteria are evaluated over them), in one statement. */
async function refreshUserMetrics(
  client: PoolClient,
  users: Touched[],
  configs: Map<string, AnalyticsConfig>,
): Promise<void> {
  const { rows: friction } = await client.query<FrictionTotals & { project_id: string; user_id: string }>(
    `select f.* from user_friction f join unnest($1::uuid[], $2::text[]) as u(project_id, user_id)
       on f.project_id = u.project_id and f.user_id = u.user_id`,
    [users.map((u) => u.projectId), users.map((u) => u.userId)],
  );
  const index = new Map(
    friction.map((f) => [`${f.project_id}\u0000${f.user_id}`, frictionIndex(f, configs.get(f.project_id)!.weights)]),
  );
  await client.query(
    `insert into user_metrics (project_id, user_id, events, days_active, sessions, features_used, avg_session_seconds,
                               friction_index, first_seen_at, last_seen_at)
     select u.project_id, u.user_id, coalesce(d.events, 0), coalesce(d.days, 0), coalesce(d.sessions, 0),
            (select count(*) from feature_users f
             where f.project_id = u.project_id and f.user_id = u.user_id and f.first_used_at is not null),
            case when d.sessions > 0 then d.duration_ms / 1000.0 / d.sessions end,
            u.friction_index,
            (select min(started_at) from sessions s where s.project_id = u.project_id and s.user_id = u.user_id),
            (select max(ended_at) from sessions s where s.project_id = u.project_id and s.user_id = u.user_id)
     from unnest($1::uuid[], $2::text[], $3::float8[]) as u(project_id, user_id, friction_index)
     left join lateral (
       select sum(events)::int as events, count(*)::int as days, sum(sessions)::int as sessions, sum(duration_ms) as duration_ms
       from user_daily where project_id = u.project_id and user_id = u.user_id
     ) d on true
     on conflict (project_id, user_id) do update set
       events = excluded.events, days_active = excluded.days_active, sessions = excluded.sessions,
       features_used = excluded.features_used, avg_session_seconds = excluded.avg_session_seconds,
       friction_index = excluded.friction_index, first_seen_at = excluded.first_seen_at, last_seen_at = excluded.last_seen_at`,
    [
      users.map((u) => u.projectId),
      users.map((u) => u.userId),
      users.map((u) => index.get(`${u.projectId}\u0000${u.userId}`) ?? null),
    ],
  );
}
