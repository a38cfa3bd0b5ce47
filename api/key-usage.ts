import type { Pool } from '../lib/db.js';
import { markKeyUsed } from '../store/api-keys.js';

/** How stale an API key's last_used_at may get: it is written at most this often per key and process. */
export const TOUCH_EVERY_MS = 60_000;

const written = new Map<string, number>();

/**
 * Records that a key was used (api_keys.last_used_at, shown in Settings → API Keys), cheaply: one
 * write per key per minute per API process, not one per request, and never in the request's way.
 */
export function touchKey(db: Pool, keyId: string, now = Date.now()): void {
  if (now - (written.get(keyId) ?? -Infinity) < TOUCH_EVERY_MS) return;
  written.set(keyId, now);
  // A lost write costs only the freshness of a displayed time, so a failure is not the request's.
  markKeyUsed(db, keyId).catch(() => written.delete(keyId));
}
