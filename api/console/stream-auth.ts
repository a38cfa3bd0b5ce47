import { type ResolvedKey, resolveKey } from '../../store/api-keys.js';
import type { Pool } from '../../lib/db.js';
import { consumeToken } from './accounts.js';
import { keyScopesOf } from './roles.js';
import { liveSessions } from './sessions.js';
import { tokenKind } from './tokens.js';

/** Who a stream authenticated as: an API key (`keyId`), or a console session (`sessionHash`). */
export type StreamCredential = Pick<ResolvedKey, 'projectId' | 'scopes'> & { keyId?: string; sessionHash?: Buffer };

/**
 * What the stream's auth message may carry: an API key, or a console stream token (POST
 * /v1/console/stream-token, one use, a minute). The console gets the token with its session and
 * CSRF token; a WebSocket upgrade could not carry that protection, so the cookie is not used there.
 * A token counts only while the session it was issued to is open, and the stream keeps that
 * session's hash: it closes when the session ends (sign-out, a new password, the member removed).
 */
export async function resolveStreamCredential(db: Pool, credential: string): Promise<StreamCredential | undefined> {
  if (tokenKind(credential) !== 'stream') return resolveKey(db, credential);
  const owner = await consumeToken(db, credential, 'stream');
  if (!owner?.sessionHash) return undefined;
  const role = (await liveSessions(db, [owner.sessionHash])).get(owner.sessionHash.toString('hex'));
  return role && { projectId: owner.projectId, scopes: keyScopesOf(role), sessionHash: owner.sessionHash };
}
