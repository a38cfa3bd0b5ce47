import { recentStreamRows } from '../../store/stream-events.js';
import type http from 'node:http';
import { WebSocket, WebSocketServer } from 'ws';
import { KEY_CHANGES_CHANNEL, liveKeys } from '../../store/api-keys.js';
import type { AuthThrottle } from '../auth-throttle.js';
import { NO_PROXIES, type ProxyTrust, clientAddress } from '../client-address.js';
import { ApiError } from '../errors.js';
import type { Pool } from '../../lib/db.js';
import type { Logger } from '../../lib/log.js';
import { listen, wakeLoop } from '../../lib/notify.js';
import { liveSessions } from '../console/sessions.js';
import { resolveStreamCredential } from '../console/stream-auth.js';
import { type Channel, parseClientMessage, streamError, subscribedReply } from './protocol.js';
import { onTheWire } from '../../domain/metrics.js';

export const STREAM_PATH = '/v1/stream';

/** Close codes: 1008 policy (auth), 1013 try again later (overload), 1001 going away (shutdown). */
const CLOSE = { policy: 1008, overloaded: 1013, goingAway: 1001 } as const;

export interface StreamOptions {
  db: Pool;
  databaseUrl: string;
  log: Logger;
  pollMs: number;
  authTimeoutMs?: number;
  pingMs?: number;
  /** A client whose unsent data exceeds this is too slow: it is dropped, not buffered for. */
  maxBufferedBytes?: number;
  maxConnectionsPerProject?: number;
  /** Sockets not yet authenticated, at most, in this process: beyond, upgrades answer 503. */
  maxUnauthenticated?: number;
  /** The API's failed-authentication counts: an address over its budget gets 429 to its upgrade. */
  throttle: AuthThrottle;
  /** Whose X-Forwarded-For names the client (PI_TRUSTED_PROXIES); default none. */
  proxies?: ProxyTrust;
  /** How far back the catch-up looks for rows a missed NOTIFY did not announce. */
  lookbackMs?: number;
}

interface Client {
  socket: WebSocket;
  address: string;
  projectId?: string;
  /** The API key it authenticated with (none for a console stream token). */
  keyId?: string;
  /** The console session whose stream token it authenticated with: it lasts as long as that session. */
  sessionHash?: Buffer;
  channels: Set<Channel>;
  alive: boolean;
}

/**
 * The stream at ws://<host>/v1/stream on the API's port: auth first, then subscriptions to
 * friction_alerts, job_completions and cohort_changes of the key's project. Rows are found by a catch-up query
 * woken by NOTIFY, on reconnection and by a timer, and de-duplicated by key, so a missed
 * notification delays a message and never loses it.
 */
export function attachStream(server: http.Server, options: StreamOptions) {
  const log = options.log.child({ component: 'stream' });
  const authTimeoutMs = options.authTimeoutMs ?? 10_000;
  const maxBufferedBytes = options.maxBufferedBytes ?? 1024 * 1024;
  const maxConnections = options.maxConnectionsPerProject ?? 100;
  const lookbackMs = options.lookbackMs ?? 120_000;
  const maxUnauthenticated = options.maxUnauthenticated ?? 200;
  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const clients = new Set<Client>();

  server.on('upgrade', (req, socket, head) => {
    if (new URL(req.url ?? '/', 'http://x').pathname !== STREAM_PATH) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\n\r\n');
      return;
    }
    const address = clientAddress(req, options.proxies ?? NO_PROXIES);
    try {
      options.throttle.check(address);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      socket.end(
        `HTTP/1.1 429 Too Many Requests\r\nRetry-After: ${err.headers['Retry-After']}\r\nConnection: close\r\n\r\n`,
      );
      return;
    }
    // Each socket waiting for its auth message costs memory and a timer: a flood of them is
    // refused before the handshake, and those accepted are closed by the auth timeout.
    if ([...clients].filter((c) => !c.projectId).length >= maxUnauthenticated) {
      socket.end('HTTP/1.1 503 Service Unavailable\r\nRetry-After: 5\r\nConnection: close\r\n\r\n');
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => accept(ws, address));
  });

  const send = (client: Client, message: unknown) => {
    if (client.socket.readyState !== WebSocket.OPEN) return;
    if (client.socket.bufferedAmount > maxBufferedBytes) {
      log.warn({ project: client.projectId }, 'dropping a slow stream client');
      client.socket.close(CLOSE.overloaded, 'slow consumer: send buffer full');
      setTimeout(() => client.socket.terminate(), 1000).unref();
      return;
    }
    client.socket.send(JSON.stringify(onTheWire(message)));
  };

  function accept(socket: WebSocket, address: string) {
    const client: Client = { socket, address, channels: new Set(), alive: true };
    clients.add(client);
    const authTimer = setTimeout(() => {
      send(client, streamError('auth_timeout', `The first message must be auth, within ${authTimeoutMs / 1000} s.`));
      socket.close(CLOSE.policy, 'auth timeout');
    }, authTimeoutMs);
    socket.on('pong', () => (client.alive = true));
    socket.on('close', () => {
      clearTimeout(authTimer);
      clients.delete(client);
    });
    socket.on('error', (err) => log.debug({ err }, 'stream socket error'));
    // Messages are handled one at a time, in order: auth resolves the key before any subscribe.
    let queue = Promise.resolve();
    socket.on('message', (data: Buffer, isBinary) => {
      queue = queue.then(() => handle(client, isBinary ? '' : data.toString('utf8'), authTimer));
    });
  }

  async function handle(client: Client, raw: string, authTimer: NodeJS.Timeout): Promise<void> {
    const message = parseClientMessage(raw);
    if (!client.projectId) {
      if (message.type !== 'auth') {
        options.throttle.failed(client.address);
        send(client, streamError('unauthorized', 'The first message must be {"type":"auth","api_key":"…"}.'));
        client.socket.close(CLOSE.policy, 'unauthorized');
        return;
      }
      clearTimeout(authTimer);
      const key = await resolveStreamCredential(options.db, message.apiKey).catch((err: unknown) => {
        log.error({ err }, 'stream key lookup failed');
        return undefined;
      });
      if (!key) options.throttle.failed(client.address);
      if (!key || !(key.scopes.includes('analytics:read') || key.scopes.includes('admin'))) {
        send(client, streamError('unauthorized', 'Invalid API key, or a key without analytics:read.'));
        client.socket.close(CLOSE.policy, 'unauthorized');
        return;
      }
      const open = [...clients].filter((c) => c.projectId === key.projectId).length;
      if (open >= maxConnections) {
        send(client, streamError('too_many_connections', `At most ${maxConnections} stream connections per project.`));
        client.socket.close(CLOSE.overloaded, 'too many connections');
        return;
      }
      client.projectId = key.projectId;
      client.keyId = key.keyId;
      client.sessionHash = key.sessionHash;
      send(client, { type: 'auth_ok' });
      return;
    }
    switch (message.type) {
      case 'error':
        return send(client, message);
      case 'auth':
        return send(client, streamError('already_authenticated', 'This connection is already authenticated.'));
      case 'subscribe':
        for (const c of message.channels) client.channels.add(c);
        return send(client, subscribedReply(client.channels));
      case 'unsubscribe':
        for (const c of message.channels) client.channels.delete(c);
        return send(client, subscribedReply(client.channels));
      case 'ping':
        return send(client, { type: 'pong' });
    }
  }

  // Keys (project, kind, id) of rows already published, with their time, forgotten once older than
  // the lookback. Ids are only unique within a project.
  const published = new Map<string, number>();
  let primed = false;

  async function catchUp(): Promise<void> {
    const rows = await recentStreamRows<Channel>(options.db, lookbackMs);
    const fresh = rows.filter((r) => !published.has(r.key));
    for (const r of fresh) published.set(r.key, r.at.getTime());
    const horizon = Date.now() - 2 * lookbackMs;
    for (const [key, at] of published) if (at < horizon) published.delete(key);
    // The first pass only learns what happened before this server started.
    if (!primed) {
      primed = true;
      return;
    }
    for (let i = 0; i < fresh.length; i++) {
      const r = fresh[i]!;
      const message = { channel: r.channel, data: normalise(r.data), timestamp: r.at.toISOString() };
      for (const client of clients) {
        if (client.projectId === r.project_id && client.channels.has(r.channel)) send(client, message);
      }
      // A burst goes out in slices, letting sockets drain in between: only a client that does
      // not keep up reaches the buffer limit, not every client of a large burst.
      if (i % 200 === 199) await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * Closes the sockets of revoked keys and of ended console sessions (signed out, the member
   * removed): woken by each revocation or ended session, and by the timer for a missed one.
   */
  async function dropRevoked(): Promise<void> {
    const keyIds = [...new Set([...clients].flatMap((c) => (c.keyId ? [c.keyId] : [])))];
    const sessions = [...clients].flatMap((c) => (c.sessionHash ? [c.sessionHash] : []));
    if (keyIds.length === 0 && sessions.length === 0) return;
    const [live, open] = await Promise.all([
      keyIds.length > 0 ? liveKeys(options.db, keyIds) : new Set<string>(),
      sessions.length > 0 ? liveSessions(options.db, sessions) : new Map<string, unknown>(),
    ]);
    for (const client of clients) {
      const why = client.keyId
        ? !live.has(client.keyId) && 'The API key has been revoked.'
        : client.sessionHash && !open.has(client.sessionHash.toString('hex')) && 'The console session has ended.';
      if (!why) continue;
      send(client, streamError('unauthorized', why));
      client.socket.close(CLOSE.policy, client.keyId ? 'key revoked' : 'session ended');
      setTimeout(() => client.socket.terminate(), 1000).unref();
    }
  }

  const loop = wakeLoop(catchUp, log);
  const keyCheck = wakeLoop(dropRevoked, log);
  const listener = listen({
    databaseUrl: options.databaseUrl,
    channels: ['pi_stream', KEY_CHANGES_CHANNEL],
    pollMs: options.pollMs,
    log,
    onNotification: (channel) => (channel === KEY_CHANGES_CHANNEL ? keyCheck : loop).wake(),
    onWake: (reason) => {
      if (reason === 'notification') return;
      loop.wake();
      keyCheck.wake();
    },
  });

  const pinger = setInterval(() => {
    for (const client of clients) {
      if (!client.alive) {
        client.socket.terminate();
        continue;
      }
      client.alive = false;
      client.socket.ping();
    }
  }, options.pingMs ?? 30_000);
  pinger.unref();

  return {
    async close(): Promise<void> {
      clearInterval(pinger);
      await listener.close();
      await loop.stop();
      await keyCheck.stop();
      for (const client of clients) client.socket.close(CLOSE.goingAway, 'server shutting down');
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      for (const client of clients) client.socket.terminate();
    },
  };
}

/** Timestamps inside data are ISO 8601 UTC strings, as everywhere in the API. */
function normalise(data: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...data };
  if (typeof out.completed_at === 'string') out.completed_at = new Date(out.completed_at).toISOString();
  return out;
}
