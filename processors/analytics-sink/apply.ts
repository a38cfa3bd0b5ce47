import { insertFrictionAlerts, pageDayFacts } from '../../store/friction-alerts.js';
import type { AnalyticsConfig } from '../../domain/analytics-config.js';
import { featuresWithNewFirsts, grownSessions } from '../../domain/contribution/growth.js';
import { type PageDay, frictionAlert } from '../../domain/friction/alerts.js';
import type { PoolClient } from '../../lib/db.js';
import { yieldToLoop } from '../../lib/loop-watch.js';
import { perUserTable, sharedTable } from '../../store/additive-deltas.js';
import { type ChangedUser, answerTableShares, sharesUnmoved } from '../../store/answer-tables.js';
import { ContributionDeltas } from '../../store/contributions.js';
import { type TouchedFeature, refreshFeatureUsers } from '../../store/feature-users.js';
import { type SessionWrites, writeSessions } from '../../store/sessions.js';
import { recordConfigs } from '../../store/analytics-configs.js';
import { UserMetricsMoves } from '../../store/user-metrics.js';
import { recordFrictionEpisodes, recordInterventions, recordJobCompletions } from './moments.js';
import type { SessionChange } from './resessionize.js';
import type { StoredEvent } from '../../store/session-events.js';

/** Users' changes turned into rows between two turns of the event loop (`yieldToLoop`). */
const YIELD_EVERY_CHANGES = 250;

/**
 * Writes the changed sessions, their shares of the daily and answer tables, and the moments the
 * events stored now raise (alerts, friction episodes, interventions, job completions). `announced`:
 * events whose moments were raised before (an anonymous id's, moved into its user: stitch.ts).
 */
export async function applyChanges(
  client: PoolClient,
  rows: StoredEvent[],
  changes: SessionChange[],
  configs: Map<string, AnalyticsConfig>,
  announced: ReadonlySet<string> = new Set(),
): Promise<void> {
  const pageDays = new Map<string, PageDay>();
  const deltas = new ContributionDeltas();
  const features: TouchedFeature[] = [];
  const writes: SessionWrites = { removed: [], added: [] };
  const users: ChangedUser[] = [];
  const metrics = new UserMetricsMoves(configs);
  for (const [i, { t, old, fresh, newUser }] of changes.entries()) {
    if (i % YIELD_EVERY_CHANGES === YIELD_EVERY_CHANGES - 1) await yieldToLoop();
    // The change moves only sessions from the first day of those it removes or adds: what depends
    // on a user's sessions is read from that day (store/answer-tables.ts, store/feature-users.ts).
    const from = [...old.map((s) => s.contribution.day), ...fresh.map((f) => f.c.day)].sort()[0];
    const user = { projectId: t.projectId, userId: t.userId, ...(from === undefined ? {} : { from }) };
    const grown = grownSessions(
      old.map((s) => s.contribution),
      fresh.map((f) => f.c),
    );
    if (grown) for (const pair of grown) deltas.addGrowth(t.projectId, pair);
    else {
      for (const session of old) deltas.add(t.projectId, session.contribution, -1);
      for (const { c } of fresh) deltas.add(t.projectId, c, 1);
    }
    for (const session of old) {
      writes.removed.push({ projectId: t.projectId, c: session.contribution });
      metrics.session(t.projectId, session.contribution, -1);
    }
    for (const { c, receivedAt } of fresh) {
      metrics.session(t.projectId, c, 1);
      writes.added.push({ projectId: t.projectId, userId: t.userId, c, config: configs.get(t.projectId)! });
      for (const p of c.pages) {
        const key = `${t.projectId}\u0000${p.page}\u0000${c.day}`;
        const latest = Math.max(pageDays.get(key)?.receivedAt ?? 0, receivedAt);
        pageDays.set(key, { projectId: t.projectId, page: p.page, day: c.day, receivedAt: latest });
      }
    }
    // A grown session moves a user's first sighting or use of a feature only where its own did.
    const touchedFeatures = grown
      ? featuresWithNewFirsts(grown)
      : new Set(
          [...old.map((s) => s.contribution), ...fresh.map((f) => f.c)].flatMap((c) =>
            c.features.map((f) => f.feature),
          ),
        );
    for (const feature of touchedFeatures) features.push({ ...user, feature });
    users.push({
      ...user,
      unmoved: sharesUnmoved(grown),
      ...(grown ? { features: touchedFeatures } : {}),
      ...(newUser ? { unseen: true } : {}),
    });
  }
  users.sort((a, b) => a.projectId.localeCompare(b.projectId) || a.userId.localeCompare(b.userId));
  // Per-user rows first, under the users' locks; the shared rows (daily sums, answer tables,
  // alerts) last, in the lock order: a concurrent batch waits for them only until this one commits.
  const answerTables = await answerTableShares(client, users, async () => {
    // Sessions and per-user daily tables first: feature_users is read from the sessions, and the
    // metrics move by what the per-user tables and feature_users did.
    await recordConfigs(client, new Map(writes.added.map((a) => [a.projectId, a.config])));
    await writeSessions(client, writes);
    await deltas.apply(client, perUserTable, metrics.watch);
    metrics.featuresUsed(await refreshFeatureUsers(client, features));
    await metrics.write(client);
  });
  await recordFrictionEpisodes(client, writes.added, configs, announced);
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
  await deltas.apply(client, sharedTable);
  await answerTables.deltas.apply(client);
  // After the answer tables: the alerts count the page's users on friction_page_reach.
  await raiseAlerts(client, [...pageDays.values()], configs);
}

/**
 * One alert per page and day once the page's Friction Index that day reaches the threshold with
 * enough users affected. Alerts are moments, not state: a replay does not raise them again.
 */
async function raiseAlerts(client: PoolClient, pageDays: PageDay[], configs: Map<string, AnalyticsConfig>) {
  if (pageDays.length === 0) return;
  const now = Date.now();
  const alerts = (await pageDayFacts(client, pageDays)).flatMap((row) => {
    const pd = pageDays[row.i - 1]!;
    return frictionAlert(pd, row, row.users, configs.get(pd.projectId)!, now) ?? [];
  });
  if (alerts.length === 0) return;
  // In key order, as every shared row (see AdditiveDeltas.apply).
  alerts.sort(
    (a, b) => a.projectId.localeCompare(b.projectId) || a.page.localeCompare(b.page) || a.day.localeCompare(b.day),
  );
  await insertFrictionAlerts(client, alerts);
}
