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

  it('carries the privacy switches of the script tag (consent first, Do-Not-Track, path redaction)', async () => {
    const code = await bundleTracker();
    for (const name of ['require-consent', 'respect-dnt', 'redact-paths', 'doNotTrack', 'piRedactPath']) {
      assert.ok(code.includes(name), `the bundle reads ${name}`);
    }
  });

  it('is one self-contained script: no import, no require', async () => {
    const code = await bundleTracker();
    assert.doesNotMatch(code, /\bimport\s*[{("']|\brequire\(/);
  });
});
