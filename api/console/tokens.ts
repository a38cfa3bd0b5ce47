import crypto from 'node:crypto';

/**
 * Console tokens, free of I/O. Each carries 256 random bits and a prefix naming its kind (so a
 * leaked one is recognisable); only its SHA-256 is stored, which suffices for random tokens.
 */
export const TOKEN_PREFIX = { session: 'pics', signIn: 'pisl', stream: 'pist' } as const;
export type TokenKind = keyof typeof TOKEN_PREFIX;

const SHAPE = /^(pics|pisl|pist)_[A-Za-z0-9_-]{43}$/;

export function newToken(kind: TokenKind): string {
  return `${TOKEN_PREFIX[kind]}_${crypto.randomBytes(32).toString('base64url')}`;
}

/** The kind of a well-formed token, or undefined: anything else is refused before a lookup. */
export function tokenKind(token: string): TokenKind | undefined {
  const m = SHAPE.exec(token);
  if (!m) return undefined;
  return (Object.keys(TOKEN_PREFIX) as TokenKind[]).find((k) => TOKEN_PREFIX[k] === m[1]);
}

export function hashToken(token: string): Buffer {
  return crypto.createHash('sha256').update(token).digest();
}

/**
 * The session's CSRF token: derived from the session token, so nothing more is stored and a
 * page reload can ask for it again. Only someone holding the (HttpOnly) cookie value can compute
 * it; the console reads it from GET /v1/console/session, which another site cannot read.
 */
export function csrfTokenFor(sessionToken: string): string {
  return crypto.createHmac('sha256', sessionToken).update('pi console csrf v1').digest('base64url');
}

/** Methods that change nothing: they need neither the CSRF token nor an Origin. */
export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface Refusal {
  reason: 'origin' | 'csrf_token';
  message: string;
}

/**
 * The request's Origin must be our own. `required`: cookie-authenticated changes, where a browser
 * always sends Origin (any non-GET fetch does); for a sign-in a missing Origin (curl) is allowed,
 * a foreign one (another site posting a form) is not.
 */
export function originRefusal(origin: string | undefined, expected: string, required: boolean): Refusal | undefined {
  if (origin === undefined || origin === '') {
    return required ? { reason: 'origin', message: 'A console request must carry an Origin header.' } : undefined;
  }
  if (origin.toLowerCase() !== expected.toLowerCase()) {
    return { reason: 'origin', message: `Requests from ${origin} are refused; the console's origin is ${expected}.` };
  }
  return undefined;
}

export interface CsrfInput {
  method: string;
  origin: string | undefined;
  expectedOrigin: string;
  /** the X-CSRF-Token header */
  header: string | undefined;
  sessionToken: string;
}

/** Why a cookie-authenticated request is refused as a possible cross-site forgery, or undefined. */
export function csrfRefusal(input: CsrfInput): Refusal | undefined {
  if (SAFE_METHODS.has(input.method.toUpperCase())) return undefined;
  const origin = originRefusal(input.origin, input.expectedOrigin, true);
  if (origin) return origin;
  const expected = Buffer.from(csrfTokenFor(input.sessionToken));
  const given = Buffer.from(input.header ?? '');
  if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) {
    return {
      reason: 'csrf_token',
      message: input.header
        ? 'The X-CSRF-Token header does not match this session.'
        : 'A change made with the console session needs the X-CSRF-Token header (GET /v1/console/session gives it).',
    };
  }
  return undefined;
}
