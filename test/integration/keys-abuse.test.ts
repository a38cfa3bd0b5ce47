import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { WebSocket } from 'ws';
import { type RunningApi, startApi } from '../../api/server.js';
import { loadConfig } from '../../lib/config.js';
import { createLogger } from '../../lib/log.js';
import { call, closeServices, errorOf, newProject, services } from './helpers.js';
import { type StreamClient, connectStream, subscribedClient } from './stream-client.js';

const AUTH_FAILURES = 5;
const UNAUTHENTICATED_SOCKETS = 5;

/** A stream upgrade's outcome: open, or the HTTP status it was refused with. */
const upgrade = (url: string, headers: Record<string, string> = {}) =>
  new Promise<{ ws?: WebSocket; status?: number }>((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.once('open', () => resolve({ ws }));
    ws.once('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode });
      res.resume();
      ws.terminate();
    });
    ws.once('error', (err) => (ws.readyState === WebSocket.CLOSED ? undefined : reject(err)));
  });

/** The throttle's fixed windows (api/auth-throttle.ts), on the clock this process shares with the API it runs. */
const AUTH_WINDOW_MS = 60_000;
const authWindow = (at = Date.now()) => Math.floor(at / AUTH_WINDOW_MS);

/**
 * Runs `attempt` until one run falls within one of the throttle's windows, and returns what that
 * run saw: a run that straddled the start of a window (at most one in a row, each run taking
 * seconds) is run again, `round` telling it to count from fresh client addresses.
 */
async function inOneWindow<T>(attempt: (round: number) => Promise<T>): Promise<T> {
  for (let round = 0; ; round++) {
    const window = authWindow();
    const seen = await attempt(round);
    if (authWindow() === window) return seen;
    if (round > 0) throw new Error('two runs in a row straddled a new window: a run took a minute');
  }
}

describe('keys under abuse: write keys, revocation, shares of the hour, failed auth, idle sockets', function () {
  this.timeout(60_000);
  let api: RunningApi;

  before(async () => {
    const config = {
      ...loadConfig(),
      port: 0,
      authFailuresPerMinute: AUTH_FAILURES,
      streamUnauthenticatedMax: UNAUTHENTICATED_SOCKETS,
      // Only the revocation's NOTIFY can close a stream within seconds, not the catch-up timer.
      pollIntervalMs: 60_000,
      // The tests play the proxy on loopback: X-Forwarded-For names the client they pretend to be.
      trustedProxies: { addresses: ['127.0.0.1', '::1'] },
    };
    api = await startApi(config, { ...services(), log: createLogger('silent') });
  });

  after(async () => {
    await api?.close();
    await closeServices();
  });

  it("a write key's requests stop at its share of the hour: the admin key keeps the reserve", async () => {
    const { projectId, keys } = await newProject(['admin'], ['events:write']);
    const [admin, writer] = keys as [string, string];
    await services().db.query(
      `update projects set rate_tier = 'enterprise', rate_limit_per_hour = 10 where project_id = $1`,
      [projectId],
    );
    const statuses: number[] = [];
    for (let i = 0; i < 15; i++) statuses.push((await call(api, 'GET', '/jobs', { key: writer })).status);
    // The write key may use 9 of the 10 (its 403s count), then 429; its refusals do not count on.
    assert.deepEqual(statuses, [...Array<number>(9).fill(403), ...Array<number>(6).fill(429)]);
    const adminReply = await call(api, 'GET', '/jobs', { key: admin });
    assert.equal(adminReply.status, 200, 'the admin key is not locked out');
    assert.deepEqual(
      [adminReply.headers.get('x-ratelimit-limit'), adminReply.headers.get('x-ratelimit-remaining')],
      ['10', '0'],
    );
    assert.equal((await call(api, 'GET', '/jobs', { key: admin })).status, 429);
  });

  it('throttles failed authentication per client address, before any key lookup', async () => {
    const { keys } = await newProject(['admin']);
    const bad = `pi_0000000000000000_${'x'.repeat(43)}`;
    const seen = await inOneWindow(async (round) => {
      /** Test addresses of this round: 203.0.113.(n + 10·round). */
      const from = (n: number) => ({ 'X-Forwarded-For': `203.0.113.${n + 10 * round}` });
      const failures: number[] = [];
      for (let i = 0; i < AUTH_FAILURES; i++) {
        const noKey = i % 2 === 0;
        failures.push((await call(api, 'GET', '/jobs', { headers: from(7), key: noKey ? undefined : bad })).status);
      }
      const throttled = await call(api, 'GET', '/jobs', { headers: from(7), key: bad });
      // The address is refused whatever it sends for the rest of the minute; other addresses are not.
      const thenWithKey = (await call(api, 'GET', '/jobs', { headers: from(7), key: keys[0] })).status;
      const otherAddress = [
        (await call(api, 'GET', '/jobs', { headers: from(8), key: keys[0] })).status,
        (await call(api, 'GET', '/jobs', { headers: from(8), key: bad })).status,
      ];
      // The stream shares the counts: its upgrades from the address are refused with 429, and wrong
      // keys sent on it count like the API's.
      const streamFromThrottled = (await upgrade(api.streamUrl, from(7))).status;
      let admitted = 0;
      for (let i = 0; i < AUTH_FAILURES; i++) {
        const { ws } = await upgrade(api.streamUrl, from(9));
        if (!ws) break;
        admitted++;
        const closed = new Promise((resolve) => ws.once('close', resolve));
        ws.send(JSON.stringify({ type: 'auth', api_key: bad }));
        await closed;
      }
      const afterStreamFailures = [
        (await upgrade(api.streamUrl, from(9))).status,
        (await call(api, 'GET', '/jobs', { headers: from(9), key: keys[0] })).status,
      ];
      return { failures, throttled, thenWithKey, otherAddress, streamFromThrottled, admitted, afterStreamFailures };
    });
    assert.deepEqual(seen.failures, Array<number>(AUTH_FAILURES).fill(401));
    assert.equal(seen.throttled.status, 429);
    assert.equal(errorOf(seen.throttled).code, 'rate_limited');
    assert.ok(Number(seen.throttled.headers.get('retry-after')) >= 1);
    assert.equal(seen.thenWithKey, 429);
    assert.deepEqual(seen.otherAddress, [200, 401]);
    assert.equal(seen.streamFromThrottled, 429);
    assert.equal(seen.admitted, AUTH_FAILURES, 'each upgrade admitted until its wrong keys used the budget');
    assert.deepEqual(seen.afterStreamFailures, [429, 429]);
  });

  it('without PI_TRUSTED_PROXIES, a client cannot leave its address by writing X-Forwarded-For', async () => {
    // Every request comes from 127.0.0.1 whatever it writes: each run has an API (and counts) of its own.
    const seen = await inOneWindow(async () => {
      const direct = await startApi(
        { ...loadConfig(), port: 0, authFailuresPerMinute: AUTH_FAILURES, trustedProxies: { addresses: [] } },
        { ...services(), log: createLogger('silent') },
      );
      try {
        const statuses: number[] = [];
        for (let i = 0; i <= AUTH_FAILURES; i++) {
          const headers = { 'X-Forwarded-For': `203.0.113.${100 + i}` };
          statuses.push((await call(direct, 'GET', '/jobs', { headers })).status);
        }
        const stream = (await upgrade(direct.streamUrl, { 'X-Forwarded-For': '203.0.113.99' })).status;
        return { statuses, stream };
      } finally {
        await direct.close();
      }
    });
    assert.deepEqual(seen.statuses, [...Array<number>(AUTH_FAILURES).fill(401), 429]);
    assert.equal(seen.stream, 429);
  });

  it("revoking a key closes its open streams within 5 s; the project's other streams stay", async () => {
    const { keys } = await newProject(['admin'], ['analytics:read'], ['analytics:read']);
    const [admin, doomed, kept] = keys as [string, string, string];
    const revoked = await subscribedClient(api.streamUrl, doomed, ['job_completions']);
    const other = await subscribedClient(api.streamUrl, kept, ['job_completions']);
    const keyId = doomed.split('_')[1]!;
    const start = performance.now();
    assert.equal((await call(api, 'DELETE', `/api-keys/${keyId}`, { key: admin })).status, 200);
    const closed = await Promise.race([revoked.closed, sleep(5000).then(() => undefined)]);
    assert.ok(closed, `still open ${Math.round(performance.now() - start)} ms after the revocation`);
    assert.equal(closed.code, 1008);
    assert.ok(revoked.messages.some((m) => m.type === 'error'));
    other.send({ type: 'ping' });
    await other.next((m) => m.type === 'pong');
    other.ws.close();
    await other.closed;
  });

  it('caps sockets that have not authenticated: the next upgrade gets 503 until one authenticates', async () => {
    const { keys } = await newProject(['analytics:read']);
    const idle: StreamClient[] = [];
    for (let i = 0; i < UNAUTHENTICATED_SOCKETS; i++) idle.push(await connectStream(api.streamUrl));
    const refused = await upgrade(api.streamUrl);
    assert.equal(refused.status, 503);
    idle[0]!.send({ type: 'auth', api_key: keys[0] });
    await idle[0]!.next((m) => m.type === 'auth_ok');
    const admitted = await upgrade(api.streamUrl);
    assert.ok(admitted.ws, 'a socket is admitted once one has authenticated');
    admitted.ws.close();
    for (const client of idle) client.ws.close();
    await Promise.all(idle.map((c) => c.closed));
  });

  it("floods of bad keys and of idle sockets from one address leave another address's requests fast", async () => {
    const { keys } = await newProject(['admin']);
    const bad = `pi_0000000000000000_${'y'.repeat(43)}`;
    const floodStatuses: number[] = [];
    const sockets: WebSocket[] = [];
    const socketRefusals: number[] = [];
    let flooding = true;
    const firstWindow = authWindow();
    const flood = (async () => {
      for (let i = 0; flooding; i++) {
        const burst = Array.from({ length: 10 }, () =>
          call(api, 'GET', '/jobs', { key: bad, headers: { 'X-Forwarded-For': '198.51.100.9' } }),
        );
        for (const reply of await Promise.all(burst)) floodStatuses.push(reply.status);
        const socket = await upgrade(api.streamUrl);
        if (socket.ws) sockets.push(socket.ws);
        else socketRefusals.push(socket.status!);
      }
    })();
    const times: number[] = [];
    for (let i = 0; i < 50; i++) {
      const start = performance.now();
      const reply = await call(api, 'GET', '/jobs', { key: keys[0], headers: { 'X-Forwarded-For': '198.51.100.10' } });
      assert.equal(reply.status, 200);
      times.push(performance.now() - start);
    }
    flooding = false;
    await flood;
    // Each of the throttle's windows the flood ran into gives the address its budget again.
    const windows = authWindow() - firstWindow + 1;
    for (const ws of sockets) ws.terminate();
    const p99 = [...times].sort((a, b) => a - b)[Math.ceil(times.length * 0.99) - 1]!;
    const unauthorized = floodStatuses.filter((s) => s === 401).length;
    // Requests of one burst are checked before any of them failed: the budget plus one burst at most, per window.
    assert.ok(
      unauthorized >= AUTH_FAILURES && unauthorized < windows * (AUTH_FAILURES + 10),
      `${unauthorized} answered 401 in ${windows} window(s)`,
    );
    assert.equal(sockets.length, UNAUTHENTICATED_SOCKETS);
    assert.ok(p99 < 1000, `bystander p99 ${Math.round(p99)} ms`);
    console.log(
      `      floods: ${floodStatuses.length} bad-key requests (${unauthorized} answered 401, ` +
        `${floodStatuses.length - unauthorized} 429), ${sockets.length + socketRefusals.length} socket upgrades ` +
        `(${sockets.length} admitted, ${socketRefusals.length} refused 503); bystander 50 × GET /jobs p99 ${Math.round(p99)} ms`,
    );
  });
});
