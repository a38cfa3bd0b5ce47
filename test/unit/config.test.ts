import assert from 'node:assert/strict';
import { ConfigError, EXPORT_PROJECT_CONNECTIONS, databaseName, loadConfig, withDatabase } from '../../lib/config.js';

describe('config', () => {
  it('lists every problem at once', () => {
    assert.throws(
      () => loadConfig({ PORT: 'x', DATABASE_URL: 'mysql://h/db', KAFKA_BROKERS: 'nohost', LOG_LEVEL: 'loud' }),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.equal(err.problems.length, 4);
        assert.match(err.message, /PORT=x/);
        assert.match(err.message, /DATABASE_URL/);
        assert.match(err.message, /KAFKA_BROKERS/);
        assert.match(err.message, /LOG_LEVEL/);
        return true;
      },
    );
  });

  it('derives other databases on the same server', () => {
    const url = 'postgres://u:p%40ss@db:5432/pi?sslmode=disable';
    assert.equal(withDatabase(url, 'pi_test'), 'postgres://u:p%40ss@db:5432/pi_test?sslmode=disable');
    assert.equal(databaseName(url), 'pi');
  });

  it('reads the tenant shares of exports and the operator token', () => {
    const defaults = loadConfig({});
    assert.equal(defaults.exportProjectConnections, EXPORT_PROJECT_CONNECTIONS);
    assert.ok(defaults.exportProjectConnections < defaults.exportConnections, 'a project never takes the whole pool');
    assert.equal(defaults.warehouseRunDeadlineMs, 3_600_000);
    assert.equal(defaults.operatorToken, undefined, 'no operator token unless one is set');
    const set = loadConfig({
      PI_EXPORT_PROJECT_CONNECTIONS: '3',
      PI_WAREHOUSE_RUN_DEADLINE_MS: '600000',
      PI_OPERATOR_TOKEN: 'f'.repeat(64),
    });
    assert.deepEqual(
      [set.exportProjectConnections, set.warehouseRunDeadlineMs, set.operatorToken],
      [3, 600_000, 'f'.repeat(64)],
    );
    assert.throws(
      () =>
        loadConfig({
          PI_OPERATOR_TOKEN: 'short',
          PI_WAREHOUSE_RUN_DEADLINE_MS: '10',
          PI_EXPORT_PROJECT_CONNECTIONS: '0',
        }),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.equal(err.problems.length, 3, err.message);
        assert.match(err.message, /PI_OPERATOR_TOKEN: at least 32 characters/);
        return true;
      },
    );
  });
});
