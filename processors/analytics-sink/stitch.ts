import type { AnalyticsConfig } from '../../domain/analytics-config.js';
import type { AnalyticsEvent } from '../../domain/event.js';
import { IDENTIFY_EVENT } from '../../domain/identity.js';
import type { PoolClient } from '../../lib/db.js';
import { type IdentityLink, linksOf, stampMoves } from '../../store/identity-links.js';
import { moveMoments } from '../../store/moments.js';
import { lockUsers } from '../../store/locks.js';
import { anonymousSessions, eventsWithin, storedContributions } from '../../store/sessions.js';
import { type StoredEvent, anonymousEvents, moveSessionEvents } from '../../store/session-events.js';
import type { SessionChainRecord } from '../sessionize/record.js';
import type { SessionChange } from './resessionize.js';
import { keyOf } from './stored-events.js';

/**
 * Identity stitching in the analytics step (docs/adr/0078-identity-stitching.md).
 *
 * An anonymous id linked to a user (identify with `anonymous_id`, store/identity-links.ts) counts
 * as that user from then on: its chains are applied as the user's, and what was stored of it before
 * (its events, sessions, shares of the daily and answer tables, moments) moves into the user's in the
 * transaction that meets it. The API writes a marker (`IDENTIFY_EVENT`) under the anonymous id after
 * linking, so the step that owns the anonymous id's partition meets one after the anonymous id's
 * last events before sign-in; a later event of the anonymous id (a page that had not yet heard of the
 * sign-in) is applied as the user's too. The user's own partition may be another one, with the user's
 * chain held in another process: the link's `moved` stamp changes with each move, and a step holding
 * the user reads them back when it does (`userMarks`). Replaying pi.sessions.v1 meets the links
 * already made: every chain of a linked id is applied as its user's from the start, and the markers
 * find nothing left to move, so a replay gives the tables the live run ended with.
 */
export interface Stitched {
  /** The batch's chains with the markers left out and linked anonymous ids' chains under their user. */
  chains: SessionChainRecord[];
  /** Events of anonymous ids moved into their user now, as stored under the user. */
  moved: StoredEvent[];
  /** The anonymous ids' sessions, taken out of the tables (all old, none fresh). */
  takenOut: SessionChange[];
  /** The ids (user keys) whose rows moved now: no partition's state may advance them from memory. */
  users: Set<string>;
}

/**
 * Locks the batch's users, with the anonymous ids and users linked to them, in one statement (the
 * lock order), and moves into each user what is stored of the anonymous ids linked to them.
 */
export async function stitch(
  client: PoolClient,
  chains: SessionChainRecord[],
  configsOf: (projectIds: string[]) => Promise<Map<string, AnalyticsConfig>>,
): Promise<Stitched> {
  const ids = uniqueUsers(chains.map((c) => ({ projectId: c.project_id, id: c.user_id })));
  const links = await linksOf(client, ids);
  const userOf = new Map(links.map((l) => [keyOf(l.projectId, l.anonymousId), l.userId]));
  const stitched = chains.flatMap((chain): SessionChainRecord[] => {
    const sessions = chain.sessions
      .map((s) => ({ ...s, events: s.events.filter((e) => e.event !== IDENTIFY_EVENT) }))
      .filter((s) => s.events.length > 0);
    if (sessions.length === 0) return [];
    return [{ ...chain, user_id: userOf.get(keyOf(chain.project_id, chain.user_id)) ?? chain.user_id, sessions }];
  });
  await lockUsers(client, [
    ...stitched.map((c) => ({ projectId: c.project_id, userId: c.user_id })),
    ...links.flatMap((l) => [
      { projectId: l.projectId, userId: l.anonymousId },
      { projectId: l.projectId, userId: l.userId },
    ]),
  ]);
  if (links.length === 0) return { chains: stitched, moved: [], takenOut: [], users: new Set() };
  await stampMoves(client, links);
  const configs = await configsOf([...new Set(links.map((l) => l.projectId))].sort());
  const { moved, takenOut } = await moveStored(client, links, configs);
  const users = new Set(links.flatMap((l) => [keyOf(l.projectId, l.anonymousId), keyOf(l.projectId, l.userId)]));
  return { chains: stitched, moved, takenOut, users };
}

/** The chains' records of linked ids as their users' (the path of `replay --from`, which moves nothing). */
export async function asTheirUsers<R extends { project_id: string; user_id: string; event: string }>(
  client: PoolClient,
  records: R[],
): Promise<R[]> {
  const kept = records.filter((r) => r.event !== IDENTIFY_EVENT);
  const links = await linksOf(client, uniqueUsers(kept.map((r) => ({ projectId: r.project_id, id: r.user_id }))));
  const userOf = new Map(links.map((l) => [keyOf(l.projectId, l.anonymousId), l.userId]));
  return kept.map((r) => {
    const userId = userOf.get(keyOf(r.project_id, r.user_id));
    return userId === undefined ? r : { ...r, user_id: userId };
  });
}

function uniqueUsers(ids: { projectId: string; id: string }[]) {
  return [...new Map(ids.map((i) => [keyOf(i.projectId, i.id), i])).values()];
}

/**
 * Takes the anonymous ids' sessions out (their contributions computed again from their events, as
 * an erasure does) and moves their events and moments to their users: the caller splits the users
 * again with the moved events, in the same transaction and the same write of the shared rows.
 */
async function moveStored(
  client: PoolClient,
  links: IdentityLink[],
  configs: Map<string, AnalyticsConfig>,
): Promise<{ moved: StoredEvent[]; takenOut: SessionChange[] }> {
  const sessions = await anonymousSessions(client, links);
  if (sessions.length === 0) return { moved: [], takenOut: [] };
  const byUser = new Map<string, AnalyticsEvent[]>();
  for (const e of await anonymousEvents(client, links)) {
    const key = keyOf(e.project_id, e.user_id);
    if (!byUser.has(key)) byUser.set(key, []);
    byUser.get(key)!.push(e);
  }
  const contributions = await storedContributions(
    client,
    sessions,
    (s) => eventsWithin(byUser.get(keyOf(s.project_id, s.user_id)) ?? [])(s),
    configs,
  );
  const takenOut = new Map<string, SessionChange>();
  sessions.forEach((s, i) => {
    const key = keyOf(s.project_id, s.user_id);
    let change = takenOut.get(key);
    if (!change) {
      const t = { projectId: s.project_id, userId: s.user_id, min: s.started, max: s.ended };
      takenOut.set(key, (change = { t, old: [], fresh: [] }));
    }
    change.t.min = Math.min(change.t.min, s.started);
    change.t.max = Math.max(change.t.max, s.ended);
    change.old.push({ session_id: s.session_id, contribution: contributions[i]! });
  });
  // Moments keep their rows (announced once), now the user's.
  const moved = await moveSessionEvents(client, links);
  await moveMoments(client, links);
  return { moved, takenOut: [...takenOut.values()] };
}
