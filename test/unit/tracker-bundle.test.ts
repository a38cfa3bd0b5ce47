import assert from 'node:assert/strict';
import zlib from 'node:zlib';
import { bundleTracker } from '../../scripts/build-tracker.js';

describe('tracker bundle', () => {
  it('stays within 10 KB gzipped', async () => {
    const code = await bundleTracker();
    const gzipped = zlib.gzipSync(code, { level: 9 }).length;
    assert.ok(gzipped <= 10 * 1024, `${gzipped} bytes gzipped`);
    assert.ok(code.length > 1000, 'the bundle holds the tracker');
  });

  it('is one self-contained script: no import, no require', async () => {
    const code = await bundleTracker();
    assert.doesNotMatch(code, /\bimport\s*[{("']|\brequire\(/);
  });
});
