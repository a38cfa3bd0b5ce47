import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { ensureUser } from '../../api/console/accounts.js';
import { hashPassword } from '../../api/console/passwords.js';
import { SIGN_IN_LIMITS } from '../../api/console/sign-in-limit.js';
import { type RunningApi, startApi } from '../../api/server.js';
import { loadConfig } from '../../lib/config.js';
import { createLogger } from '../../lib/log.js';
import { call, closeServices, errorOf, newProject, services } from './helpers.js';

const PASSWORD = 'the owner knows this one 42';
const ATTACKER = '203.0.113.66';
const OWNER = '198.51.100.7';

/**
 * Console sign-in under guessing: waits grow per (email, address), and nothing an attacker sends
 * from its own address keeps the owner, at theirs, out (issue 46).
 */
describe('console sign-in: lockout per email and address', function () {
  this.timeout(60_000);
  let api: RunningApi;
  let email: string;

  before(async () => {
    // The test plays the proxy on loopback: X-Forwarded-For names the client it pretends to be.
    const config = { ...loadConfig(), port: 0, trustedProxies: { addresses: ['127.0.0.1', '::1'] } };
    api = await startApi(config, { ...services(), log: createLogger('silent') });
    const { projectId } = await newProject(['admin']);
    email = `owner-${process.pid}-${Date.now()}@example.com`;
    const owner = await ensureUser(services().db, projectId, email, 'owner');
    await services().db.query('update console_users set password_hash = $3 where project_id = $1 and member_id = $2', [
      projectId,
      owner.userId,
      await hashPassword(PASSWORD),
    ]);
  });

  after(async () => {
    await api?.close();
    await closeServices();
  });

  const signIn = (from: string, password: string) =>
    call(api, 'POST', '/console/sign-in', {
      json: { email, password },
      headers: { 'X-Forwarded-For': from, Origin: new URL(api.baseUrl).origin },
    });

  it('makes a guessing address wait longer after each failure, and never keeps the owner out', async () => {
    const { freeFailures, firstDelayMs } = SIGN_IN_LIMITS;
    // More wrong passwords than the old per-email limit (10 in 15 minutes) allowed.
    for (let i = 1; i <= 11; i++) {
      const reply = await signIn(ATTACKER, `guess ${i}`);
      if (i <= freeFailures + 1) assert.equal(reply.status, 401, `guess ${i}`);
      else assert.equal(reply.status, 429, `guess ${i}`);
    }
    const waiting = await signIn(ATTACKER, 'guess again');
    assert.equal(errorOf(waiting).code, 'rate_limited');
    const wait = Number(waiting.headers.get('Retry-After'));
    assert.ok(wait >= 1 && wait <= firstDelayMs / 1000, `Retry-After ${wait}`);
    // Inside the wait even the right password is refused from that address: the wait is no oracle.
    assert.equal((await signIn(ATTACKER, PASSWORD)).status, 429);

    // The owner, from their own address, signs in at once.
    assert.equal((await signIn(OWNER, PASSWORD)).status, 200);

    // After the wait, one more guess; the next wait is twice as long.
    await sleep(wait * 1000 + 100);
    assert.equal((await signIn(ATTACKER, 'guess after the wait')).status, 401);
    const longer = await signIn(ATTACKER, 'guess too soon');
    assert.equal(longer.status, 429);
    assert.ok(Number(longer.headers.get('Retry-After')) > wait, `Retry-After ${longer.headers.get('Retry-After')}`);

    // The right password after the wait signs in and clears the pair's failures.
    await sleep(Number(longer.headers.get('Retry-After')) * 1000 + 100);
    assert.equal((await signIn(ATTACKER, PASSWORD)).status, 200);
    for (let i = 1; i <= freeFailures; i++) assert.equal((await signIn(ATTACKER, `fresh ${i}`)).status, 401);
  });
});
