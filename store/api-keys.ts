import crypto from 'node:crypto';
import type pg from 'pg';
import { type PageWindow, pageOf } from './pages.js';

export const SCOPES = ['events:write', 'analytics:read', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

export interface ResolvedKey {
  projectId: string;
  keyId: string;
  scopes: Scope[];
  rateLimitPerHour: number;
  /** Browser key: the only origins whose pages may use it (api/cors.ts); null = not a browser key. */
  allowedOrigins: string[] | null;
}

/** Requests per hour by tier; enterprise projects carry their own number. */
export const TIER_LIMITS = { standard: 1_000, pro: 10_000 } as const;

const KEY_PATTERN = /^pi_([a-z0-9]{16})_([A-Za-z0-9_-]{43})$/;

/** Keys carry 256 random bits, so a plain SHA-256 is a sufficient (and fast) stored hash. */
export function hashKey(key: string): Buffer {
  return crypto.createHash('sha256').update(key).digest();
}

export function generateKey(): { keyId: string; key: string } {
  const keyId = crypto.randomBytes(10).toString('hex').slice(0, 16);
  return { keyId, key: `pi_${keyId}_${crypto.randomBytes(32).toString('base64url')}` };
}

export function parseScopes(list: string): Scope[] {
  const scopes = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length > 0 || scopes.length === 0) {
    throw new Error(`scopes must be a comma-separated subset of ${SCOPES.join(', ')}; got "${list}"`);
  }
  return [...new Set(scopes)] as Scope[];
}

export async function createKey(
  db: pg.Pool | pg.PoolClient,
  projectId: string,
  scopes: Scope[],
  name = '',
  allowedOrigins: string[] | null = null,
): Promise<{ keyId: string; key: string }> {
  const generated = generateKey();
  await db.query(
    'insert into api_keys (project_id, key_id, secret_hash, name, scopes, allowed_origins) values ($1, $2, $3, $4, $5, $6)',
    [projectId, generated.keyId, hashKey(generated.key), name, scopes, allowedOrigins],
  );
  return generated;
}

/** The project and scopes of a live key, or undefined for an unknown, forged or revoked one. */
export async function resolveKey(db: pg.Pool, key: string): Promise<ResolvedKey | undefined> {
  const match = KEY_PATTERN.exec(key);
  if (!match) return undefined;
  const { rows } = await db.query<{
    project_id: string;
    secret_hash: Buffer;
    scopes: Scope[];
    rate_limit: number;
    allowed_origins: string[] | null;
  }>(
    `select k.project_id, k.secret_hash, k.scopes, k.allowed_origins,
            case p.rate_tier when 'standard' then $2::int when 'pro' then $3::int else p.rate_limit_per_hour end as rate_limit
     from api_keys k join projects p using (project_id)
     where k.key_id = $1 and k.revoked_at is null`,
    [match[1], TIER_LIMITS.standard, TIER_LIMITS.pro],
  );
  const row = rows[0];
  if (!row || !crypto.timingSafeEqual(row.secret_hash, hashKey(key))) return undefined;
  return {
    projectId: row.project_id,
    keyId: match[1]!,
    scopes: row.scopes,
    rateLimitPerHour: row.rate_limit,
    allowedOrigins: row.allowed_origins,
  };
}

/** NOTIFY channel of key revocations (payload: {"key_id"}); the stream closes the key's sockets. */
export const KEY_CHANGES_CHANNEL = 'pi_keys';

/**
 * Revokes a key of the project (idempotent: a second call keeps the first time) and announces it
 * on KEY_CHANGES_CHANNEL at commit. The time of revocation, or undefined for no such key.
 */
export async function revokeKey(db: pg.Pool, projectId: string, keyId: string): Promise<Date | undefined> {
  const { rows } = await db.query<{ revoked_at: Date }>(
    `with revoked as (
       update api_keys set revoked_at = coalesce(revoked_at, now())
       where project_id = $1 and key_id = $2 returning revoked_at)
     select revoked_at, pg_notify($3, json_build_object('key_id', $2::text)::text) from revoked`,
    [projectId, keyId, KEY_CHANGES_CHANNEL],
  );
  return rows[0]?.revoked_at;
}

/** Of the given key ids, those still live (not revoked). */
export async function liveKeys(db: pg.Pool, keyIds: string[]): Promise<Set<string>> {
  const { rows } = await db.query<{ key_id: string }>(
    'select key_id from api_keys where key_id = any($1) and revoked_at is null',
    [keyIds],
  );
  return new Set(rows.map((r) => r.key_id));
}

export async function ensureProject(db: pg.Pool | pg.PoolClient, name: string): Promise<string> {
  const { rows } = await db.query<{ project_id: string }>(
    `insert into projects (name) values ($1)
     on conflict (name) do update set name = excluded.name
     returning project_id`,
    [name],
  );
  return rows[0]!.project_id;
}

/**
 * Revokes, in the caller's transaction, the keys the member made and, along the keys' creators,
 * every key those made (an admin key a member minted may have minted more); each revocation is
 * announced at commit, so the keys' streams close. The ids revoked now.
 */
export async function revokeKeysMadeBy(db: pg.PoolClient, projectId: string, memberId: string): Promise<string[]> {
  const { rows } = await db.query<{ key_id: string }>(
    `with recursive made (key_id) as (
       select key_id from api_keys where project_id = $1 and created_by_member = $2
       union
       select k.key_id from api_keys k join made m on k.created_by_key = m.key_id where k.project_id = $1),
     revoked as (
       update api_keys k set revoked_at = now() from made m
       where k.project_id = $1 and k.key_id = m.key_id and k.revoked_at is null returning k.key_id)
     select key_id, pg_notify($3, json_build_object('key_id', key_id)::text) from revoked order by key_id`,
    [projectId, memberId, KEY_CHANGES_CHANNEL],
  );
  return rows.map((r) => r.key_id);
}

/** A key as Settings → API Keys lists it, with its creator's address while they are a member. */
export interface ListedKey {
  key_id: string;
  name: string;
  scopes: Scope[];
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
  allowed_origins: string[] | null;
  created_by_member: string | null;
  created_by_key: string | null;
  created_by_email: string | null;
}

/** Keys with their creator's address; `k.project_id = $1` selects the project's. */
const LISTED = {
  columns: `k.key_id, k.name, k.scopes, k.created_at, k.last_used_at, k.revoked_at, k.allowed_origins,
            k.created_by_member, k.created_by_key, u.email as created_by_email`,
  from: 'api_keys k left join console_users u on u.project_id = k.project_id and u.member_id = k.created_by_member',
};

/** Reads a page of the project's keys, newest first, and their total. */
export async function keyPage(db: pg.Pool, projectId: string, page: PageWindow) {
  return pageOf<ListedKey>(
    db,
    { ...LISTED, where: 'k.project_id = $1', order: 'k.created_at desc, k.key_id' },
    [projectId],
    page,
  );
}

/** Records who made a key: a console member, or (when no member) the calling key. */
export async function setKeyCreator(
  client: pg.PoolClient,
  projectId: string,
  keyId: string,
  creator: { member: string | null; key: string | null },
): Promise<void> {
  await client.query(
    'update api_keys set created_by_member = $3, created_by_key = $4 where project_id = $1 and key_id = $2',
    [projectId, keyId, creator.member, creator.key],
  );
}

/** Reads one key as listed. */
export async function listedKey(
  db: pg.Pool | pg.PoolClient,
  projectId: string,
  keyId: string,
): Promise<ListedKey | undefined> {
  const { rows } = await db.query<ListedKey>(
    `select ${LISTED.columns} from ${LISTED.from} where k.project_id = $1 and k.key_id = $2`,
    [projectId, keyId],
  );
  return rows[0];
}

/** Sets a key's last_used_at to now (the promise rejects when the write fails). */
export async function markKeyUsed(db: pg.Pool, keyId: string): Promise<void> {
  await db.query('update api_keys set last_used_at = now() where key_id = $1', [keyId]);
}
