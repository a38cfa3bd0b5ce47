import assert from 'node:assert/strict';
import fs from 'node:fs';
import { ANSWER_TABLES, SHARED_SUM_TABLES, TABLES, USER_CHANGE_LOGS, USER_DATA_TABLES } from '../../store/tables.js';
import { analyticsSink } from '../../processors/analytics-sink/runner.js';
import { rawSink } from '../../processors/raw-sink/runner.js';

/** Each table of sql/schema.sql (the migrated schema, kept equal to the migrations by a test) and its columns. */
function schemaTables(): Map<string, string[]> {
  const sql = fs.readFileSync(new URL('../../sql/schema.sql', import.meta.url), 'utf8');
  const tables = new Map<string, string[]>();
  for (const [, name, body] of sql.matchAll(/^create table (\w+) \(\n([\s\S]*?)\n\);/gm)) {
    const columns = body!
      .split('\n')
      .map((line) => line.trim().split(' ')[0]!)
      .filter((word) => word !== 'constraint');
    tables.set(name!, columns);
  }
  return tables;
}

describe('the table registry (store/tables.ts)', () => {
  const schema = schemaTables();

  it('declares every table of the schema, and no other', () => {
    assert.ok(schema.size > 50, `read ${schema.size} tables from sql/schema.sql`);
    assert.deepEqual(Object.keys(TABLES).sort(), [...schema.keys()].sort());
  });

  it('erases every table with a user_id column, and only those', () => {
    const withUsers = [...schema].filter(([, columns]) => columns.includes('user_id')).map(([name]) => name);
    assert.deepEqual([...USER_DATA_TABLES, ...USER_CHANGE_LOGS].sort(), withUsers.sort());
  });

  it('gives each sink the tables it writes and a full replay of it rebuilds', () => {
    assert.deepEqual(rawSink.tables, ['raw_events']);
    for (const table of [...ANSWER_TABLES, ...SHARED_SUM_TABLES, 'sessions', 'session_events', 'user_metrics']) {
      assert.ok(analyticsSink.tables.includes(table), table);
    }
    // Moments are raised once: a replay does not raise them again, so it does not empty them.
    for (const moment of ['friction_alerts', 'friction_episodes', 'job_completions', 'job_interventions']) {
      assert.ok(!analyticsSink.tables.includes(moment), moment);
    }
  });

  it('has every shared row taken in key order and every per-user row under its user’s lock', () => {
    for (const [name, table] of Object.entries(TABLES)) {
      if (table.kind === 'shared-sum' || table.kind === 'answer') assert.equal(table.lock, 'key-order', name);
      if (table.kind === 'per-user') assert.equal(table.lock, 'user', name);
    }
  });
});
