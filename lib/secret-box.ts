import crypto from 'node:crypto';

/**
 * Secrets at rest (webhook signing secrets, warehouse passwords): AES-256-GCM with a key from the
 * configuration (PI_SECRET_KEYS). A stored value reads `sealed:v1:<key id>:<base64 iv|tag|text>`;
 * the first configured key seals, every configured key opens, so keys rotate by putting a new one
 * first, re-sealing (`npm run secrets:rotate`) and then dropping the old one. The column the value
 * belongs in is bound in as associated data: a sealed value copied into another column does not open.
 */
export interface SecretKey {
  id: string;
  key: Buffer;
}

const PREFIX = 'sealed:v1:';
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** `id:base64key[,id:base64key…]` → keys, the sealing one first; a string names what is wrong. */
export function parseSecretKeys(text: string): SecretKey[] | string {
  const keys: SecretKey[] = [];
  for (const entry of text.split(',').map((e) => e.trim())) {
    const [id = '', encoded = ''] = entry.split(':');
    const key = Buffer.from(encoded, 'base64');
    if (!KEY_ID.test(id) || key.length !== 32 || entry.split(':').length !== 2) {
      return 'expected id:base64key[,id:base64key…], each key 32 bytes in base64, ids of letters, digits, _ or -';
    }
    if (keys.some((k) => k.id === id)) return `key id ${id} appears twice`;
    keys.push({ id, key });
  }
  return keys;
}

/** A new key in the configuration's format (`npm run secrets:rotate -- --new-key`, the local stack). */
export function newSecretKey(id: string): string {
  return `${id}:${crypto.randomBytes(32).toString('base64')}`;
}

export const isSealed = (stored: string): boolean => stored.startsWith(PREFIX);

/** What a sealed value is bound to (associated data): one name per kind of stored secret. */
export const SEALED = { webhookSecret: 'webhook signing secret', warehousePassword: 'warehouse password' } as const;

export class SecretBox {
  constructor(private readonly keys: SecretKey[]) {}

  /** Seals `plain` with the first key, bound to `column` (e.g. `webhook_subscriptions.secret`). */
  seal(plain: string, column: string): string {
    const key = this.keys[0];
    if (!key) throw new Error('no secret key is configured: set PI_SECRET_KEYS (docs/operations: secrets at rest)');
    const iv = crypto.randomBytes(IV_BYTES);
    const cipher = crypto.createCipheriv('aes-256-gcm', key.key, iv).setAAD(Buffer.from(column));
    const text = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${PREFIX}${key.id}:${Buffer.concat([iv, cipher.getAuthTag(), text]).toString('base64')}`;
  }

  /** The plain secret; throws when the key that sealed it is not configured or the value was altered. */
  open(stored: string, column: string): string {
    if (!isSealed(stored)) throw new Error(`${column} holds a secret that is not sealed: run npm run secrets:rotate`);
    const [id = '', encoded = ''] = stored.slice(PREFIX.length).split(':');
    const key = this.keys.find((k) => k.id === id);
    if (!key) throw new Error(`${column} was sealed with key ${id}, which is not configured (PI_SECRET_KEYS)`);
    const raw = Buffer.from(encoded, 'base64');
    const decipher = crypto.createDecipheriv('aes-256-gcm', key.key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(column)).setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  }

  /** True when `stored` is sealed with the sealing key already (rotation leaves it alone). */
  current(stored: string): boolean {
    return this.keys[0] !== undefined && stored.startsWith(`${PREFIX}${this.keys[0].id}:`);
  }
}
