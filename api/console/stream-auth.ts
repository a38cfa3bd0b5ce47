import { type ResolvedKey, resolveKey } from '../../store/api-keys.js';
import type { Pool } from '../../lib/db.js';
import { consumeToken } from './accounts.js';
import { tokenKind } from './tokens.js';

/**
 * What the stream's auth message may carry: an API key, or a console stream token (POST
 * /v1/console/stream-token, one use, a minute). The console gets the token with its session and
 * CSRF token; a WebSocket upgrade could not carry that protection, so the cookie is not used there.
 */
export async function resolveStreamCredential(
  db: Pool,
  credential: string,
): Promise<(Pick<ResolvedKey, 'projectId' | 'scopes'> & { keyId?: string }) | undefined> {
  if (tokenKind(credential) !== 'stream') return resolveKey(db, credential);
  const owner = await consumeToken(db, credential, 'stream');
  return owner && { projectId: owner.projectId, scopes: ['admin'] };
}
