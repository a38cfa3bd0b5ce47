import type { PoolClient } from '../lib/db.js';

/**
 * Statements on `identity_links` (docs/adr/0078-identity-stitching.md): an anonymous id linked to
 * the user it turned out to be. The API links (identify with `anonymous_id`), the analytics sink
 * reads the links of a batch's users and moves the anonymous id's rows into the user's, and an
 * erasure of the person deletes them with every id they link.
 */

export interface IdentityLink {
  projectId: string;
  anonymousId: string;
  userId: string;
}

/** Why a link is refused: the anonymous id already belongs to another person, or is a person itself. */
export type LinkRefusal = 'linked_to_another_user' | 'identified_user' | 'linked_anonymous_id';

/**
 * Links `anonymousId` to `userId` under the rules of docs/metrics.md ("One person"): an anonymous
 * id merges into one user only; an identified user (one identified by that id, or one other ids
 * link to) is never merged into another; a user id that is itself a linked anonymous id takes no
 * links (links stay one step long). The caller holds both users' locks. Linking again is harmless.
 */
export async function linkAnonymousId(
  client: PoolClient,
  link: IdentityLink,
): Promise<{ refused?: LinkRefusal; linkedTo?: string }> {
  const { rows } = await client.query<{ linked_to: string | null; identified: boolean; is_alias: boolean }>(
    `select (select l.user_id from identity_links l where l.project_id = $1 and l.anonymous_id = $2) as linked_to,
            exists (select 1 from users u where u.project_id = $1 and u.user_id = $2)
              or exists (select 1 from identity_links l where l.project_id = $1 and l.user_id = $2) as identified,
            exists (select 1 from identity_links l where l.project_id = $1 and l.anonymous_id = $3) as is_alias`,
    [link.projectId, link.anonymousId, link.userId],
  );
  const { linked_to, identified, is_alias } = rows[0]!;
  if (linked_to === link.userId) return {};
  if (linked_to !== null) return { refused: 'linked_to_another_user', linkedTo: linked_to };
  if (identified) return { refused: 'identified_user' };
  if (is_alias) return { refused: 'linked_anonymous_id' };
  await client.query('insert into identity_links (project_id, anonymous_id, user_id) values ($1, $2, $3)', [
    link.projectId,
    link.anonymousId,
    link.userId,
  ]);
  return {};
}

/** The links of those of `ids` (per project) that are linked anonymous ids. */
export async function linksOf(client: PoolClient, ids: { projectId: string; id: string }[]): Promise<IdentityLink[]> {
  if (ids.length === 0) return [];
  const { rows } = await client.query<{ project_id: string; anonymous_id: string; user_id: string }>(
    `select l.project_id, l.anonymous_id, l.user_id
     from unnest($1::uuid[], $2::text[]) as u(project_id, id)
     join identity_links l on l.project_id = u.project_id and l.anonymous_id = u.id`,
    [ids.map((i) => i.projectId), ids.map((i) => i.id)],
  );
  return rows.map((r) => ({ projectId: r.project_id, anonymousId: r.anonymous_id, userId: r.user_id }));
}

/**
 * Stamps the links whose anonymous id's rows move into their user now: a sink holding one of the
 * users in memory sees the stamp change and reads the user back (`movedStamps`).
 */
export async function stampMoves(client: PoolClient, links: IdentityLink[]): Promise<void> {
  if (links.length === 0) return;
  await client.query(
    `update identity_links l set moved = nextval('identity_moves')
     from unnest($1::uuid[], $2::text[]) as u(project_id, anonymous_id)
     where l.project_id = u.project_id and l.anonymous_id = u.anonymous_id`,
    [links.map((l) => l.projectId), links.map((l) => l.anonymousId)],
  );
}

/** Every id of the person `id` names (the user and the anonymous ids linked to them), the user first. */
export async function personIds(client: PoolClient, projectId: string, id: string): Promise<string[]> {
  const { rows } = await client.query<{ user_id: string }>(
    `select coalesce((select l.user_id from identity_links l where l.project_id = $1 and l.anonymous_id = $2), $2) as user_id`,
    [projectId, id],
  );
  const userId = rows[0]!.user_id;
  const { rows: linked } = await client.query<{ anonymous_id: string }>(
    'select anonymous_id from identity_links where project_id = $1 and user_id = $2 order by anonymous_id',
    [projectId, userId],
  );
  return [userId, ...linked.map((l) => l.anonymous_id)];
}

/** The links as statement rows `l(project_id, anonymous_id, user_id)` (`linkParams` gives $1–$3). */
export const LINKED = 'unnest($1::uuid[], $2::text[], $3::text[]) as l(project_id, anonymous_id, user_id)';
export const linkParams = (links: IdentityLink[]) => [
  links.map((l) => l.projectId),
  links.map((l) => l.anonymousId),
  links.map((l) => l.userId),
];

/**
 * What a held chain must be checked against, read under the users' locks: the users with an erasure
 * on record (their chains may hold events that must not count) and the `moved` stamps of users with
 * identity links (an anonymous id's rows moved into them by another partition: the analytics step's stitching).
 */
export async function userMarks(
  client: PoolClient,
  users: { projectId: string; userId: string }[],
): Promise<{ erased: Set<string>; moved: Map<string, number> }> {
  if (users.length === 0) return { erased: new Set(), moved: new Map() };
  const { rows } = await client.query<{ project_id: string; user_id: string; erased: boolean; moved: number | null }>(
    `select * from (
       select u.project_id, u.user_id,
              exists (select 1 from deleted_users d
                      where d.project_id = u.project_id and d.user_hash = sha256(convert_to(u.user_id, 'UTF8'))) as erased,
              (select max(l.moved) from identity_links l where l.project_id = u.project_id and l.user_id = u.user_id) as moved
       from unnest($1::uuid[], $2::text[]) as u(project_id, user_id)) m
     where erased or moved is not null`,
    [users.map((u) => u.projectId), users.map((u) => u.userId)],
  );
  return {
    erased: new Set(rows.filter((r) => r.erased).map((r) => `${r.project_id}\u0000${r.user_id}`)),
    moved: new Map(rows.flatMap((r) => (r.moved === null ? [] : [[`${r.project_id}\u0000${r.user_id}`, r.moved]]))),
  };
}
