import type { Pool, PoolClient } from '../lib/db.js';
import { ServiceError } from '../lib/errors.js';
import { type EventOnWire, newUserKey, openEvent, refOfEvent, userRef } from '../domain/sealed-user.js';
import { type TrackedEventRecord, UUID } from '../domain/tracked-event.js';

type Db = Pool | PoolClient;

const pairKey = (projectId: string, ref: string) => `${projectId}\u0000${ref}`;

/** The projects' secrets for pseudonyms (they never change: callers may keep them). */
export async function pseudonymSecrets(db: Db, projectIds: string[]): Promise<Map<string, Buffer>> {
  const { rows } = await db.query<{ project_id: string; pseudonym_secret: Buffer }>(
    'select project_id, pseudonym_secret from projects where project_id = any($1::uuid[])',
    [projectIds],
  );
  return new Map(rows.map((r) => [r.project_id, r.pseudonym_secret]));
}

/** Secrets this process has read, by project id (ids are unique across databases). */
const knownSecrets = new Map<string, Buffer>();

export async function keptPseudonymSecrets(db: Db, projectIds: string[]): Promise<Map<string, Buffer>> {
  const unknown = projectIds.filter((id) => !knownSecrets.has(id));
  if (unknown.length > 0) for (const [id, secret] of await pseudonymSecrets(db, unknown)) knownSecrets.set(id, secret);
  return new Map(projectIds.flatMap((id) => (knownSecrets.has(id) ? [[id, knownSecrets.get(id)!]] : [])));
}

/** The user's pseudonym in the project. */
export async function userRefOf(db: Db, projectId: string, userId: string): Promise<string> {
  const secret = (await pseudonymSecrets(db, [projectId])).get(projectId);
  if (!secret) throw new Error(`no project ${projectId}`);
  return userRef(secret, userId);
}

/**
 * The keys of the project's users named by pseudonym, made for those who have none yet:
 * concurrent makers of one key agree on the one stored first.
 */
export async function ensureUserKeys(db: Db, projectId: string, refs: string[]): Promise<Map<string, Buffer>> {
  if (refs.length === 0) return new Map();
  const { keys } = await ensureUserKeysAt(db, projectId, refs);
  return new Map(refs.map((ref) => [ref, keys.get(pairKey(projectId, ref))!]));
}

/**
 * `ensureUserKeys`, keyed by `userKeyLookup`, with the database and epoch its first statement saw
 * (`keptOrFetched`).
 */
export async function ensureUserKeysAt(db: Db, projectId: string, refs: string[]): Promise<KeysAt> {
  const unique = [...new Set(refs)];
  const seen = await makeOrReadKeys(db, projectId, unique);
  // A key another statement inserts at the same time makes ours skip it (on conflict) without
  // seeing it (our snapshot is older): asked again, it is there.
  const unseen = (r: string) => !seen.keys.has(pairKey(projectId, r));
  for (let missing = unique.filter(unseen); missing.length > 0; missing = missing.filter(unseen)) {
    for (const [pair, key] of (await makeOrReadKeys(db, projectId, missing)).keys) seen.keys.set(pair, key);
  }
  return seen;
}

async function makeOrReadKeys(db: Db, projectId: string, unique: string[]): Promise<KeysAt> {
  const { rows } = await db.query<{ database_id: string; epoch: string; user_ref: string | null; key: Buffer | null }>(
    `with wanted as (select * from unnest($2::text[], $3::bytea[]) as w(user_ref, key)),
     made as (insert into user_keys (project_id, user_ref, key) select $1, user_ref, key from wanted
              on conflict (project_id, user_ref) do nothing returning user_ref, key),
     found as (select user_ref, key from made
               union all
               select k.user_ref, k.key from user_keys k join wanted w using (user_ref) where k.project_id = $1)
     select e.database_id, e.epoch::text, f.user_ref, f.key from user_key_epoch e left join found f on true`,
    [projectId, unique, unique.map(() => newUserKey())],
  );
  return keysAt(rows, (r) => pairKey(projectId, r.user_ref!));
}

/** A message no retry can open (altered or forged sealed bytes, a project id that is no uuid): a dead letter. */
export class UnopenableMessage extends ServiceError {
  constructor(message: string, cause?: unknown) {
    super('unopenable_message', message, { deadLetter: true, cause });
  }
}

/**
 * pi.events.v1 values as the processors know them, in the given order: undefined where the
 * user's key is gone (the user was erased), so the event is skipped, live or replayed; an
 * `UnopenableMessage` where the sealed bytes do not open with the key (altered or forged).
 */
export async function openEvents(
  db: Db,
  events: EventOnWire[],
): Promise<(TrackedEventRecord | undefined | UnopenableMessage)[]> {
  return (await openEventsKeyed(db, events)).opened;
}

/** A user's pseudonym and the key that seals their messages. */
export interface SealingKey {
  ref: string;
  key: Buffer;
}

/**
 * `openEvents`, with the pseudonym and key that opened each user's sealed events, keyed by
 * `userKeyLookup(projectId, userId)`: what seals what a processor writes of them in turn.
 */
export async function openEventsKeyed(
  db: Db,
  events: EventOnWire[],
): Promise<{ opened: (TrackedEventRecord | undefined | UnopenableMessage)[]; sealing: Map<string, SealingKey> }> {
  // Per event its user's lookup key (undefined for a plain event), and each user once: a batch
  // names its users once per event, and keys, checks and lookups per event were a tenth of the
  // processors' CPU under live traffic (docs/performance.md).
  const isUuid = new Map<string, boolean>();
  const users = new Map<string, UserRef>();
  const pairs = events.map((e): string | UnopenableMessage | undefined => {
    const ref = refOfEvent(e);
    if (ref === undefined) return undefined;
    let uuid = isUuid.get(e.project_id);
    if (uuid === undefined) isUuid.set(e.project_id, (uuid = UUID.test(e.project_id)));
    // A project id that is no uuid cannot be looked up (the statement would fail for the whole batch).
    if (!uuid) return new UnopenableMessage('project_id is not a uuid');
    const pair = pairKey(e.project_id, ref);
    if (!users.has(pair)) users.set(pair, { projectId: e.project_id, ref });
    return pair;
  });
  const keys = await userKeysOf(db, [...users.values()]);
  const sealing = new Map<string, SealingKey>();
  const opened = events.map((e, i) => {
    const pair = pairs[i];
    if (pair instanceof UnopenableMessage) return pair;
    const key = pair === undefined ? undefined : keys.get(pair);
    try {
      const record = openEvent(e, key);
      if (key && record) sealing.set(pairKey(e.project_id, record.user_id), { ref: users.get(pair!)!.ref, key });
      return record;
    } catch (err) {
      return new UnopenableMessage(`sealed value does not open: ${(err as Error).message}`, err);
    }
  });
  return { opened, sealing };
}

/** Keys a process keeps per database at most (about 100 bytes each); the oldest read go first. */
export const KEPT_KEYS = 200_000;

/** Per database: the erasure epoch the kept keys are valid for (migration 26), and the keys. */
const keptKeys = new Map<string, { epoch: string; keys: Map<string, Buffer> }>();

/** Keys as one statement saw them, with the database and erasure epoch they are valid for. */
export interface KeysAt {
  database: string;
  epoch: string;
  /** by `userKeyLookup(projectId, ref)` */
  keys: Map<string, Buffer>;
}

type UserRef = { projectId: string; ref: string };

/** The database and epoch this process saw last: most processes use one database. */
let lastSeen: string | undefined;

/**
 * The keys of `users`: those kept since an earlier statement, and those `fetch` brings of the
 * others. `fetch` must tell the database and epoch its statement saw: when they are the ones the
 * kept keys are valid for, one statement served; else (an erasure since, another database) the
 * kept keys are dropped and the users fetched again.
 */
export async function keptOrFetched(
  users: UserRef[],
  fetch: (users: UserRef[]) => Promise<KeysAt>,
): Promise<Map<string, Buffer>> {
  // Once per user: a batch names its users once per event.
  const unique = [...new Map(users.map((u) => [pairKey(u.projectId, u.ref), u])).values()];
  let assumed = lastSeen === undefined ? undefined : keptKeys.get(lastSeen);
  let keys: Map<string, Buffer>;
  for (let wanted = unique; ; wanted = unique.filter((u) => !keys.has(pairKey(u.projectId, u.ref)))) {
    const toFetch = assumed ? wanted.filter((u) => !assumed!.keys.has(pairKey(u.projectId, u.ref))) : wanted;
    const seen = await fetch(toFetch);
    lastSeen = seen.database;
    let kept = keptKeys.get(seen.database);
    if (kept?.epoch !== seen.epoch) {
      kept = { epoch: seen.epoch, keys: new Map() };
      keptKeys.set(seen.database, kept);
    }
    keys = kept.keys;
    for (const [pair, key] of seen.keys) {
      if (keys.size >= KEPT_KEYS) keys.delete(keys.keys().next().value!);
      keys.set(pair, key);
    }
    // Served if the statement saw every user, or saw the epoch the others were kept for.
    if (toFetch.length === unique.length || assumed === kept) break;
    assumed = kept;
  }
  return new Map(
    users.flatMap((u) => {
      const pair = pairKey(u.projectId, u.ref);
      const key = keys.get(pair);
      return key ? [[pair, key]] : [];
    }),
  );
}

/**
 * The stored keys of users named by project and pseudonym; erased users have none. Keys read
 * before are kept while no erasure happened since (the epoch), so each batch of a processor reads
 * only its new users' keys, in the statement that reads the epoch: the answer is the same as
 * reading them all now.
 */
export async function userKeysOf(db: Db, users: UserRef[]): Promise<Map<string, Buffer>> {
  if (users.length === 0) return new Map();
  return keptOrFetched(users, (toRead) => readKeysAt(db, toRead));
}

/** The epoch and, in the same snapshot, the stored keys of `users`. */
export async function readKeysAt(db: Db, users: UserRef[]): Promise<KeysAt> {
  const { rows } = await db.query<{
    database_id: string;
    epoch: string;
    project_id: string | null;
    user_ref: string | null;
    key: Buffer | null;
  }>(
    `select e.database_id, e.epoch::text, k.project_id, k.user_ref, k.key
     from user_key_epoch e
     left join (select k.* from user_keys k
                join unnest($1::uuid[], $2::text[]) as u(project_id, user_ref) using (project_id, user_ref)) k on true`,
    [users.map((u) => u.projectId), users.map((u) => u.ref)],
  );
  return keysAt(rows, (r) => pairKey(r.project_id!, r.user_ref!));
}

/** A statement's rows (the epoch's row joined to each key found, or to none) as `KeysAt`. */
function keysAt<R extends { database_id: string; epoch: string; key: Buffer | null }>(
  rows: R[],
  pairOf: (row: R) => string,
): KeysAt {
  return {
    database: rows[0]!.database_id,
    epoch: rows[0]!.epoch,
    keys: new Map(rows.flatMap((r) => (r.key ? [[pairOf(r), r.key]] : []))),
  };
}

/**
 * The pseudonyms and stored keys that seal messages of the given users (by user id), keyed by
 * `userKeyLookup(projectId, userId)`. A user without a key (erased) is missing, unless listed in
 * `makeFor`: users whose messages came in plain text (written before sealing) get one made.
 */
export async function sealingKeys(
  db: Db,
  users: { projectId: string; userId: string }[],
  makeFor: Set<string> = new Set(),
): Promise<Map<string, SealingKey>> {
  const secrets = await keptPseudonymSecrets(db, [...new Set(users.map((u) => u.projectId))]);
  const named = users.flatMap((u) => {
    const secret = secrets.get(u.projectId);
    return secret ? [{ ...u, ref: userRef(secret, u.userId) }] : [];
  });
  const keys = await userKeysOf(db, named);
  for (const u of named) {
    if (!keys.has(pairKey(u.projectId, u.ref)) && makeFor.has(pairKey(u.projectId, u.userId))) {
      const made = await ensureUserKeys(db, u.projectId, [u.ref]);
      keys.set(pairKey(u.projectId, u.ref), made.get(u.ref)!);
    }
  }
  const found = new Map<string, SealingKey>();
  for (const u of named) {
    const key = keys.get(pairKey(u.projectId, u.ref));
    if (key) found.set(pairKey(u.projectId, u.userId), { ref: u.ref, key });
  }
  return found;
}

/**
 * Forgets the user's key: every sealed copy of the user's messages stops naming them, and the
 * processors forget the keys they kept when the erasure commits.
 */
export async function shredUserKey(db: Db, projectId: string, userId: string): Promise<string> {
  const ref = await userRefOf(db, projectId, userId);
  await db.query('delete from user_keys where project_id = $1 and user_ref = $2', [projectId, ref]);
  await db.query('update user_key_epoch set epoch = epoch + 1');
  return ref;
}

export const userKeyLookup = pairKey;
