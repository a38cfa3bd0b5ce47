/**
 * What the tests against the running service share: its address and key, the client as an
 * application gets it (the built package), a real fault-injecting HTTP proxy, and waiting on
 * conditions.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, type ClientOptions, type Schemas } from '../dist/index.js';

/** A prefix that makes this run's users, events and features its own in a shared project. */
export const RUN = `node-${randomUUID().slice(0, 8)}`;

export const unique = (what: string) => `${RUN}-${what}-${randomUUID().slice(0, 6)}`;

export function service(): { baseUrl: string; apiKey: string } {
  const baseUrl = process.env.PI_BASE_URL;
  const apiKey = process.env.PI_API_KEY;
  if (!baseUrl || !apiKey) {
    throw new Error(
      'These tests run against the service: set PI_BASE_URL (e.g. http://127.0.0.1:3100/v1) and PI_API_KEY (an admin key of a project used only by this run).',
    );
  }
  return { baseUrl, apiKey };
}

export function client(options: Partial<ClientOptions> = {}): Client {
  const { baseUrl, apiKey } = service();
  return new Client({ apiKey, host: baseUrl, flushAtExit: false, ...options });
}

/** Polls `probe` until it returns something truthy; the pause grows (every poll is a request the hourly budget counts). */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 60_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let pause = 200;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await sleep(pause);
    pause = Math.min(2000, pause * 1.5);
  }
}

/** The stored rows of `event` with these message ids (yesterday to tomorrow, UTC). */
export async function storedRows(
  reader: Client,
  event: string,
  messageIds: string[],
): Promise<Schemas['ExportedEvent'][]> {
  const day = 86_400_000;
  const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  const rows = await reader.exportEvents({
    date_range: 'custom',
    start: date(Date.now() - day),
    end: date(Date.now() + day),
    event_types: event,
  });
  return rows.filter((row) => messageIds.includes(row.message_id));
}

export interface Seen {
  at: number;
  method: string;
  path: string;
  body: string;
}

/**
 * A real HTTP server between a client and the service. `script` lists the answers of the first
 * requests (status, headers); after it, requests are forwarded.
 */
export async function faultProxy(script: [number, Record<string, string>][] = []) {
  const upstream = new URL(service().baseUrl).origin;
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      seen.push({ at: Date.now(), method: req.method!, path: req.url!, body });
      const scripted = script.shift();
      if (scripted) {
        res.writeHead(scripted[0], { ...scripted[1], 'Content-Type': 'application/json' });
        res.end('{"error":{"code":"scripted","message":"injected by the test proxy","details":{}}}');
        return;
      }
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'content-type', 'accept']) {
        if (req.headers[name]) headers[name] = String(req.headers[name]);
      }
      fetch(`${upstream}${req.url}`, { method: req.method, headers, body: body || undefined })
        .then(async (answer) => {
          const type = answer.headers.get('content-type');
          res.writeHead(answer.status, type ? { 'Content-Type': type } : {});
          res.end(Buffer.from(await answer.arrayBuffer()));
        })
        .catch((err: Error) => {
          res.writeHead(502);
          res.end(err.message);
        });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
