import crypto from 'node:crypto';
import sodium from 'sodium-native';
import type { TrackedEventRecord } from './tracked-event.js';

/**
 * Crypto-shredding of a user's data on Kafka (docs/adr/0045-erasure-through-kafka.md):
 * messages are keyed by a pseudonym, an HMAC of the user id with the project's secret, and what
 * names the user (the user id, free properties) travels sealed with a key of the user's own, kept
 * in Postgres. Erasing the user deletes the key: every copy of every message, replays and
 * backups of the topics included, stays readable as an event but no longer says whose it was.
 */

/** The user's pseudonym in Kafka keys and values: HMAC-SHA256 of the user id, 128 bits in hex. */
export function userRef(projectSecret: Buffer, userId: string): string {
  let refs = refsBySecret.get(projectSecret);
  if (!refs) refsBySecret.set(projectSecret, (refs = new Map<string, string>()));
  let ref = refs.get(userId);
  if (ref === undefined) {
    ref = crypto.createHmac('sha256', projectSecret).update(userId, 'utf8').digest('hex').slice(0, 32);
    if (refs.size >= KEPT_REFS_PER_SECRET) refs.clear();
    refs.set(userId, ref);
  }
  return ref;
}

/**
 * Pseudonyms made before, per secret (the buffer callers keep: `keptPseudonymSecrets`). The API
 * names each user of a request again, and an HMAC context per user was ~5 % of its CPU at a burst
 * (docs/performance.md). Emptied when full: a product's active users fit.
 */
const refsBySecret = new WeakMap<Buffer, Map<string, string>>();
const KEPT_REFS_PER_SECRET = 100_000;

export const USER_KEY_BYTES = 32;

export const newUserKey = (): Buffer => crypto.randomBytes(USER_KEY_BYTES);

/**
 * How values are sealed (docs/adr/0091-sealing-with-xchacha20-poly1305.md): XChaCha20-Poly1305 from
 * libsodium under a key derived from the user's, written `MARK | nonce | ciphertext | tag`. Node's
 * AES-256-GCM cost ~12 µs per value on this machine whatever its length (a cipher context per value
 * through OpenSSL 3), two thirds of the API's path; libsodium's one call costs ~2 µs, and opening
 * in the processors gains as much. Values sealed before (`iv | tag | ciphertext`, AES-256-GCM under
 * the user's key itself) still open.
 */
const MARK = Buffer.from('\u0000pi2', 'latin1');
const NONCE_BYTES = sodium.crypto_aead_xchacha20poly1305_ietf_NPUBBYTES;
const MAC_BYTES = sodium.crypto_aead_xchacha20poly1305_ietf_ABYTES;
const HEADER_BYTES = MARK.length + NONCE_BYTES;
/** The older values' layout (AES-256-GCM). */
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Keeps the sealing key apart from the user's key, which sealed the older values with AES-GCM. */
const SEALING_KEY_LABEL = Buffer.from('pi.sealed.xchacha20poly1305', 'latin1');
/** Derived keys, per user key: callers keep their keys (`userKeysOf`), so each is derived once. */
const sealingKeys = new WeakMap<Buffer, Buffer>();
function sealingKey(key: Buffer): Buffer {
  let derived = sealingKeys.get(key);
  if (!derived) {
    derived = Buffer.alloc(32);
    sodium.crypto_generichash(derived, SEALING_KEY_LABEL, key);
    sealingKeys.set(key, derived);
  }
  return derived;
}

/**
 * Random nonces taken from a pool refilled 4,096 at a time: one call to the system's CSPRNG per
 * refill instead of one per sealed message (it was the API's largest single cost at a burst).
 * 192 random bits: no two values of a key meet however many are sealed.
 */
const noncePool = Buffer.alloc(NONCE_BYTES * 4096);
let nonceNext = noncePool.length;
function writeNonce(into: Buffer, at: number): void {
  if (nonceNext === noncePool.length) {
    crypto.randomFillSync(noncePool);
    nonceNext = 0;
  }
  noncePool.copy(into, at, nonceNext, nonceNext + NONCE_BYTES);
  nonceNext += NONCE_BYTES;
}

/**
 * Values this process sealed or opened a moment ago, each kept until its next opening. The
 * processors open every event twice (the raw sink, then sessionize) and, where the analytics sink
 * runs beside sessionize (`npm start -- --analytics 0`), open there the chain sessionize sealed just
 * before: decryption and JSON for each were a quarter of their CPU. An entry is found by the key,
 * the context and the nonce, and taken only when the sealed bytes are the same, so it is what
 * opening those bytes gives. The oldest go first beyond the budget (a consumer far behind the other then
 * opens for itself).
 */
class RecentlyOpened {
  private readonly entries = new Map<string, Kept>();
  /**
   * The entries in the order they were kept, from `front` on; forgotten ones linger (`dropForgotten`).
   * Evicting by iterating `entries` from its start cost a walk over every slot deleted since the
   * map last rehashed: with the budget full, each keep scanned thousands (docs/performance.md).
   */
  private order: Kept[] = [];
  private front = 0;
  private bytes = 0;

  constructor(private readonly budgetBytes: number) {}

  /**
   * Short, so that hashing it stays cheap (a chain's sealed bytes run to hundreds of KB): the first
   * 28 bytes are the mark and the nonce (an older value's IV and tag), random per value.
   */
  static id(key: Buffer, context: string, sealed: Buffer): string {
    return `${key.toString('latin1')}${sealed.toString('latin1', 0, HEADER_BYTES)}${context}`;
  }

  keep(id: string, sealed: Buffer, value: unknown): void {
    if (this.entries.has(id)) return;
    const entry = { id, sealed, value };
    this.entries.set(id, entry);
    this.order.push(entry);
    this.bytes += sealed.length;
    while (this.bytes > this.budgetBytes) this.forget(this.order[this.front++]!);
    this.dropForgotten();
  }

  /** The value kept for these bytes, forgotten now: the processors open each value twice at most. */
  take(id: string, sealed: Buffer): unknown {
    const entry = this.entries.get(id);
    if (!entry?.sealed.equals(sealed)) return undefined;
    this.forget(entry);
    return entry.value;
  }

  private forget(entry: Kept): void {
    if (this.entries.get(entry.id) !== entry) return;
    this.entries.delete(entry.id);
    this.bytes -= entry.sealed.length;
  }

  /** Forgotten entries stay in `order` until they outnumber the kept ones; then it is rebuilt. */
  private dropForgotten(): void {
    if (this.order.length <= 2 * this.entries.size + 1024) return;
    this.order = this.order.slice(this.front).filter((e) => this.entries.get(e.id) === e);
    this.front = 0;
  }
}

interface Kept {
  id: string;
  sealed: Buffer;
  value: unknown;
}

let recentlyOpened: RecentlyOpened | undefined;

/**
 * From now on this process keeps what it opens, and what it seals unless `keepSealed` is false,
 * until the next opening of the same bytes (`budgetBytes` of sealed bytes at most, as many again in
 * values). For the processors only: a process that opens each value once would only pay for
 * keeping it, and sealed chains are opened again only where the analytics sink runs beside sessionize.
 */
export function keepOpenedValues(budgetBytes = 16 * 1024 * 1024, keepSealed = true): void {
  recentlyOpened = new RecentlyOpened(budgetBytes);
  keepsSealed = keepSealed;
}

/** Whether what this process seals is kept too: not where no step of the process opens it again. */
let keepsSealed = true;

/**
 * XChaCha20-Poly1305 of the JSON text of `value` (`MARK` above). `context` (the project and the
 * pseudonym) is bound in, so a sealed value moved onto another user's message does not open.
 * `value` must be plain JSON data (what JSON.parse of its text gives back): it may be kept as
 * the value those bytes open to.
 */
export function sealValue(key: Buffer, context: string, value: unknown): Buffer {
  const text = Buffer.from(JSON.stringify(value), 'utf8');
  const sealed = Buffer.allocUnsafe(HEADER_BYTES + text.length + MAC_BYTES);
  MARK.copy(sealed, 0);
  writeNonce(sealed, MARK.length);
  sodium.crypto_aead_xchacha20poly1305_ietf_encrypt(
    sealed.subarray(HEADER_BYTES),
    text,
    Buffer.from(context),
    null,
    sealed.subarray(MARK.length, HEADER_BYTES),
    sealingKey(key),
  );
  if (keepsSealed) recentlyOpened?.keep(RecentlyOpened.id(key, context, sealed), sealed, value);
  return sealed;
}

/**
 * The value `sealValue` sealed; throws when the key, the context or the bytes do not match. The
 * value may be shared with another opener of the same bytes: callers do not change it.
 */
export function openValue(key: Buffer, context: string, sealed: Buffer): unknown {
  const kept = recentlyOpened;
  if (!kept) return decrypt(key, context, sealed);
  const id = RecentlyOpened.id(key, context, sealed);
  const taken = kept.take(id, sealed);
  if (taken !== undefined) return taken;
  const value = decrypt(key, context, sealed);
  // A copy: the bytes of a Kafka message are a view of its whole fetch, which keeping would hold on to.
  kept.keep(id, Buffer.from(sealed), value);
  return value;
}

function decrypt(key: Buffer, context: string, sealed: Buffer): unknown {
  const text = isMarked(sealed) ? openSealed(key, context, sealed) : undefined;
  // Unmarked, or an older value whose random IV happens to begin with the mark (1 in 2^32).
  return JSON.parse((text ?? openOlder(key, context, sealed)).toString('utf8')) as unknown;
}

const isMarked = (sealed: Buffer): boolean =>
  sealed.length >= HEADER_BYTES + MAC_BYTES && sealed.compare(MARK, 0, MARK.length, 0, MARK.length) === 0;

/** The plain text of a marked value, or undefined when it does not authenticate. */
function openSealed(key: Buffer, context: string, sealed: Buffer): Buffer | undefined {
  const text = Buffer.allocUnsafe(sealed.length - HEADER_BYTES - MAC_BYTES);
  try {
    sodium.crypto_aead_xchacha20poly1305_ietf_decrypt(
      text,
      null,
      sealed.subarray(HEADER_BYTES),
      Buffer.from(context),
      sealed.subarray(MARK.length, HEADER_BYTES),
      sealingKey(key),
    );
    return text;
  } catch {
    return undefined;
  }
}

/** A value sealed with AES-256-GCM under the user's key; throws when it does not authenticate. */
function openOlder(key: Buffer, context: string, sealed: Buffer): Buffer {
  const decipher = crypto.createDecipheriv('aes-256-gcm', key, sealed.subarray(0, IV_BYTES));
  decipher.setAAD(Buffer.from(context)).setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
}

/**
 * A message id as the topics show it (docs/adr/0080-message-ids-sealed.md): SHA3-256 of the user's
 * key (in hex), a label and the id, 128 bits in hex. A repeat of the message gets the same one,
 * and once the key is gone (erased) nobody can tell which id it stood for, however guessable the
 * id. SHA-3 with the key in front is a MAC as it is (no length extension), and one hash call
 * costs a third of an HMAC's context on the ingest path.
 */
export function messageRef(key: Buffer, messageId: string): string {
  return crypto.hash('sha3-256', `${key.toString('hex')}${MESSAGE_REF_LABEL}${messageId}`, 'hex').slice(0, 32);
}

/** Keeps these hashes apart from any other use of the user's key. */
const MESSAGE_REF_LABEL = 'pi.message_ref\u0000';

/** pi.events.v1 sealed for its user (schemas/avro/pi.events.v1.avsc). */
export interface SealedEventRecord extends Omit<TrackedEventRecord, 'user_id' | 'properties' | 'message_id'> {
  user_ref: string;
  /** `messageRef` of the message id, which is sealed; empty in messages sealed before message ids were */
  message_ref?: string;
  /** Those messages' id, in the clear; empty (the schema's default) where `message_ref` is set. */
  message_id?: string;
  /** `{ user_id, properties, message_id }` sealed with the user's key (no `message_id` where it is in the clear) */
  sealed: Buffer;
}

/** What a consumer of pi.events.v1 decodes: sealed, or plain as written before sealing. */
export type EventOnWire = SealedEventRecord | TrackedEventRecord;

export const isSealedEvent = (e: EventOnWire): e is SealedEventRecord => 'user_ref' in e && e.user_ref !== '';

/** Whose key opens the message: the pseudonym, or undefined for a plain (older) message. */
export const refOfEvent = (e: EventOnWire): string | undefined => (isSealedEvent(e) ? e.user_ref : undefined);

export function sealEvent(record: TrackedEventRecord, ref: string, key: Buffer): SealedEventRecord {
  // Named field by field: an object spread here cost more than sealing the value (V8, Node 20).
  const { user_id, properties, message_id } = record;
  return {
    project_id: record.project_id,
    event: record.event,
    timestamp: record.timestamp,
    received_at: record.received_at,
    message_ref: messageRef(key, message_id),
    user_ref: ref,
    sealed: sealValue(key, `${record.project_id}:${ref}`, { user_id, properties, message_id }),
  };
}

/**
 * The event as the processors know it; undefined when the user's key is gone (erased): the
 * event is then skipped, live or replayed. A plain message from before sealing passes as it is,
 * one sealed before message ids were keeps its id from the clear.
 */
export function openEvent(e: EventOnWire, key: Buffer | undefined): TrackedEventRecord | undefined {
  if (!isSealedEvent(e)) {
    // A producer of the current schema that did not seal leaves neither a pseudonym nor a user.
    if (typeof e.user_id !== 'string') throw new Error('neither sealed (user_ref) nor plain (user_id)');
    return e;
  }
  if (!key) return undefined;
  const opened = openValue(key, `${e.project_id}:${e.user_ref}`, e.sealed) as {
    user_id: string;
    properties: string;
    message_id?: string;
  };
  const messageId = e.message_ref ? opened.message_id : e.message_id;
  if (typeof messageId !== 'string' || messageId === '') {
    throw new Error(e.message_ref ? 'message_ref without a sealed message id' : 'no message id, sealed or clear');
  }
  return {
    project_id: e.project_id,
    message_id: messageId,
    user_id: opened.user_id,
    event: e.event,
    timestamp: e.timestamp,
    received_at: e.received_at,
    properties: opened.properties,
  };
}
