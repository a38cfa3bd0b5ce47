import assert from 'node:assert/strict';
import { seededRandom } from '../../domain/random.js';
import { fitScaler, kMeans, meanSilhouette } from '../../domain/cohorts/kmeans.js';

describe('k-means toolkit', () => {
  it('draws the same numbers from the same seed', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const xs = Array.from({ length: 100 }, () => a());
    assert.deepEqual(
      xs,
      Array.from({ length: 100 }, () => b()),
    );
    assert.ok(xs.every((x) => x >= 0 && x < 1));
    assert.notDeepEqual(xs, Array.from({ length: 100 }, seededRandom(43)));
  });

  it('computes the silhouette by hand', () => {
    // Two pairs on a line: {0, 1} and {4, 5}. For 0: a = 1, b = (4 + 5) / 2 = 4.5, s = 3.5 / 4.5;
    // for 1: a = 1, b = 3.5, s = 2.5 / 3.5; the other pair mirrors them.
    const s = meanSilhouette([[0], [1], [4], [5]], [0, 0, 1, 1], 2);
    assert.ok(Math.abs(s - (3.5 / 4.5 + 2.5 / 3.5) / 2) < 1e-12);
  });

  it('k-means finds well-separated blobs', () => {
    const random = seededRandom(1);
    const points = [0, 10, 20].flatMap((c) => Array.from({ length: 15 }, () => [c + random(), -c + random()]));
    const fit = kMeans(points, 3, seededRandom(2), { restarts: 5, maxIterations: 100 });
    for (let b = 0; b < 3; b++) {
      const labels = new Set(fit.labels.slice(b * 15, b * 15 + 15));
      assert.equal(labels.size, 1, `blob ${b} split`);
    }
    assert.equal(new Set(fit.labels).size, 3);
  });

  it('scales each feature to mean 0 and deviation 1, a constant one to 0', () => {
    const s = fitScaler([
      [1, 5, 0, 0, 0, 0],
      [3, 5, 0, 0, 0, 0],
    ]);
    assert.deepEqual(s.mean.slice(0, 2), [2, 5]);
    assert.deepEqual(s.std.slice(0, 2), [1, 0]);
  });
});
