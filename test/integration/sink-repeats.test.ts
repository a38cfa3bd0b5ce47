import assert from 'node:assert/strict';
import { inTransaction } from '../../lib/db.js';
import type { TrackedEventRecord } from '../../domain/tracked-event.js';
import { type EventOnWire, sealValue } from '../../domain/sealed-user.js';
import { analyticsSink, applyEvents } from '../../processors/analytics-sink/runner.js';
import { PartitionSessions } from '../../processors/sessionize/core.js';
import { type ChainOnWire, chainRecord, sealChain } from '../../processors/sessionize/record.js';
import { DEFAULT_ANALYTICS } from '../../domain/analytics-config.js';
import { rawSink } from '../../processors/raw-sink/runner.js';
import { ensureUserKeys, userRefOf } from '../../store/user-keys.js';
import { closeServices, newProject, services, partitionWrites, sealedEventMessage } from './helpers.js';

/**
 * A message and its repeat (a client retry) in one batch: the first received is kept, whatever
 * plan Postgres picks for the insert. Many rows in the batch make a hashed plan likely.
 */
describe('sinks keep the first of repeated message ids within a batch', () => {
  after(() => closeServices());

  it('stores the earliest received_at and offset for raw_events and session_events', async () => {
    const { projectId } = await newProject();
    const t = Date.UTC(2026, 10, 20, 12);
    const record = (i: number, receivedAt: number): TrackedEventRecord => ({
      project_id: projectId,
      message_id: `m-${i}`,
      user_id: `u-${i % 7}`,
      event: 'page_view',
      timestamp: t + i * 1000,
      received_at: receivedAt,
      properties: JSON.stringify({ page: `/p${i % 3}` }),
    });
    const originals = Array.from({ length: 400 }, (_, i) => record(i, t + 10_000));
    const repeats = originals.filter((_, i) => i % 4 === 0).map((r) => ({ ...r, received_at: t + 99_000 }));
    const messages = [...originals, ...repeats].map((value, offset) => ({ partition: 0, offset, key: null, value }));
    await inTransaction(services().db, (client) => rawSink.write(client, messages, partitionWrites()(messages.length)));
    await inTransaction(services().db, (client) => applyEvents(client, messages));
    for (const table of ['raw_events', 'session_events']) {
      const { rows } = await services().db.query<{ n: number; late: number; max_offset: number }>(
        `select count(*)::int as n, count(*) filter (where received_at > to_timestamp($2 / 1000.0))::int as late,
                max(kafka_offset)::int as max_offset
         from ${table} where project_id = $1`,
        [projectId, t + 10_000],
      );
      assert.deepEqual(rows[0], { n: 400, late: 0, max_offset: 399 }, table);
    }
  });
});

/**
 * Message ids are unique per project only as far as clients keep them so: another user's event
 * with the same id, or a repeat sent again with another time, must not be counted as the stored
 * copy when the analytics sink checks a chain.
 */
describe('the analytics sink and chains carrying other copies of stored ids', () => {
  after(() => closeServices());

  it("re-splits a chain holding another user's id, and a repeat re-stamped after the sessionizer forgot the first", async () => {
    const { projectId } = await newProject();
    const t = Date.UTC(2026, 10, 20, 12);
    const event = (user: string, id: string, at: number, offset: number) => ({
      projectId,
      event: {
        message_id: id,
        user_id: user,
        event: 'click',
        timestamp: at,
        received_at: at,
        offset,
        properties: '{}',
      },
    });
    const rules = () => DEFAULT_ANALYTICS.session;
    // One batch through the sessionizer, and its chains (the batch's events new to them) through the sink.
    const writes = partitionWrites();
    const send = async (s: PartitionSessions, events: Parameters<PartitionSessions['add']>[0]) => {
      const step = s.add(events, rules);
      step.commit();
      const { committed } = await inTransaction(services().db, (client) =>
        analyticsSink.write(
          client,
          step.chains.map((c, i) => ({ partition: 0, offset: i, key: null, value: chainRecord(c) })),
          writes(step.chains.length),
        ),
      );
      committed?.();
    };
    const sessionsOf = async (user: string) =>
      (
        await services().db.query<{ events: number; started: number }>(
          `select events, (extract(epoch from started_at) * 1000)::bigint as started from sessions
           where project_id = $1 and user_id = $2 order by started_at`,
          [projectId, user],
        )
      ).rows.map((r) => [r.events, Number(r.started)]);

    // u1 and u2 both send id "1" in one batch: the first read (u1's) is stored; u2's session is d alone.
    await send(new PartitionSessions(3_600_000), [
      event('u1', '1', t, 0),
      event('u2', '1', t + 1000, 1),
      event('u2', 'd', t + 2000, 2),
    ]);
    assert.deepEqual(await sessionsOf('u1'), [[1, t]]);
    assert.deepEqual(await sessionsOf('u2'), [[1, t + 2000]]);

    // u3's "a" is stored at t; the sessionizer forgets u3; "a" comes again stamped 2 min later, then b.
    const forgetful = new PartitionSessions(1);
    await send(forgetful, [event('u3', 'a', t, 10)]);
    await send(forgetful, [event('x', 'x', t + 60_000, 11)]); // u3 idle: forgotten
    await send(forgetful, [event('u3', 'a', t + 120_000, 12)]);
    await send(forgetful, [event('u3', 'b', t + 180_000, 13)]);
    // The split of u3's stored events (a at t, b 3 min later): one session from t.
    assert.deepEqual(await sessionsOf('u3'), [[2, t]]);
  });
});

/**
 * The sink holds a user's last chain as split under the project's session rules; once the rules
 * change, the chain may not be complete under the new ones (a longer gap joins it to the one
 * before), so the user's stored sessions are read and split again.
 */
describe('the analytics sink after a change of the session rules', () => {
  after(() => closeServices());

  it('splits again with the new gap what the held chain would have left apart', async () => {
    const { projectId } = await newProject();
    const t = Date.UTC(2026, 10, 20, 12);
    const minute = 60_000;
    const sessionizer = new PartitionSessions(6 * 3_600_000);
    const writes = partitionWrites();
    const send = async (id: string, at: number, offset: number) => {
      const step = sessionizer.add(
        [
          {
            projectId,
            event: {
              message_id: id,
              user_id: 'u',
              event: 'click',
              timestamp: at,
              received_at: at,
              offset,
              properties: '{}',
            },
          },
        ],
        () => DEFAULT_ANALYTICS.session,
      );
      step.commit();
      const { committed } = await inTransaction(services().db, (client) =>
        analyticsSink.write(
          client,
          step.chains.map((c, i) => ({ partition: 0, offset: offset + i, key: null, value: chainRecord(c) })),
          writes(step.chains.length),
        ),
      );
      committed?.();
    };
    const sessions = async () =>
      (
        await services().db.query<{ events: number }>(
          'select events from sessions where project_id = $1 and user_id = $2 order by started_at',
          [projectId, 'u'],
        )
      ).rows.map((r) => r.events);

    await send('a', t, 0);
    await send('b', t + 1000, 1);
    await send('c', t + 40 * minute, 2); // 40 min after b: a session (and chain) of its own at the default 30 min
    assert.deepEqual(await sessions(), [2, 1]);
    await services().db.query(
      `update projects set settings = jsonb_set(settings, '{analytics}', '{"session": {"gapMs": 3600000}}')
       where project_id = $1`,
      [projectId],
    );
    await send('d', t + 41 * minute, 3);
    // A split of a, b, c, d with a 60 min gap: one session.
    assert.deepEqual(await sessions(), [4]);
  });
});

/**
 * Message ids travel sealed with each user's key, and in the clear as a token of that key
 * (docs/adr/0080-message-ids-sealed.md): the sinks de-duplicate on the opened id, so a repeat is
 * refused whoever sends it, in whichever form (the id in the clear, as written before) and batch.
 */
describe('the sinks and repeats of sealed message ids', () => {
  after(() => closeServices());

  it('store one event per message id of a project in raw_events and session_events', async () => {
    const { projectId } = await newProject();
    const db = services().db;
    const t = Date.now() - 3_600_000;
    const keyOf = async (user: string) => {
      const ref = await userRefOf(db, projectId, user);
      return { ref, key: (await ensureUserKeys(db, projectId, [ref])).get(ref)! };
    };
    /** i-th sent: the message id, its sender and whether it is written as before message ids were sealed. */
    const sent: [string, string, 'clear id' | 'sealed id'][] = [
      ['u1', 'u1-signup', 'sealed id'],
      ['u1', 'u1-signup', 'sealed id'], // a client retry
      ['u2', 'u1-signup', 'sealed id'], // another user's client reusing the id: another token
      ['u3', 'u3-signup', 'clear id'],
      ['u3', 'u3-signup', 'sealed id'], // the same id again, since sealed
      ['u3', 'u3-click', 'sealed id'],
    ];
    const records = sent.map(([user, id], i): TrackedEventRecord => ({
      project_id: projectId,
      message_id: id,
      user_id: user,
      event: 'click',
      timestamp: t + i * 1000,
      received_at: t + i * 1000,
      properties: JSON.stringify({ i }),
    }));

    // Each in a transaction of its own: a repeat meets the stored copy, not one of its batch.
    const rawWrites = partitionWrites();
    for (const [i, record] of records.entries()) {
      let value: EventOnWire = (await sealedEventMessage(record)).value;
      if (sent[i]![2] === 'clear id') {
        const { ref, key } = await keyOf(record.user_id);
        const { user_id, properties, ...clear } = record;
        value = { ...clear, user_ref: ref, sealed: sealValue(key, `${projectId}:${ref}`, { user_id, properties }) };
      }
      const messages = [{ partition: 0, offset: i, key: null, value }];
      await inTransaction(db, (client) => rawSink.write(client, messages, rawWrites(1)));
    }

    // The sessionizer as after a restart before each event (it forgot the ones before), sealing
    // each chain with the user's key.
    const analyticsWrites = partitionWrites(1);
    for (const [i, record] of records.entries()) {
      const step = new PartitionSessions(3_600_000).add(
        [{ projectId, event: { ...record, offset: i } }],
        () => DEFAULT_ANALYTICS.session,
      );
      step.commit();
      const { ref, key } = await keyOf(record.user_id);
      const chains = step.chains.map((c): ChainOnWire => {
        const sealed = sealChain(chainRecord(c), ref, key);
        if (sent[i]![2] === 'sealed id') return sealed;
        // Written before message ids were sealed: the ids in the clear, none in `sealed`.
        const { user_id, sessions } = chainRecord(c);
        const properties = sessions.flatMap((s) => s.events.map((e) => e.properties));
        return {
          ...sealed,
          sealed: sealValue(key, `${projectId}:${ref}`, { user_id, properties }),
          sessions: sessions.map((s) => ({
            session_id: s.session_id,
            events: s.events.map(({ properties: _, ...e }) => e),
          })),
        };
      });
      const messages = chains.map((value, j) => ({ partition: 1, offset: i + j, key: null, value }));
      const { committed } = await inTransaction(db, (client) =>
        analyticsSink.write(client, messages, analyticsWrites(messages.length)),
      );
      committed?.();
    }

    for (const table of ['raw_events', 'session_events']) {
      const { rows } = await db.query<{ message_id: string; user_id: string; properties: { i: number } }>(
        `select message_id, user_id, properties from ${table} where project_id = $1 order by message_id`,
        [projectId],
      );
      assert.deepEqual(
        rows.map((r) => [r.message_id, r.user_id, r.properties.i]),
        [
          ['u1-signup', 'u1', 0],
          ['u3-click', 'u3', 5],
          ['u3-signup', 'u3', 3],
        ],
        table,
      );
    }
  });
});
