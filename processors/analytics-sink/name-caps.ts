import { ESTABLISHED_DAYS, NAME_CAPS, type NameKind, dayOf, folded, namesOf } from '../../domain/name-caps.js';
import type { PoolClient } from '../../lib/db.js';
import type { SessionChainRecord } from '../sessionize/record.js';

/** A name of a project's day, as the admissions table keys it. */
interface DayName {
  projectId: string;
  day: string;
  kind: NameKind;
  name: string;
}

const keyOf = (n: DayName) => `${n.projectId}\u0000${n.day}\u0000${n.kind}\u0000${n.name}`;
const groupOf = (n: DayName) => `${n.projectId}\u0000${n.day}\u0000${n.kind}`;

/**
 * The chains with the names beyond their project's daily caps folded (domain/name-caps.ts), before
 * they are stored: `name_admissions` keeps the names admitted per project, day and kind (kept across
 * replays, so a replay folds the same names), `name_folds` counts the events folded (GET
 * /v1/settings/name-caps). Names used in the week before are admitted without counting. Batches of
 * several partitions admitting at once may pass a cap by what they admit together.
 */
export async function capNames(client: PoolClient, chains: SessionChainRecord[]): Promise<SessionChainRecord[]> {
  const parsed = chains.map((chain) =>
    chain.sessions.map((s) =>
      s.events.map((e) => ({
        day: dayOf(Number(e.timestamp)),
        named: { event: e.event, properties: JSON.parse(e.properties) as Record<string, unknown> },
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
  await client.query(
    `insert into name_folds as f (project_id, day, kind, events)
     select * from unnest($1::uuid[], $2::date[], $3::text[], $4::int[])
     on conflict (project_id, day, kind) do update set events = f.events + excluded.events`,
    [
      counted.map((f) => f.n.projectId),
      counted.map((f) => f.n.day),
      counted.map((f) => f.n.kind),
      counted.map((f) => f.events),
    ],
  );
  return out;
}

/** The keys of the names admitted: known in the week before, admitted today, or new within the cap. */
async function admit(client: PoolClient, names: DayName[]): Promise<Set<string>> {
  const { rows: known } = await client.query<{ i: number }>(
    `select c.i from unnest($1::uuid[], $2::date[], $3::text[], $4::text[]) with ordinality as c(project_id, day, kind, name, i)
     where exists (select 1 from name_admissions a
                   where a.project_id = c.project_id and a.kind = c.kind and a.name = c.name
                     and a.day between c.day - $5::int and c.day)`,
    [
      names.map((n) => n.projectId),
      names.map((n) => n.day),
      names.map((n) => n.kind),
      names.map((n) => n.name),
      ESTABLISHED_DAYS,
    ],
  );
  const admitted = new Set(known.map((r) => keyOf(names[r.i - 1]!)));
  const fresh = names.filter((n) => !admitted.has(keyOf(n)));
  if (fresh.length === 0) return admitted;
  const groups = new Map<string, DayName[]>();
  for (const n of fresh) groups.set(groupOf(n), [...(groups.get(groupOf(n)) ?? []), n]);
  const keys = [...groups.values()].map((g) => g[0]!);
  const { rows: used } = await client.query<{ i: number; n: number }>(
    `select g.i, (select count(*) from name_admissions a
                  where a.project_id = g.project_id and a.day = g.day and a.kind = g.kind)::int as n
     from unnest($1::uuid[], $2::date[], $3::text[]) with ordinality as g(project_id, day, kind, i)`,
    [keys.map((k) => k.projectId), keys.map((k) => k.day), keys.map((k) => k.kind)],
  );
  const entering: DayName[] = [];
  for (const { i, n } of used) {
    const group = groups.get(groupOf(keys[i - 1]!))!.sort((a, b) => a.name.localeCompare(b.name));
    entering.push(...group.slice(0, Math.max(0, NAME_CAPS[keys[i - 1]!.kind] - n)));
  }
  if (entering.length === 0) return admitted;
  entering.sort((a, b) => keyOf(a).localeCompare(keyOf(b)));
  await client.query(
    `insert into name_admissions (project_id, kind, name, day)
     select * from unnest($1::uuid[], $2::text[], $3::text[], $4::date[]) on conflict do nothing`,
    [
      entering.map((n) => n.projectId),
      entering.map((n) => n.kind),
      entering.map((n) => n.name),
      entering.map((n) => n.day),
    ],
  );
  for (const n of entering) admitted.add(keyOf(n));
  return admitted;
}
