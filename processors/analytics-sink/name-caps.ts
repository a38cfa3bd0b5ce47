import { NAME_CAPS, dayOf, folded, namesOf } from '../../domain/name-caps.js';
import type { PoolClient } from '../../lib/db.js';
import type { SessionChainRecord } from '../sessionize/record.js';
import {
  type DayName,
  addFolds,
  admitNames,
  admittedCounts,
  knownNames,
  lockNameGroups,
} from '../../store/name-caps.js';
import { propertiesOf } from './parsed-properties.js';

const keyOf = (n: DayName) => `${n.projectId}\u0000${n.day}\u0000${n.kind}\u0000${n.name}`;
const groupOf = (n: DayName) => `${n.projectId}\u0000${n.day}\u0000${n.kind}`;

/**
 * The chains with the names beyond their project's daily caps folded (domain/name-caps.ts), before
 * they are stored: `name_admissions` keeps the names admitted per project, day and kind (kept across
 * replays, so a replay folds the same names), `name_folds` counts the events folded (GET
 * /v1/settings/name-caps). Names used in the week before are admitted without counting. Batches of
 * several partitions admit one at a time per project, day and kind (`lockNameGroups`).
 */
export async function capNames(client: PoolClient, chains: SessionChainRecord[]): Promise<SessionChainRecord[]> {
  const parsed = chains.map((chain) =>
    chain.sessions.map((s) =>
      s.events.map((e) => ({
        day: dayOf(Number(e.timestamp)),
        named: { event: e.event, properties: propertiesOf(e) },
      })),
    ),
  );
  const candidates = new Map<string, DayName>();
  chains.forEach((chain, c) =>
    parsed[c]!.flat().forEach(({ day, named }) => {
      for (const { kind, name } of namesOf(named)) {
        const n = { projectId: chain.project_id, day, kind, name };
        candidates.set(keyOf(n), n);
      }
    }),
  );
  if (candidates.size === 0) return chains;
  const admitted = await admit(client, [...candidates.values()]);
  if (admitted.size === candidates.size) return chains;

  const folds = new Map<string, { n: DayName; events: number }>();
  const out = chains.map((chain, c) => ({
    ...chain,
    sessions: chain.sessions.map((s, i) => ({
      ...s,
      events: s.events.map((e, j) => {
        const { day, named } = parsed[c]![i]![j]!;
        const { event, kinds } = folded(named, (kind, name) =>
          admitted.has(keyOf({ projectId: chain.project_id, day, kind, name })),
        );
        if (kinds.length === 0) return e;
        for (const kind of kinds) {
          const n = { projectId: chain.project_id, day, kind, name: '' };
          const fold = folds.get(groupOf(n)) ?? { n, events: 0 };
          fold.events++;
          folds.set(groupOf(n), fold);
        }
        return { ...e, event: event.event, properties: JSON.stringify(event.properties) };
      }),
    })),
  }));
  const counted = [...folds.values()].sort((a, b) => groupOf(a.n).localeCompare(groupOf(b.n)));
  await addFolds(
    client,
    counted.map((f) => ({ projectId: f.n.projectId, day: f.n.day, kind: f.n.kind, events: f.events })),
  );
  return out;
}

/** The keys of the names admitted: known in the week before, admitted today, or new within the cap. */
async function admit(client: PoolClient, names: DayName[]): Promise<Set<string>> {
  const admitted = new Set((await knownNames(client, names)).map((i) => keyOf(names[i]!)));
  const fresh = names.filter((n) => !admitted.has(keyOf(n)));
  if (fresh.length === 0) return admitted;
  const groups = new Map<string, DayName[]>();
  for (const n of fresh) groups.set(groupOf(n), [...(groups.get(groupOf(n)) ?? []), n]);
  const firsts = [...groups.values()].map((g) => g[0]!);
  await lockNameGroups(client, firsts);
  // Admitted meanwhile by a batch that held the lock: known now, and counted.
  for (const i of await knownNames(client, fresh)) admitted.add(keyOf(fresh[i]!));
  const used = await admittedCounts(client, firsts);
  const entering = firsts.flatMap((first, i) =>
    groups
      .get(groupOf(first))!
      .filter((n) => !admitted.has(keyOf(n)))
      .sort((a, b) => a.name.localeCompare(b.name))
      .slice(0, Math.max(0, NAME_CAPS[first.kind] - used[i]!)),
  );
  if (entering.length === 0) return admitted;
  await admitNames(
    client,
    entering.sort((a, b) => keyOf(a).localeCompare(keyOf(b))),
  );
  for (const n of entering) admitted.add(keyOf(n));
  return admitted;
}
