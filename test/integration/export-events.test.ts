import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { parse } from 'csv-parse/sync';
import { topicName } from '../../lib/kafka/topics.js';
import { startProcessors } from '../../processors/main.js';
import {
  call,
  count,
  errorOf,
  newProject,
  services,
  startPipeline,
  stopPipeline,
  type TestPipeline,
  waitFor,
  waitForSink,
} from './helpers.js';

interface Sent {
  user_id: string;
  event: string;
  timestamp: string;
  message_id: string;
  properties: Record<string, unknown>;
}

interface Exported {
  message_id: string;
  user_id: string;
  event: string;
  occurred_at: string;
  received_at: string;
  properties: unknown;
}

const RANGE = 'date_range=custom&start=2025-06-01&end=2025-06-03';

describe('raw-event export over HTTP', () => {
  let pipeline: TestPipeline;
  let reader: string;
  let otherReader: string;
  const run = crypto.randomUUID().slice(0, 8);
  const sentAfter = new Date();
  const sent: Sent[] = [];
  const otherSent: Sent[] = [];
  const gone = `gone-${run}`;
  let made = 0;

  const event = (user: string, name: string, at: string, properties: Record<string, unknown> = {}): Sent => ({
    user_id: user,
    event: name,
    timestamp: at,
    message_id: `${run}-${++made}-${name}`,
    properties,
  });
  /** What the export must hold for the sent events: the range's rows in (occurred_at, message_id) order. */
  const expected = (events: Sent[], keep: (e: Sent) => boolean = () => true) =>
    events
      .filter((e) => e.user_id !== gone && e.timestamp >= '2025-06-01' && e.timestamp < '2025-06-04' && keep(e))
      .map((e) => ({
        message_id: e.message_id,
        user_id: e.user_id,
        event: e.event,
        occurred_at: new Date(e.timestamp).toISOString(),
        properties: e.properties,
      }))
      .sort((a, b) =>
        a.occurred_at === b.occurred_at
          ? a.message_id.localeCompare(b.message_id, 'en')
          : a.occurred_at.localeCompare(b.occurred_at),
      );
  const withoutReceived = (rows: Exported[]) =>
    rows.map(({ received_at, ...rest }) => {
      assert.ok(new Date(received_at) >= sentAfter, `received_at ${received_at} is the ingest time`);
      return rest;
    });

  async function download(query: string, key = reader, headers: Record<string, string> = {}) {
    const res = await fetch(`${pipeline.api.baseUrl}/analytics/export/events?${query}`, {
      headers: { Authorization: `Bearer ${key}`, ...headers },
    });
    return { res, text: await res.text() };
  }

  before(async () => {
    pipeline = await startPipeline(['raw-sink']);
    const project = await newProject(['admin'], ['analytics:read']);
    const [admin] = project.keys as [string, string];
    reader = project.keys[1]!;
    const other = await newProject(['admin']);
    otherReader = other.keys[0]!;

    sent.push(
      event(`a-${run}`, 'page_view', '2025-06-01T08:00:00.000Z', {
        page: '/a,b',
        label: 'say "hi", then leave',
        note: 'line one\nline two\r\nthree',
      }),
      event(`a-${run}`, 'click', '2025-06-01T08:00:00.000Z', { element: '#save', x: 1.5 }),
      event(`b,"${run}"`, 'click', '2025-06-02T23:59:59.999Z', { nested: { list: [1, null, 'é✓😀'] } }),
      event(`b,"${run}"`, 'feature_used', '2025-06-03T00:00:00.000Z', { feature: 'export' }),
      event(`a-${run}`, 'click', '2025-06-03T12:00:00.000Z'),
      event(`a-${run}`, 'click', '2025-05-31T23:59:59.999Z'), // the day before the range
      event(`a-${run}`, 'click', '2025-06-04T00:00:00.000Z'), // the day after
      event(gone, 'click', '2025-06-02T10:00:00.000Z', { secret: 'erased' }),
    );
    otherSent.push(event(`a-${run}`, 'click', '2025-06-02T10:00:00.000Z', { project: 'other' }));
    const post = async (key: string, events: Sent[]) =>
      assert.equal((await call(pipeline.api, 'POST', '/events/batch', { key, json: { events } })).status, 202);
    await post(admin, sent);
    await post(other.keys[0]!, otherSent);
    await waitForSink('raw-sink', topicName('events'));

    // One more event of the user while the raw-sink is down, then the erasure: the event was
    // received before the erasure and reaches the sink after it, and must stay out.
    await Promise.all(pipeline.sinks.map((s) => s.stop()));
    const inFlight = event(gone, 'click', '2025-06-02T11:00:00.000Z');
    sent.push(inFlight);
    await post(admin, [inFlight]);
    assert.equal((await call(pipeline.api, 'DELETE', `/users/${gone}`, { key: admin })).status, 200);
    pipeline.sinks = await startProcessors(services(), ['raw-sink']);
    await waitForSink('raw-sink', topicName('events'));
    assert.equal(await count('select 1 from raw_events where project_id = $1', [project.projectId]), 7);
  });
  after(() => stopPipeline(pipeline));

  it('CSV: an attachment with a header whose rows parse back to what was ingested (quoting included)', async () => {
    const { res, text } = await download(`format=csv&${RANGE}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'text/csv; charset=utf-8');
    assert.equal(res.headers.get('content-disposition'), 'attachment; filename="events_2025-06-01_2025-06-03.csv"');
    assert.ok(text.startsWith('message_id,user_id,event,occurred_at,received_at,properties\r\n'));
    const records = parse<Record<keyof Exported, string>>(text, { columns: true });
    assert.deepEqual(
      withoutReceived(records.map((r) => ({ ...r, properties: JSON.parse(r.properties) as unknown }))),
      expected(sent),
    );
    assert.match(text, /"b,""[^"]+"""/, 'a user id with a comma and quotes is quoted');
  });

  it('JSON: one array of the same rows', async () => {
    const { res, text } = await download(`format=json&${RANGE}`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json; charset=utf-8');
    assert.match(res.headers.get('content-disposition')!, /filename="events_2025-06-01_2025-06-03\.json"/);
    assert.deepEqual(withoutReceived(JSON.parse(text) as Exported[]), expected(sent));
  });

  it('NDJSON: by format=ndjson, or by Accept alone', async () => {
    const lines = (text: string) =>
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Exported);
    const byParam = await download(`format=ndjson&${RANGE}`);
    assert.equal(byParam.res.headers.get('content-type'), 'application/x-ndjson');
    assert.deepEqual(withoutReceived(lines(byParam.text)), expected(sent));
    const byAccept = await download(RANGE, reader, { Accept: 'application/x-ndjson' });
    assert.equal(byAccept.res.status, 200);
    assert.match(byAccept.res.headers.get('content-disposition')!, /\.ndjson"$/);
    assert.equal(byAccept.text, byParam.text);
  });

  it('filters by event_types and by date range', async () => {
    const clicks = await download(`format=json&${RANGE}&event_types=click,feature_used`);
    assert.deepEqual(
      withoutReceived(JSON.parse(clicks.text) as Exported[]),
      expected(sent, (e) => e.event === 'click' || e.event === 'feature_used'),
    );
    const oneDay = await download('format=json&date_range=custom&start=2025-06-03&end=2025-06-03');
    assert.deepEqual(
      withoutReceived(JSON.parse(oneDay.text) as Exported[]),
      expected(sent, (e) => e.timestamp.startsWith('2025-06-03')),
    );
    const none = await download('format=json&date_range=last_7_days');
    assert.equal(none.text, '[]');
    const emptyCsv = await download('format=csv&date_range=last_7_days');
    assert.equal(emptyCsv.text, 'message_id,user_id,event,occurred_at,received_at,properties\r\n');
  });

  it("never shows another project's events, nor an erased user's", async () => {
    const theirs = await download(`format=json&${RANGE}`, otherReader);
    assert.deepEqual(withoutReceived(JSON.parse(theirs.text) as Exported[]), expected(otherSent));
    const mine = await download(`format=csv&${RANGE}`);
    assert.ok(!mine.text.includes(gone) && !mine.text.includes('erased') && !mine.text.includes('other'));
  });

  it('answers 400 with the error body to bad parameters', async () => {
    for (const [query, field, reason] of [
      ['format=xml&date_range=last_7_days', 'format', 'invalid_value'],
      ['date_range=last_7_days', 'format', 'required'],
      ['format=csv', 'date_range', 'required'],
      ['format=csv&format=json&date_range=last_7_days', 'format', 'repeated'],
      ['format=csv&date_range=custom&start=2026-01-01', 'end', 'required'],
      ['format=csv&date_range=custom&start=2026-02-30&end=2026-03-01', 'start', 'invalid_format'],
      ['format=csv&date_range=custom&start=2026-03-02&end=2026-03-01', 'end', 'invalid_value'],
      ['format=csv&date_range=last_7_days&start=2026-03-01', 'start', 'not_allowed'],
      ['format=csv&date_range=yesterday', 'date_range', 'invalid_value'],
      [`format=csv&date_range=last_7_days&event_types=${'e'.repeat(256)}`, 'event_types', 'invalid_value'],
    ]) {
      const reply = await call(pipeline.api, 'GET', `/analytics/export/events?${query}`, { key: reader });
      assert.equal(reply.status, 400, query);
      assert.equal(reply.headers.get('content-type'), 'application/json; charset=utf-8', query);
      assert.deepEqual(errorOf(reply).details, { field, reason }, query);
    }
  });

  describe('a large export', () => {
    let bigReader: string;
    let bigProject: string;
    const ROWS = 60_000;
    const exportBackends = () =>
      count(
        `select 1 from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()
           and query like '%from raw_events%order by occurred_at, message_id%' and state <> 'idle'`,
      );

    before(async () => {
      const big = await newProject(['analytics:read']);
      [bigReader, bigProject] = [big.keys[0]!, big.projectId];
      await services().db.query(
        `insert into raw_events (project_id, message_id, user_id, event, properties, occurred_at, received_at,
                                 kafka_partition, kafka_offset)
         select $1, 'm' || i, 'u' || (i % 100), 'click', jsonb_build_object('i', i),
                '2025-06-01'::timestamptz + i * interval '1 second', now(), 0, i
         from generate_series(1, $2::int) i`,
        [bigProject, ROWS],
      );
    });
    after(() => services().db.query('delete from raw_events where project_id = $1', [bigProject]));

    it('streams every row, in order', async () => {
      const { text } = await download(`format=ndjson&${RANGE}`, bigReader);
      const lines = text.split('\n').filter(Boolean);
      assert.equal(lines.length, ROWS);
      assert.deepEqual(JSON.parse(lines[0]!), {
        message_id: 'm1',
        user_id: 'u1',
        event: 'click',
        occurred_at: '2025-06-01T00:00:01.000Z',
        received_at: (JSON.parse(lines[0]!) as Exported).received_at,
        properties: { i: 1 },
      });
      assert.equal((JSON.parse(lines.at(-1)!) as Exported).message_id, `m${ROWS}`);
    });

    it('releases the cursor and its connection when the client goes away', async () => {
      const abort = new AbortController();
      const res = await fetch(`${pipeline.api.baseUrl}/analytics/export/events?format=csv&${RANGE}`, {
        headers: { Authorization: `Bearer ${bigReader}` },
        signal: abort.signal,
      });
      const reader = res.body!.getReader();
      await reader.read();
      // The client stopped reading: the server is held by backpressure with its cursor open.
      await waitFor('the export cursor to be open', async () => (await exportBackends()) === 1);
      abort.abort();
      // Dropped, not pooled mid-cursor: no connection is left that ran the export.
      await waitFor(
        'the export connection to be closed',
        async () =>
          (await count(
            `select 1 from pg_stat_activity where datname = current_database()
               and query like '%from raw_events%order by occurred_at, message_id%' and pid <> pg_backend_pid()`,
          )) === 0,
      );
    });

    it('cuts the response, rather than ending it cleanly, when the database fails mid-stream', async () => {
      const res = await fetch(`${pipeline.api.baseUrl}/analytics/export/events?format=json&${RANGE}`, {
        headers: { Authorization: `Bearer ${bigReader}` },
      });
      assert.equal(res.status, 200);
      const reader = res.body!.getReader();
      await reader.read();
      await waitFor('the export cursor to be open', async () => (await exportBackends()) === 1);
      await services().db.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database()
           and pid <> pg_backend_pid() and query like '%from raw_events%order by occurred_at, message_id%'`,
      );
      await assert.rejects(async () => {
        for (;;) if ((await reader.read()).done) break;
      }, 'the body ends in a transfer error, so a partial file is never taken for a whole one');
    });
  });
});
