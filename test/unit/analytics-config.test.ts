import assert from 'node:assert/strict';
import { analyticsConfig, configVersion } from '../../domain/analytics-config.js';

describe('configVersion', () => {
  it('names an effective config alike whatever the order of its overrides, and another config otherwise', () => {
    const a = analyticsConfig({ session: { gapMs: 60_000 }, rage: { minClicks: 4 } });
    const b = analyticsConfig({ rage: { minClicks: 4 }, session: { gapMs: 60_000 } });
    assert.equal(configVersion(a), configVersion(b));
    assert.equal(configVersion(analyticsConfig()), configVersion(analyticsConfig({})));
    assert.notEqual(configVersion(a), configVersion(analyticsConfig({ session: { gapMs: 60_000 } })));
    assert.match(configVersion(a), /^[0-9a-f]{24}$/);
  });
});
