import { firstOccurrences, type TrackedEventRecord } from '../../domain/tracked-event.js';
import type { PoolClient } from '../../lib/db.js';
import type { PostgresSink, Refusal, SinkMessage } from '../runtime/postgres-sink.js';
import { type ChainOnWire, type SessionChainRecord, isSealedChain, openChain } from '../sessionize/record.js';
import { userKeyLookup, userKeysOf } from '../../store/user-keys.js';
import { applyChanges } from './apply.js';
import { chainChanges } from './chain-changes.js';
import { KeyedChains } from './keyed-chains.js';
import type { AnalyticsEvent } from '../../domain/event.js';
import type { SessionContribution } from '../../domain/contribution/types.js';
import { resessionize } from './resessionize.js';
import { rebuiltBy } from '../../store/tables.js';
import { configsOf, eventsOf, keyOf, storeEvents, touchedBy } from './stored-events.js';
import { asTheirUsers, stitch } from './stitch.js';
import { capNames } from './name-caps.js';
import type { HeldChain } from './chain-changes.js';
import { projectAnalyticsConfigs } from '../../store/project-config.js';

/**
 * The keyed state of the sink in this process (per partition and user, their last chain with its
 * sessions' contributions): at most this many events. The bench's 10,000 users sending at once,
 * each a session of ~36 events, fit (~1.5 GB of the process at the bound); beyond it the users
 * stored least recently are let go, and read again when they come back.
 */
const held = new KeyedChains<AnalyticsEvent, SessionContribution>(600_000);

/**
 * pi.sessions.v1 → sessions, friction signals and the daily tables. The sessionize processor
 * sends, per user, the events new to their chain; the sink stores them and applies them to the
 * user's last chain it holds (keyed state, `KeyedChains`), whose sessions' contributions are what
 * is stored: the changed sessions' old contributions are subtracted and the new ones added, in
 * the transaction that moves the offsets, without reading the stored sessions back. A user it
 * does not hold, or whose new events reach before the held chain, has their sessions around the
 * new events split again from the stored events. Either way the tables depend only on the set of
 * events: late events of any lateness land where they belong, and a replay gives the same tables.
 */
export const analyticsSink: PostgresSink<ChainOnWire> = {
  name: 'analytics',
  topic: 'sessions',
  tables: rebuiltBy('analytics'),
  // A user's session, shares and metrics are written once per transaction: under a backlog, five
  // thousand chains carry ~3 events per session written where a thousand carried ~2.5, and a paced
  // load's backlog drained in 98–135 s against 131–154 s (docs/performance.md).
  chunk: 5000,
  async write(client, messages, { partition, from, to, isolated }) {
    held.validate(partition, from);
    const opened = await openChains(client, messages);
    // Linked anonymous ids' chains become their users', and what was stored of them moves (stitch.ts).
    const stitched = await stitch(client, opened.chains, (projects) => projectAnalyticsConfigs(client, projects));
    const { moved, takenOut, users } = stitched;
    // Names beyond their project's daily caps folded before anything keys a table by them.
    const chains = await capNames(client, stitched.chains);
    // The stitched users are held by no partition from here: their rows moved under another's feet.
    const forgetting = (remember: Map<string, HeldChain | null>) => {
      for (const user of users) remember.set(user, null);
      return remember;
    };
    const records = firstOccurrences(chains.flatMap(eventsOf));
    const rows = records.length === 0 ? [] : await storeEvents(client, records);
    const { refused } = opened;
    if (rows.length === 0 && moved.length === 0) {
      return { committed: () => held.commit(partition, to, forgetting(new Map())), refused };
    }
    const configs = await projectAnalyticsConfigs(
      client,
      [...new Set([...records, ...moved].map((r) => r.project_id))].sort(),
    );
    // Writes of one message each share a transaction: later ones must see what earlier ones
    // stored, which the held chains (changed only at commit) do not show.
    const { changes, remember } = await chainChanges(
      client,
      chains,
      rows,
      configs,
      (user) => (isolated ? undefined : held.get(partition, user)),
      moved,
    );
    const announced = new Set(moved.map((r) => keyOf(r.project_id, r.message_id)));
    await applyChanges(client, rows, [...changes, ...takenOut], configs, announced);
    return { committed: () => held.commit(partition, to, forgetting(remember)), refused };
  },
  moved: (partition, from, to) => held.moved(partition, from, to),
  open: () => held.clear(),
};

/**
 * The chains as the sink knows them: an erased user's (their key is gone) left out, one that does
 * not open with its user's key refused as a dead letter.
 */
async function openChains(
  client: PoolClient,
  messages: SinkMessage<ChainOnWire>[],
): Promise<{ chains: SessionChainRecord[]; refused: Refusal[] }> {
  const keys = await userKeysOf(
    client,
    messages.flatMap(({ value: c }) => (c && isSealedChain(c) ? [{ projectId: c.project_id, ref: c.user_ref }] : [])),
  );
  const refused: Refusal[] = [];
  const chains = messages.flatMap(({ value: c, offset }) => {
    if (!c) return [];
    try {
      const opened = openChain(c, isSealedChain(c) ? keys.get(userKeyLookup(c.project_id, c.user_ref)) : undefined);
      return opened ? [opened] : [];
    } catch (err) {
      refused.push({ offset, error: `sealed value does not open: ${(err as Error).message}` });
      return [];
    }
  });
  return { chains, refused };
}

/**
 * Raw events straight into the analytics tables, split again from the stored events: the path of
 * `replay --from`, which puts back the kept events of the sessions it took out.
 */
export async function applyEvents(client: PoolClient, messages: SinkMessage<TrackedEventRecord>[]): Promise<void> {
  const records = await asTheirUsers(
    client,
    firstOccurrences(messages.flatMap((m) => (m.value ? [{ ...m.value, offset: m.offset }] : []))),
  );
  if (records.length === 0) return;
  const rows = await storeEvents(client, records);
  const configs = await configsOf(client, records);
  const stored = new Set(rows.map((r) => keyOf(r.project_id, r.message_id)));
  await applyChanges(client, rows, await resessionize(client, touchedBy(rows), configs, stored), configs);
}
