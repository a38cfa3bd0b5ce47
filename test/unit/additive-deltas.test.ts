import assert from 'node:assert/strict';
import type { PoolClient } from '../../lib/db.js';
import { type AdditiveTable, AdditiveDeltas, int } from '../../store/additive-deltas.js';

const PAGES: AdditiveTable = {
  table: 'pages',
  keys: [['page', 'text']],
  values: [['views', int]],
};
const DAYS: AdditiveTable = {
  table: 'days',
  keys: [['day', 'date']],
  values: [
    ['sessions', int],
    ['users', int],
  ],
};

/** Records the statements and their parameters; the upsert reports no row left at zero. */
function recordingClient() {
  const calls: { sql: string; params: unknown[][] }[] = [];
  const client = {
    query(sql: string, params: unknown[][]) {
      calls.push({ sql, params });
      return Promise.resolve({ rows: [] });
    },
  };
  return { calls, client: client as unknown as PoolClient };
}

describe('AdditiveDeltas', () => {
  it('writes net changes only, tables in name order and rows in key order', async () => {
    const deltas = new AdditiveDeltas();
    deltas.add(PAGES, 'p1', { page: '/z', views: 2 }, 1);
    deltas.add(PAGES, 'p1', { page: '/a', views: 1 }, 1);
    deltas.add(PAGES, 'p1', { page: '/m', views: 3 }, 1);
    deltas.add(PAGES, 'p1', { page: '/m', views: 3 }, -1); // cancels out: not written
    deltas.add(DAYS, 'p1', { day: '2026-11-02', sessions: 1, users: '2' }, 1);
    deltas.add(DAYS, 'p1', { day: '2026-11-01', sessions: 1, users: 0 }, -1);
    const { calls, client } = recordingClient();
    await deltas.apply(client);
    assert.equal(calls.length, 2);
    assert.match(calls[0]!.sql, /insert into days /);
    assert.deepEqual(calls[0]!.params, [
      ['p1', 'p1'],
      ['2026-11-01', '2026-11-02'],
      [-1, 1],
      [0, 2],
    ]);
    assert.match(calls[1]!.sql, /insert into pages /);
    assert.deepEqual(calls[1]!.params, [
      ['p1', 'p1'],
      ['/a', '/z'],
      [1, 2],
    ]);
  });

  it('deletes exactly the rows the upsert left at zero', async () => {
    const deltas = new AdditiveDeltas();
    deltas.add(PAGES, 'p1', { page: '/a', views: 1 }, -1);
    const calls: string[] = [];
    const client = {
      query(sql: string) {
        calls.push(sql);
        return Promise.resolve({ rows: calls.length === 1 ? [{ project_id: 'p1', page: '/a' }] : [] });
      },
    } as unknown as PoolClient;
    await deltas.apply(client);
    assert.equal(calls.length, 2);
    assert.match(calls[1]!, /delete from pages t/);
  });

  it('keeps rows apart whose keys differ only in type or in where one part ends', async () => {
    const PAGE_DAYS: AdditiveTable = {
      ...DAYS,
      table: 'page_days',
      keys: [
        ['page', 'text'],
        ['day', 'date'],
      ],
    };
    const deltas = new AdditiveDeltas();
    deltas.add(PAGE_DAYS, 'p1', { page: null, day: '1', sessions: 1, users: 1 }, 1);
    deltas.add(PAGE_DAYS, 'p1', { page: 'null', day: '1', sessions: 1, users: 1 }, 1);
    deltas.add(PAGE_DAYS, 'p1', { page: 'a', day: 'b', sessions: 1, users: 1 }, 1);
    deltas.add(PAGE_DAYS, 'p1', { page: 'ab', day: '', sessions: 1, users: 1 }, 1);
    deltas.add(PAGE_DAYS, 'p1', { page: 'ab', day: '', sessions: 1, users: 1 }, 1);
    const { calls, client } = recordingClient();
    await deltas.apply(client);
    const [projects, pages, days, sessions] = calls[0]!.params;
    assert.equal(projects!.length, 4);
    assert.deepEqual(
      pages!.map((page, i) => [page, days![i], sessions![i]]),
      [
        [null, '1', 1],
        ['a', 'b', 1],
        ['ab', '', 2],
        ['null', '1', 1],
      ],
    );
  });
});
