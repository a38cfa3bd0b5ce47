import assert from 'node:assert/strict';
import { ConfigError, databaseName, loadConfig, withDatabase } from '../../lib/config.js';

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
});
