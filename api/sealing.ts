import { userRef } from '../domain/sealed-user.js';
import type { Pool, PoolClient } from '../lib/db.js';
import { Lease } from '../lib/lease.js';
import {
  type KeysAt,
  ensureUserKeys,
  ensureUserKeysAt,
  keptOrFetched,
  keptPseudonymSecrets,
  readKeysAt,
  userKeyLookup,
  userKeysOf,
} from '../store/user-keys.js';

/** New users' keys of one project asked for while a statement makes others: made by the next one. */
interface KeysToMake {
  refs: Set<string>;
  made: Promise<KeysAt>;
  resolve: (made: KeysAt) => void;
  reject: (err: unknown) => void;
}

/**
 * The API's side of sealing (docs/adr/0045-erasure-through-kafka.md): each user's pseudonym
 * and key, made with the user's first message. Projects' secrets and users' keys are kept by the
 * process (`keptPseudonymSecrets`, `userKeysOf`).
 *
 * Making keys is a committed insert; with one per request that named a new user it was the
 * largest statement time of Postgres under paced load (docs/performance.md). So
 * requests outside a transaction that name new users while such an insert runs share the next one.
 * That statement also reads the keys of the request's other users not kept and the erasure epoch,
 * so a request naming new users waits for one statement, not for a read of the epoch, a read of
 * the keys and then the insert (each a wait on a busy Postgres).
 */
export class UserSealing {
  private readonly toMake = new Map<string, KeysToMake>();
  private readonly making = new Set<string>();
  /**
   * The erasure epoch under lease (lib/lease.ts): a request whose users' keys are all kept reads
   * nothing, where it read the epoch each time behind a busy Postgres. An erasure answers once
   * the lease has expired, so a request sent after it never seals with the erased key.
   */
  private readonly epoch: Lease<KeysAt>;

  constructor(private readonly db: Pool) {
    this.epoch = new Lease(() => readKeysAt(db, []));
  }

  /** Per user id: the pseudonym and the key to seal with (made when missing, on `client` if given). */
  async keysFor(
    projectId: string,
    userIds: string[],
    client?: PoolClient,
  ): Promise<Map<string, { ref: string; key: Buffer }>> {
    const secret = (await keptPseudonymSecrets(this.db, [projectId])).get(projectId);
    if (!secret) throw new Error(`no project ${projectId}`);
    const refs = new Map(userIds.map((id) => [id, userRef(secret, id)]));
    const named = [...refs.values()].map((ref) => ({ projectId, ref }));
    let keys: Map<string, Buffer>;
    if (client) {
      // Made keys are not kept: the transaction may roll back.
      keys = await userKeysOf(client, named);
      const missing = named.filter((u) => !keys.has(userKeyLookup(projectId, u.ref))).map((u) => u.ref);
      for (const [ref, key] of await ensureUserKeys(client, projectId, missing)) {
        keys.set(userKeyLookup(projectId, ref), key);
      }
    } else {
      keys = await keptOrFetched(named, (others) =>
        others.length === 0
          ? this.epoch.get()
          : this.makeTogether(
              projectId,
              others.map((u) => u.ref),
            ),
      );
    }
    return new Map([...refs].map(([id, ref]) => [id, { ref, key: keys.get(userKeyLookup(projectId, ref))! }]));
  }

  /** Joins the project's next insert of keys; one runs at a time per project, at once when none does. */
  private makeTogether(projectId: string, refs: string[]): Promise<KeysAt> {
    let next = this.toMake.get(projectId);
    if (!next) {
      let resolve!: KeysToMake['resolve'];
      let reject!: KeysToMake['reject'];
      const made = new Promise<KeysAt>((res, rej) => ((resolve = res), (reject = rej)));
      next = { refs: new Set(), made, resolve, reject };
      this.toMake.set(projectId, next);
    }
    for (const ref of refs) next.refs.add(ref);
    if (!this.making.has(projectId)) void this.make(projectId);
    return next.made;
  }

  private async make(projectId: string): Promise<void> {
    this.making.add(projectId);
    try {
      for (let next = this.toMake.get(projectId); next; next = this.toMake.get(projectId)) {
        this.toMake.delete(projectId);
        await ensureUserKeysAt(this.db, projectId, [...next.refs]).then(next.resolve, next.reject);
      }
    } finally {
      this.making.delete(projectId);
    }
  }
}
