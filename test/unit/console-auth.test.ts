import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import {
  COST,
  burnVerification,
  hashPassword,
  needsRehash,
  parseHash,
  passwordProblem,
  verifyPassword,
} from '../../api/console/passwords.js';
import {
  SIGN_IN_LIMITS,
  pairDelayMs,
  pairRetryAfter,
  retryAfter,
  windowStart,
} from '../../api/console/sign-in-limit.js';
import { csrfRefusal, csrfTokenFor, hashToken, newToken, originRefusal, tokenKind } from '../../api/console/tokens.js';
import { TOUCH_EVERY_MS, touchKey } from '../../api/key-usage.js';
import type { Pool } from '../../lib/db.js';

const CHEAP = { ln: 10, r: 8, p: 1 };

/** A stored string built by hand from node's scrypt, as the PHC format says (not by hashPassword). */
function phc(password: string, salt: Buffer, cost = CHEAP): string {
  const hash = crypto.scryptSync(password, salt, 32, { N: 2 ** cost.ln, r: cost.r, p: cost.p });
  const b64 = (b: Buffer) => b.toString('base64').replace(/=+$/, '');
  return `$scrypt$ln=${cost.ln},r=${cost.r},p=${cost.p}$${b64(salt)}$${b64(hash)}`;
}

describe('console passwords (scrypt)', function () {
  this.timeout(20_000);

  it('stores the parameters, a 16-byte salt and a 32-byte hash with every password', async () => {
    const stored = await hashPassword('correct horse battery staple');
    assert.match(stored, /^\$scrypt\$ln=15,r=8,p=3\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    assert.deepEqual(parseHash(stored)?.cost, COST);
    assert.equal(await verifyPassword('correct horse battery staple', stored), true);
    assert.equal(await verifyPassword('correct horse battery stapler', stored), false);
    assert.equal(needsRehash(stored), false);
  });

  it('salts: the same password never hashes twice to the same string', async () => {
    const [a, b] = await Promise.all([hashPassword('same password!', CHEAP), hashPassword('same password!', CHEAP)]);
    assert.notEqual(a, b);
    assert.notEqual(parseHash(a)!.salt.toString('hex'), parseHash(b)!.salt.toString('hex'));
  });

  it('verifies with the stored parameters, and asks to re-hash a weaker hash', async () => {
    const stored = phc('an older password', crypto.randomBytes(16), CHEAP);
    assert.equal(await verifyPassword('an older password', stored), true);
    assert.equal(await verifyPassword('an older passworD', stored), false);
    assert.equal(needsRehash(stored), true);
  });

  it('refuses stored strings it cannot trust instead of running them', async () => {
    const good = phc('pw with params', crypto.randomBytes(16));
    for (const bad of [
      good.replace('ln=10', 'ln=30'), // 2^30: gigabytes of memory
      good.replace('r=8', 'r=0'),
      good.replace('p=1', 'p=99'),
      good.replace('$scrypt$', '$argon2id$'),
      '',
      'plain text',
    ]) {
      assert.equal(parseHash(bad), undefined, bad);
      assert.equal(await verifyPassword('pw with params', bad), false, bad);
    }
    assert.equal(await verifyPassword('pw with params', good.slice(0, -10)), false, 'a cut hash');
    assert.equal(needsRehash('garbage'), true);
  });

  it('compares Unicode passwords in one normal form (é typed precomposed or combined)', async () => {
    const stored = await hashPassword('caf\u00e9 au lait please', CHEAP);
    assert.equal(await verifyPassword('cafe\u0301 au lait please', stored), true);
  });

  it('asks for 12 to 256 characters, counted as characters, not bytes or UTF-16 units', () => {
    assert.match(passwordProblem('elevenchars')!, /at least 12/);
    assert.equal(passwordProblem('twelve chars'), undefined);
    assert.equal(passwordProblem('🔑'.repeat(12)), undefined);
    assert.match(passwordProblem('🔑'.repeat(11))!, /at least 12/);
    assert.match(passwordProblem('x'.repeat(257))!, /at most 256/);
  });

  it('burns a verification for unknown accounts (and never accepts)', async () => {
    assert.equal(await burnVerification('anything at all'), false);
  });
});

describe('console tokens and CSRF', () => {
  const origin = 'https://console.example.com';

  it('makes 256-bit tokens named by kind, and knows them apart from anything else', () => {
    const session = newToken('session');
    assert.match(session, /^pics_[A-Za-z0-9_-]{43}$/);
    assert.equal(tokenKind(session), 'session');
    assert.equal(tokenKind(newToken('signIn')), 'signIn');
    assert.equal(tokenKind(newToken('stream')), 'stream');
    assert.notEqual(newToken('session'), session);
    assert.equal(tokenKind('pi_0123456789abcdef_' + 'a'.repeat(43)), undefined, 'an API key');
    assert.equal(tokenKind(`${session}x`), undefined);
    assert.equal(tokenKind(`pics_${'a'.repeat(42)}`), undefined);
    assert.equal(tokenKind(''), undefined);
  });

  it('stores tokens as SHA-256', () => {
    const token = newToken('session');
    assert.deepEqual(hashToken(token), crypto.createHash('sha256').update(token).digest());
  });

  it("derives each session's CSRF token from its session token, keyed HMAC-SHA256", () => {
    const a = newToken('session');
    const b = newToken('session');
    assert.equal(csrfTokenFor(a), csrfTokenFor(a));
    assert.notEqual(csrfTokenFor(a), csrfTokenFor(b));
    assert.equal(csrfTokenFor(a), crypto.createHmac('sha256', a).update('pi console csrf v1').digest('base64url'));
    assert.notEqual(csrfTokenFor(a), a);
  });

  it('lets reads through and refuses a change without the Origin, from another origin or without the token', () => {
    const sessionToken = newToken('session');
    const token = csrfTokenFor(sessionToken);
    const check = (method: string, o: string | undefined, header: string | undefined) =>
      csrfRefusal({ method, origin: o, expectedOrigin: origin, header, sessionToken })?.reason;
    for (const method of ['GET', 'HEAD', 'OPTIONS', 'get'])
      assert.equal(check(method, undefined, undefined), undefined);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) {
      assert.equal(check(method, origin, token), undefined, method);
      assert.equal(check(method, 'HTTPS://Console.Example.com', token), undefined, 'origins compare without case');
      assert.equal(check(method, undefined, token), 'origin');
      assert.equal(check(method, 'https://evil.example', token), 'origin');
      assert.equal(check(method, 'http://console.example.com', token), 'origin', 'another scheme');
      assert.equal(check(method, 'null', token), 'origin');
      assert.equal(check(method, origin, undefined), 'csrf_token');
      assert.equal(check(method, origin, ''), 'csrf_token');
      assert.equal(check(method, origin, csrfTokenFor(newToken('session'))), 'csrf_token', "another session's token");
      assert.equal(check(method, origin, `${token}x`), 'csrf_token');
    }
  });

  it('refuses a sign-in posted from another origin, not one without Origin (curl)', () => {
    assert.equal(originRefusal(undefined, origin, false), undefined);
    assert.equal(originRefusal(origin, origin, false), undefined);
    assert.equal(originRefusal('https://evil.example', origin, false)?.reason, 'origin');
    assert.equal(originRefusal(undefined, origin, true)?.reason, 'origin');
  });
});

describe('sign-in attempt windows', () => {
  const { windowMs, perAddress } = SIGN_IN_LIMITS;

  it('counts in fixed windows aligned to multiples of the window', () => {
    const t = Date.UTC(2026, 0, 1, 10, 7, 30);
    assert.equal(windowStart(t), Date.UTC(2026, 0, 1, 10, 0, 0));
    assert.equal(windowStart(Date.UTC(2026, 0, 1, 10, 15, 0)), Date.UTC(2026, 0, 1, 10, 15, 0));
  });

  it('refuses an address beyond its limit until the window ends', () => {
    const t = Date.UTC(2026, 0, 1, 10, 7, 30);
    assert.equal(retryAfter(t, perAddress), undefined);
    assert.equal(retryAfter(t, perAddress + 1), 450);
    // A refusal in the window's last instant still waits at least a second.
    assert.equal(retryAfter(windowStart(t) + windowMs - 1, perAddress + 1), 1);
  });
});

describe('sign-in waits per (email, address)', () => {
  const { freeFailures, firstDelayMs, maxDelayMs, forgetMs } = SIGN_IN_LIMITS;

  it('lets the first failures pass, then doubles the wait after each further one, up to the cap', () => {
    const delays = Array.from({ length: 16 }, (_, i) => pairDelayMs(i + 1) / 1000);
    assert.deepEqual(delays, [0, 0, 0, 0, 0, 2, 4, 8, 16, 32, 64, 128, 256, 512, 900, 900]);
    assert.equal(pairDelayMs(freeFailures + 1), firstDelayMs);
    assert.equal(pairDelayMs(1000), maxDelayMs);
  });

  it('refuses within the wait, lets the pair try after it, and forgets a pair silent for a day', () => {
    const last = Date.UTC(2026, 0, 1, 10, 0, 0);
    assert.equal(pairRetryAfter(last + 1, freeFailures, last), undefined);
    assert.equal(pairRetryAfter(last + 500, freeFailures + 2, last), 4);
    assert.equal(pairRetryAfter(last + 4000, freeFailures + 2, last), undefined);
    assert.equal(pairRetryAfter(last + 60_000, 1000, last), 840);
    assert.equal(pairRetryAfter(last + forgetMs, 1000, last), undefined);
  });
});

describe('API key last use', () => {
  it('writes at most once a minute per key and process', () => {
    const writes: unknown[][] = [];
    const db = {
      query: (_sql: string, params: unknown[]) => (writes.push(params), Promise.resolve()),
    } as unknown as Pool;
    const t = 1_000_000_000_000;
    touchKey(db, 'key-a', t);
    touchKey(db, 'key-a', t + TOUCH_EVERY_MS - 1);
    touchKey(db, 'key-b', t + 1);
    touchKey(db, 'key-a', t + TOUCH_EVERY_MS);
    assert.deepEqual(writes, [['key-a'], ['key-b'], ['key-a']]);
  });
});
