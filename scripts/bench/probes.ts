import crypto from 'node:crypto';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';

export interface ProbeResult {
  /** ms since the run's start when the probe was sent */
  at: number;
  /** ms from the POST to visible; undefined when it never became visible within the timeout */
  latency?: number;
}

const POLL_MS = 100;
/** Past 5 s a probe polls every 2 % of its wait so far: its latency is known within 2 %. */
const POLL_SHARE = 0.02;
/** Long enough to see a probe through the drain of a 1M-event history's backlog (120 s lost most of them). */
const GIVE_UP_MS = 600_000;

const request = async (baseUrl: string, key: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
};

/**
 * Event → visible in the API: a `feature_used` of a feature of its own, then GET
 * /analytics/features/{name} until it answers 200 (the analytics sink committed it): every 100 ms,
 * and past 5 s every 2 % of the wait so far. Polling every 100 ms whatever the wait, the probes of a
 * backlog asked ~290 GETs/s of the service under test.
 */
export async function apiProbe(baseUrl: string, key: string, run: string, n: number, t0: number): Promise<ProbeResult> {
  const feature = `probe_${run}_${n}`;
  const sent = performance.now();
  const posted = await request(baseUrl, key, 'POST', '/events', {
    user_id: `probe-api-${run}-${n}`,
    event: 'feature_used',
    properties: { page: '/probe', feature },
  });
  const at = sent - t0;
  if (posted.status !== 202) return { at };
  while (performance.now() - sent < GIVE_UP_MS) {
    const reply = await request(baseUrl, key, 'GET', `/analytics/features/${feature}`);
    if (reply.status === 200) return { at, latency: performance.now() - sent };
    await sleep(Math.max(POLL_MS, (performance.now() - sent) * POLL_SHARE));
  }
  return { at };
}

/**
 * Event → on the stream: the goal event of an active Job from a new user, and the
 * job_completions message naming that user. Call `send` for each probe; `results` holds them.
 */
export async function streamProbes(baseUrl: string, streamUrl: string, key: string, run: string) {
  const job = await request(baseUrl, key, 'POST', '/jobs', {
    name: `Latency probe ${run}`,
    goal: `probe_goal_${run}`,
    target_audience: { type: 'all' },
  });
  await request(baseUrl, key, 'PATCH', `/jobs/${String(job.body.id)}`, { status: 'active' });
  const ws = new WebSocket(streamUrl);
  await once(ws, 'open');
  ws.send(JSON.stringify({ type: 'auth', api_key: key }));
  ws.send(JSON.stringify({ type: 'subscribe', channels: ['job_completions'] }));
  const pending = new Map<string, { sent: number; result: ProbeResult }>();
  const results: ProbeResult[] = [];
  ws.on('message', (raw: Buffer) => {
    const message = JSON.parse(raw.toString()) as { channel?: string; data?: { user_id?: string } };
    const probe = message.channel === 'job_completions' ? pending.get(message.data?.user_id ?? '') : undefined;
    if (!probe) return;
    probe.result.latency = performance.now() - probe.sent;
    pending.delete(message.data!.user_id!);
  });
  return {
    results,
    async send(n: number, t0: number): Promise<void> {
      const user = `probe-stream-${run}-${n}`;
      const sent = performance.now();
      const result: ProbeResult = { at: sent - t0 };
      results.push(result);
      pending.set(user, { sent, result });
      await request(baseUrl, key, 'POST', '/events', { user_id: user, event: `probe_goal_${run}` });
    },
    /** Waits (at most `ms`) for the probes still in flight, then closes the socket. */
    async close(ms: number): Promise<void> {
      const deadline = performance.now() + ms;
      while (pending.size > 0 && performance.now() < deadline) await sleep(100);
      ws.close();
    },
  };
}

/**
 * The API's event loop as a client sees it: GET /v1/health (an answer from memory) every
 * `everyMs`; a stalled loop shows as a slow answer.
 */
export function stallProbe(baseUrl: string, everyMs = 100) {
  const times: number[] = [];
  let stopped = false;
  const done = (async () => {
    while (!stopped) {
      const t = performance.now();
      await fetch(`${baseUrl}/health`)
        .then((r) => r.arrayBuffer())
        .catch(() => undefined);
      times.push(performance.now() - t);
      await sleep(Math.max(0, everyMs - (performance.now() - t)));
    }
  })();
  return {
    times,
    async stop() {
      stopped = true;
      await done;
    },
  };
}

/** The bench is the service's operator: it starts it with this PI_OPERATOR_TOKEN to read GET /health/details. */
export const OPERATOR_TOKEN = crypto.randomBytes(32).toString('hex');

/**
 * The API processes' event-loop delay and requests' waits on Postgres and Kafka since the
 * previous call (each answer comes from one of them: asked a few times, every process answers
 * once at least with enough luck).
 */
export async function apiDetails(baseUrl: string) {
  const seen: { event_loop: Record<string, unknown>; waits: Record<string, unknown> }[] = [];
  for (let i = 0; i < 6; i++) {
    const res = await fetch(`${baseUrl}/health/details`, { headers: { Authorization: `Bearer ${OPERATOR_TOKEN}` } });
    if (res.ok) seen.push((await res.json()) as (typeof seen)[number]);
  }
  return { event_loop: seen.map((s) => s.event_loop), waits: seen.map((s) => s.waits) };
}
