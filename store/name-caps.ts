import { ESTABLISHED_DAYS, type NameKind } from '../domain/name-caps.js';
import type { Pool, PoolClient } from '../lib/db.js';

/**
 * Statements on `name_admissions` and `name_folds` (docs/adr/0089-name-caps.md): the names admitted
 * under a project's daily caps, and the events whose names were folded beyond them.
 */

/** A name of a project's day. */
export interface DayName {
  projectId: string;
  day: string;
  kind: NameKind;
  name: string;
}

/** The indexes (0-based) of the names admitted on their day or in the ESTABLISHED_DAYS before. */
export async function knownNames(client: PoolClient, names: DayName[]): Promise<number[]> {
  const { rows } = await client.query<{ i: number }>(
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
  return rows.map((r) => r.i - 1);
}

/**
 * Serialises admissions to the groups (project, day, kind) until commit, so that batches of several
 * partitions admitting at once never pass a cap together. Taken in one statement in hash order,
 * after the users' locks and before any shared row (store/README.md): only this step takes them.
 */
export async function lockNameGroups(client: PoolClient, groups: Omit<DayName, 'name'>[]): Promise<void> {
  await client.query(
    `select pg_advisory_xact_lock(h) from (
       select distinct hashtextextended('names:' || k, 0) as h from unnest($1::text[]) k order by 1) s`,
    [groups.map((g) => `${g.projectId}:${g.day}:${g.kind}`)],
  );
}

/** How many names each (project, day, kind) of `groups` admitted, in their order. */
export async function admittedCounts(client: PoolClient, groups: Omit<DayName, 'name'>[]): Promise<number[]> {
  const { rows } = await client.query<{ n: number }>(
    `select (select count(*) from name_admissions a
             where a.project_id = g.project_id and a.day = g.day and a.kind = g.kind)::int as n
     from unnest($1::uuid[], $2::date[], $3::text[]) with ordinality as g(project_id, day, kind, i) order by g.i`,
    [groups.map((k) => k.projectId), groups.map((k) => k.day), groups.map((k) => k.kind)],
  );
  return rows.map((r) => r.n);
}

/** Records the names as admitted on their day (the caller sorts them: rows in key order). */
export async function admitNames(client: PoolClient, names: DayName[]): Promise<void> {
  await client.query(
    `insert into name_admissions (project_id, kind, name, day)
     select * from unnest($1::uuid[], $2::text[], $3::text[], $4::date[]) on conflict do nothing`,
    [names.map((n) => n.projectId), names.map((n) => n.kind), names.map((n) => n.name), names.map((n) => n.day)],
  );
}

/** Adds folded events per (project, day, kind) (the caller sorts them: rows in key order). */
export async function addFolds(
  client: PoolClient,
  folds: (Omit<DayName, 'name'> & { events: number })[],
): Promise<void> {
  await client.query(
    `insert into name_folds as f (project_id, day, kind, events)
     select * from unnest($1::uuid[], $2::date[], $3::text[], $4::int[])
     on conflict (project_id, day, kind) do update set events = f.events + excluded.events`,
    [folds.map((f) => f.projectId), folds.map((f) => f.day), folds.map((f) => f.kind), folds.map((f) => f.events)],
  );
}

/** Per day (today first, `days` of them) and kind: the names admitted and the events folded. */
export async function nameCapDays(
  db: Pool,
  projectId: string,
  days: number,
  kinds: readonly NameKind[],
): Promise<{ day: string; kind: NameKind; admitted: number; folded: number }[]> {
  const { rows } = await db.query<{ day: string; kind: NameKind; admitted: number; folded: number }>(
    `with days as (select (current_date - g)::date as day from generate_series(0, $2 - 1) g),
          kinds as (select unnest($3::text[]) as kind)
     select to_char(d.day, 'YYYY-MM-DD') as day, k.kind,
            (select count(*) from name_admissions a
             where a.project_id = $1 and a.day = d.day and a.kind = k.kind)::int as admitted,
            coalesce((select f.events from name_folds f
                      where f.project_id = $1 and f.day = d.day and f.kind = k.kind), 0) as folded
     from days d cross join kinds k order by d.day desc, k.kind`,
    [projectId, days, kinds],
  );
  return rows;
}
