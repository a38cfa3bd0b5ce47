import { userRef } from '../domain/sealed-user.js';
import type { Pool, PoolClient } from '../lib/db.js';
import { ensureUserKeys, keptPseudonymSecrets, userKeyLookup, userKeysOf } from '../store/user-keys.js';

/**
 * The API's side of sealing (docs/decisions.md, "Erasure through Kafka"): each user's pseudonym
 * and key, made with the user's first message. Projects' secrets and users' keys are kept by the
 * process (`keptPseudonymSecrets`, `userKeysOf`).
 */
export class UserSealing {
  constructor(private readonly db: Pool) {}

  /** Per user id: the pseudonym and the key to seal with (made when missing, on `client` if given). */
  async keysFor(
    projectId: string,
    userIds: string[],
    client: Pool | PoolClient = this.db,
  ): Promise<Map<string, { ref: string; key: Buffer }>> {
    const secret = (await keptPseudonymSecrets(this.db, [projectId])).get(projectId);
    if (!secret) throw new Error(`no project ${projectId}`);
    const refs = new Map(userIds.map((id) => [id, userRef(secret, id)]));
    // Known users' keys come from what this process kept (one small statement); only new users'
    // keys are made. Made keys are not kept here: `client` may be a transaction that rolls back.
    const stored = await userKeysOf(
      client,
      [...refs.values()].map((ref) => ({ projectId, ref })),
    );
    const keyOf = (ref: string) => stored.get(userKeyLookup(projectId, ref));
    const missing = [...refs.values()].filter((ref) => !keyOf(ref));
    const made = missing.length > 0 ? await ensureUserKeys(client, projectId, missing) : new Map<string, Buffer>();
    return new Map([...refs].map(([id, ref]) => [id, { ref, key: keyOf(ref) ?? made.get(ref)! }]));
  }
}
