import assert from 'node:assert/strict';
import { grownSessions } from '../../domain/contribution/growth.js';
import type { SessionContribution } from '../../domain/contribution/types.js';
import type { PoolClient } from '../../lib/db.js';
import { ContributionDeltas } from '../../store/contributions.js';
import { asStored as stored, frictionSessions, prefixContribution as prefix } from './simulated-sessions.js';

const PROJECT = '00000000-0000-4000-8000-000000000001';
const emptyContribution: SessionContribution = {
  session_id: 's1',
  user_id: 'u1',
  day: '2026-11-02',
  started_at: Date.UTC(2026, 10, 2, 10),
  ended_at: Date.UTC(2026, 10, 2, 10, 5),
  events: 3,
  pages: [],
  elements: [],
  features: [],
  contexts: [],
  signals: [],
};

/** The statements `deltas` writes, with their parameters: what reaches the tables. */
async function written(deltas: ContributionDeltas): Promise<{ sql: string; params: unknown[] }[]> {
  const calls: { sql: string; params: unknown[] }[] = [];
  const client = {
    query(sql: string, params: unknown[]) {
      calls.push({ sql, params });
      return Promise.resolve({ rows: [] });
    },
  } as unknown as PoolClient;
  await deltas.apply(client);
  return calls;
}

describe('ContributionDeltas of a grown session (store/contributions.ts)', () => {
  it('writes what taking the old contribution away and adding the fresh one writes, event by event', async () => {
    let pairs = 0;
    let withChanges = 0;
    // Simulated users' sessions with planted friction, as the analytics sink splits them.
    const sessions = frictionSessions(11);
    for (const session of sessions) {
      for (let n = 1; n < session.events.length; n++) {
        const grown = grownSessions([stored(prefix(session, n))], [prefix(session, n + 1)]);
        if (!grown) continue;
        const whole = new ContributionDeltas();
        const growth = new ContributionDeltas();
        for (const [old, fresh] of grown) {
          whole.add(PROJECT, old, -1);
          whole.add(PROJECT, fresh, 1);
          growth.addGrowth(PROJECT, [old, fresh]);
        }
        const expected = await written(whole);
        assert.deepEqual(await written(growth), expected, `${session.session_id}, event ${n + 1}`);
        pairs++;
        if (expected.some((w) => /feature_daily|friction_element_daily|event_context_daily/.test(w.sql))) withChanges++;
      }
    }
    // Enough growths, and among them some that move items (not only the per-session rows).
    assert.ok(pairs > 200, `${pairs} grown pairs`);
    assert.ok(withChanges > 50, `${withChanges} moved an item's row`);
  });

  it('pairs each old item with one fresh item at most (an item held twice is not cancelled twice)', async () => {
    const feature = {
      feature: 'export',
      impressions: 1,
      uses: 0,
      empty_state_impressions: 0,
      data_volume_sum: 0,
      data_volume_n: 0,
      first_seen_at: 1,
      first_used_at: null,
      first_use_source: null,
    };
    const old: SessionContribution = { ...emptyContribution, features: [feature] };
    const fresh: SessionContribution = { ...emptyContribution, events: 4, features: [feature, { ...feature }] };
    const whole = new ContributionDeltas();
    whole.add(PROJECT, old, -1);
    whole.add(PROJECT, fresh, 1);
    const growth = new ContributionDeltas();
    growth.addGrowth(PROJECT, [old, fresh]);
    const expected = await written(whole);
    assert.ok(expected.some((w) => /feature_daily/.test(w.sql)));
    assert.deepEqual(await written(growth), expected);
  });

  it('takes away an item the fresh contribution no longer holds, and adds one it holds anew', async () => {
    const base: SessionContribution = {
      ...emptyContribution,
      contexts: [
        {
          event: 'click',
          context: 'empty_state',
          count: 1,
          successes: 0,
          dead_click: 1,
          rage_click: 0,
          confusion_loop: 0,
          backtrack: 0,
        },
      ],
    };
    const fresh: SessionContribution = {
      ...base,
      events: 4,
      contexts: [
        {
          event: 'click',
          context: 'with_data_present',
          count: 1,
          successes: 1,
          dead_click: 0,
          rage_click: 0,
          confusion_loop: 0,
          backtrack: 0,
        },
      ],
    };
    const growth = new ContributionDeltas();
    growth.addGrowth(PROJECT, [base, fresh]);
    const contexts = (await written(growth)).find((w) => /event_context_daily/.test(w.sql));
    assert.deepEqual(contexts?.params.slice(2, 4), [
      ['empty_state', 'with_data_present'],
      ['2026-11-02', '2026-11-02'],
    ]);
    assert.deepEqual(contexts?.params[4], [-1, 1]);
  });
});
