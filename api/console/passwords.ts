import crypto from 'node:crypto';

/**
 * Console passwords, hashed with scrypt (node:crypto) and kept as a PHC string that carries its
 * own parameters and salt: "$scrypt$ln=15,r=8,p=3$<salt>$<hash>" (unpadded base64). Raising the
 * cost later only changes COST; older hashes still verify and are re-hashed at the next sign-in.
 *
 * N = 2^15, r = 8, p = 3 is one of OWASP's equivalent scrypt settings (as strong as N = 2^17, p = 1)
 * at a quarter of the memory: 32 MiB per hash, about 0.3–0.5 s on a 2-core machine.
 */
export interface ScryptCost {
  /** log2 of N, the CPU/memory cost */
  ln: number;
  r: number;
  p: number;
}

export const COST: ScryptCost = { ln: 15, r: 8, p: 3 };
export const SALT_BYTES = 16;
export const HASH_BYTES = 32;
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 256;

// A stored string outside these bounds is refused rather than run: a tampered row must not make
// the server allocate gigabytes or spin for minutes.
const LIMITS = { ln: [10, 18], r: [1, 16], p: [1, 16] } as const;

const PHC = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

function derive(password: string, salt: Buffer, cost: ScryptCost, length: number): Promise<Buffer> {
  const N = 2 ** cost.ln;
  return new Promise((resolve, reject) =>
    crypto.scrypt(
      password.normalize('NFKC'),
      salt,
      length,
      { N, r: cost.r, p: cost.p, maxmem: 256 * N * cost.r },
      (err, key) => (err ? reject(err) : resolve(key)),
    ),
  );
}

const b64 = (buf: Buffer) => buf.toString('base64').replace(/=+$/, '');

export async function hashPassword(password: string, cost: ScryptCost = COST): Promise<string> {
  const salt = crypto.randomBytes(SALT_BYTES);
  const hash = await derive(password, salt, cost, HASH_BYTES);
  return `$scrypt$ln=${cost.ln},r=${cost.r},p=${cost.p}$${b64(salt)}$${b64(hash)}`;
}

export interface ParsedHash {
  cost: ScryptCost;
  salt: Buffer;
  hash: Buffer;
}

/** The parameters, salt and hash of a stored string, or undefined when it is not one we accept. */
export function parseHash(stored: string): ParsedHash | undefined {
  const m = PHC.exec(stored);
  if (!m) return undefined;
  const cost = { ln: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  for (const key of ['ln', 'r', 'p'] as const) {
    const [min, max] = LIMITS[key];
    if (cost[key] < min || cost[key] > max) return undefined;
  }
  const salt = Buffer.from(m[4]!, 'base64');
  const hash = Buffer.from(m[5]!, 'base64');
  // scrypt's output is prefix-stable: a cut hash would still verify, with fewer bits. Only full ones count.
  if (salt.length < SALT_BYTES || hash.length !== HASH_BYTES) return undefined;
  return { cost, salt, hash };
}

/** Constant-time comparison; an unparseable stored string verifies nothing. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const candidate = await derive(password, parsed.salt, parsed.cost, parsed.hash.length);
  return crypto.timingSafeEqual(candidate, parsed.hash);
}

/** True when the stored hash is weaker than COST (re-hash it once the password is known). */
export function needsRehash(stored: string, cost: ScryptCost = COST): boolean {
  const parsed = parseHash(stored);
  if (!parsed) return true;
  const work = (c: ScryptCost) => 2 ** c.ln * c.r * c.p;
  return work(parsed.cost) < work(cost);
}

/** Why a new password is refused, or undefined. Length is the rule (NIST SP 800-63B), no composition rules. */
export function passwordProblem(password: string): string | undefined {
  const length = [...password.normalize('NFKC')].length;
  if (length < PASSWORD_MIN) return `A password needs at least ${PASSWORD_MIN} characters.`;
  if (length > PASSWORD_MAX) return `A password has at most ${PASSWORD_MAX} characters.`;
  return undefined;
}

let dummy: Promise<string> | undefined;

/**
 * Verifies against a throw-away hash: a sign-in with an unknown email then takes as long as one
 * with a wrong password, so response times do not tell which addresses have accounts.
 */
export async function burnVerification(password: string): Promise<false> {
  dummy ??= hashPassword(crypto.randomBytes(16).toString('hex'));
  await verifyPassword(password, await dummy);
  return false;
}
