import assert from 'node:assert/strict';
import http from 'node:http';
import type { RunningApi } from '../../api/server.js';
import { EXPORT_PROJECT_CONNECTIONS, loadConfig } from '../../lib/config.js';
import { closeServices, count, newProject, services, startTestApi, waitFor } from './helpers.js';

const RANGE = 'date_range=custom&start=2025-06-01&end=2025-06-03';

describe("streamed exports: each project a share of the export pool's connections", function () {
  this.timeout(60_000);
  let api: RunningApi;
  let greedy: string;
  let other: string;
  const projects: string[] = [];

  before(async () => {
    assert.ok(EXPORT_PROJECT_CONNECTIONS < loadConfig().exportConnections, 'the share is below the pool');
    api = await startTestApi();
    for (const rows of [60_000, 3]) {
      const { projectId, keys } = await newProject(['analytics:read']);
      projects.push(projectId);
      // Enough rows that a reader who stops reading holds its export open (backpressure).
      await services().db.query(
        `insert into raw_events (project_id, message_id, user_id, event, properties, occurred_at, received_at,
                                 kafka_partition, kafka_offset)
         select $1, 'm' || i, 'u' || (i % 100), 'click', jsonb_build_object('i', i),
                '2025-06-01'::timestamptz + i * interval '1 second', now(), 0, i
         from generate_series(1, $2::int) i`,
        [projectId, rows],
      );
      if (rows > 3) greedy = keys[0]!;
      else other = keys[0]!;
    }
  });

  after(async () => {
    await services().db.query('delete from raw_events where project_id = any($1)', [projects]);
    await api.close();
    await closeServices();
  });

  /**
   * An export whose reader took the first chunk and then stops reading: it holds its connection
   * (backpressure) until `stop()` hangs up (node:http, so the socket really closes: an aborted
   * fetch may keep it open).
   */
  async function held(key: string) {
    const request = http.get(`${api.baseUrl}/analytics/export/events?format=csv&${RANGE}`, {
      headers: { Authorization: `Bearer ${key}` },
    });
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      request.once('response', resolve);
      request.once('error', reject);
    });
    request.on('error', () => undefined);
    let first = '';
    if (res.statusCode === 200) {
      first = await new Promise<string>((resolve) => res.once('data', (chunk: Buffer) => resolve(String(chunk))));
      res.pause();
    } else {
      for await (const chunk of res) first += String(chunk);
    }
    return { status: res.statusCode, headers: res.headers, first, stop: () => request.destroy() };
  }

  it('refuses a project its next export with 429 and Retry-After at its share; other projects still export', async () => {
    const open = [];
    try {
      for (let i = 0; i < EXPORT_PROJECT_CONNECTIONS; i++) {
        const one = await held(greedy);
        open.push(one);
        assert.equal(one.status, 200);
      }
      const refused = await held(greedy);
      open.push(refused);
      assert.equal(refused.status, 429);
      assert.equal(refused.headers['retry-after'], '10');
      const { error } = JSON.parse(refused.first) as {
        error: { code: string; message: string; details: Record<string, unknown> };
      };
      assert.equal(error.code, 'rate_limited');
      assert.deepEqual(error.details, { reason: 'project_exports_running', limit: EXPORT_PROJECT_CONNECTIONS });
      assert.match(error.message, /already has 2 raw-event exports streaming/);
      assert.equal(
        await count(`select 1 from audit_log where project_id = $1 and action = 'export.events_requested'`, [
          projects[0],
        ]),
        EXPORT_PROJECT_CONNECTIONS,
        'the refused download is not in the audit log',
      );

      // Another project is not held back: its export streams to the end.
      const theirs = await fetch(`${api.baseUrl}/analytics/export/events?format=ndjson&${RANGE}`, {
        headers: { Authorization: `Bearer ${other}` },
      });
      assert.equal(theirs.status, 200);
      assert.equal((await theirs.text()).split('\n').filter(Boolean).length, 3);

      // A reader that goes away gives its share back.
      open.shift()!.stop();
      const again = await waitFor('the project to have a share free', async () => {
        const next = await held(greedy);
        open.push(next);
        return next.status === 200 && next;
      });
      assert.equal(again.status, 200);
    } finally {
      for (const one of open) one.stop();
    }
  });
});
