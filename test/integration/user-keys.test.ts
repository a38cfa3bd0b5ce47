import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { inTransaction } from '../../lib/db.js';
import { eraseUser } from '../../store/user-data.js';
import { ensureUserKeys, userKeyLookup, userKeysOf, userRefOf } from '../../store/user-keys.js';
import { closeServices, newProject, services } from './helpers.js';

describe("users' keys kept by a process", () => {
  after(closeServices);

  it('are forgotten when an erasure commits: a user seen again is opened with the new key', async () => {
    const { db } = services();
    const { projectId } = await newProject(['admin']);
    const userId = `kept-key-${crypto.randomUUID()}`;
    const ref = await userRefOf(db, projectId, userId);
    const lookup = [{ projectId, ref }];
    const first = (await ensureUserKeys(db, projectId, [ref])).get(ref)!;
    // Read once: kept from now on.
    assert.deepEqual((await userKeysOf(db, lookup)).get(userKeyLookup(projectId, ref)), first);

    await inTransaction(db, (client) => eraseUser(client, projectId, userId));
    assert.equal((await userKeysOf(db, lookup)).size, 0, 'an erased user has no key');
    const second = (await ensureUserKeys(db, projectId, [ref])).get(ref)!;
    assert.notDeepEqual(second, first);
    assert.deepEqual((await userKeysOf(db, lookup)).get(userKeyLookup(projectId, ref)), second);
  });
});
