import assert from 'node:assert/strict';
import { browserBudget } from '../../api/browser-budgets.js';
import { type RunningApi, startApi } from '../../api/server.js';
import { loadConfig } from '../../lib/config.js';
import { createLogger } from '../../lib/log.js';
import { createKey } from '../../store/api-keys.js';
import { call, closeServices, errorOf, newProject, services } from './helpers.js';

const ORIGIN = 'https://shop.example';
/** An enterprise project's hourly limit, small enough to spend in a test. */
const LIMIT = 1000;

/**
 * A stranger holding a page's browser key (issue 46): its requests and events count on budgets of
 * their own, per client address and per anonymous id, and never starve the server and admin keys.
 */
describe('browser keys: budgets of their own', function () {
  this.timeout(120_000);
  let api: RunningApi;
  const budget = browserBudget(LIMIT);

  before(async () => {
    // The test plays the proxy on loopback: X-Forwarded-For names the client it pretends to be.
    const config = { ...loadConfig(), port: 0, trustedProxies: { addresses: ['127.0.0.1', '::1'] } };
    api = await startApi(config, { ...services(), log: createLogger('silent') });
  });
  after(async () => {
    await api?.close();
    await closeServices();
  });

  /** A project on an hourly limit of LIMIT requests, with a browser key and a server key. */
  const project = async () => {
    const { projectId, keys } = await newProject(['events:write']);
    await services().db.query(
      "update projects set rate_tier = 'enterprise', rate_limit_per_hour = $2 where project_id = $1",
      [projectId, LIMIT],
    );
    const browser = (await createKey(services().db, projectId, ['events:write'], 'page', [ORIGIN])).key;
    return { browser, server: keys[0]! };
  };
  const send = (key: string, from: string | undefined, events: { user_id: string }[], origin?: string) =>
    call(api, 'POST', '/events/batch', {
      key,
      json: { events: events.map((e) => ({ ...e, event: 'page_view' })) },
      headers: { ...(from && { 'X-Forwarded-For': from }), ...(origin && { Origin: origin }) },
    });
  const one = (id = 'anon-1') => [{ user_id: id }];

  it('stops one address at its share of the browser requests; other addresses and the server key go on', async () => {
    const { browser, server } = await project();
    // A script with no Origin is held to the same share as a page.
    for (let i = 0; i < budget.requestsPerAddress; i++) {
      assert.equal((await send(browser, '203.0.113.5', one())).status, 202, `request ${i}`);
    }
    const refused = await send(browser, '203.0.113.5', one(), ORIGIN);
    assert.equal(refused.status, 429);
    assert.equal(errorOf(refused).details.bucket, 'browser_address');
    assert.ok(Number(refused.headers.get('Retry-After')) > 0);
    assert.equal((await send(browser, '203.0.113.6', one(), ORIGIN)).status, 202);
    assert.equal((await send(server, '203.0.113.5', one())).status, 202);
  });

  it('stops the browser keys at their share of the hour, and the server key keeps the rest', async () => {
    const { browser, server } = await project();
    let sent = 0;
    for (let address = 1; sent < budget.requests; address++) {
      for (let i = 0; i < budget.requestsPerAddress && sent < budget.requests; i++, sent++) {
        const reply = await send(browser, `198.51.100.${address}`, one(`anon-${address}`), ORIGIN);
        assert.equal(reply.status, 202);
        assert.equal(reply.headers.get('X-RateLimit-Limit'), String(budget.requests), 'a browser key sees its bucket');
      }
    }
    const refused = await send(browser, '192.0.2.99', one(), ORIGIN);
    assert.equal(refused.status, 429);
    assert.equal(errorOf(refused).details.bucket, 'browser');
    assert.match(errorOf(refused).message, /server and admin keys keep the rest/);
    // The server key's share of the project counter is untouched by the refusals.
    for (let i = 0; i < 10; i++) assert.equal((await send(server, undefined, one())).status, 202);
    const reply = await send(server, undefined, one());
    assert.equal(reply.headers.get('X-RateLimit-Limit'), String(LIMIT - LIMIT / 10));
    assert.equal(Number(reply.headers.get('X-RateLimit-Remaining')), LIMIT - LIMIT / 10 - budget.requests - 11);
  });

  it('counts events too: per anonymous id, per address, and the server key is not counted', async () => {
    const { browser, server } = await project();
    const ids = (id: string, n: number) => Array.from({ length: n }, () => ({ user_id: id }));
    /** `n` events of `id` in batches of at most 1,000, each accepted. */
    const accepted = async (id: string, n: number) => {
      for (let sent = 0; sent < n; sent += 1000) {
        const reply = await send(browser, '203.0.113.7', ids(id, Math.min(1000, n - sent)), ORIGIN);
        assert.equal(reply.status, 202, JSON.stringify(reply.body));
      }
    };
    await accepted('anon-a', budget.eventsPerId);
    const perId = await send(browser, '203.0.113.7', ids('anon-a', 1), ORIGIN);
    assert.equal(perId.status, 429);
    assert.equal(errorOf(perId).details.bucket, 'browser_user_events');
    await accepted('anon-b', budget.eventsPerId);
    await accepted('anon-c', budget.eventsPerAddress - 2 * budget.eventsPerId);
    const perAddress = await send(browser, '203.0.113.7', ids('anon-d', 1), ORIGIN);
    assert.equal(perAddress.status, 429);
    assert.equal(errorOf(perAddress).details.bucket, 'browser_address_events');
    assert.equal((await send(browser, '203.0.113.8', ids('anon-d', 1), ORIGIN)).status, 202);
    // A server key sends a person's whole day in one batch: no events budget applies.
    const serverReply = await send(server, '203.0.113.7', ids('anon-a', 1000));
    assert.equal(serverReply.status, 202, JSON.stringify(serverReply.body));
  });
});
