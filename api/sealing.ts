import { userRef } from '../domain/sealed-user.js';
import type { Pool, PoolClient } from '../lib/db.js';
import { ensureUserKeys, pseudonymSecrets } from '../store/user-keys.js';

/**
 * The API's side of sealing (docs/decisions.md, "Erasure through Kafka"): each user's pseudonym
 * and key, made with the user's first message. Projects' secrets never change, so they are kept.
 */
export class UserSealing {
  private readonly secrets = new Map<string, Buffer>();

  constructor(private readonly db: Pool) {}

  /** Per user id: the pseudonym and the key to seal with (made when missing, on `client` if given). */
  async keysFor(
    projectId: string,
    userIds: string[],
    client: Pool | PoolClient = this.db,
  ): Promise<Map<string, { ref: string; key: Buffer }>> {
    let secret = this.secrets.get(projectId);
    if (!secret) {
      secret = (await pseudonymSecrets(this.db, [projectId])).get(projectId);
      if (!secret) throw new Error(`no project ${projectId}`);
      this.secrets.set(projectId, secret);
    }
    const refs = new Map(userIds.map((id) => [id, userRef(secret, id)]));
    const keys = await ensureUserKeys(client, projectId, [...refs.values()]);
    return new Map([...refs].map(([id, ref]) => [id, { ref, key: keys.get(ref)! }]));
  }
}
