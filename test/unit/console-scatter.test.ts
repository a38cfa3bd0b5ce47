import assert from 'node:assert/strict';
import fs from 'node:fs';
import { EXPLANATIONS, efficiencyWords } from '../../console/src/explain.js';
import { type Box, overlaps, placeLabels, scatter } from '../../console/src/scatter.js';

const COLORS = Array.from({ length: 4 }, () => ({ color: '#000000', shape: 'circle' }));
const area: Box = { x: 0, y: 0, width: 400, height: 300 };
const marker = (x: number, y: number): Box => ({ x: x - 7, y: y - 7, width: 14, height: 14 });

describe('console feature scatter', () => {
  it('places labels beside their points without overlapping each other, points or the line labels', () => {
    const points = [
      { x: 100, y: 100 },
      { x: 104, y: 102 },
      { x: 108, y: 98 },
      { x: 300, y: 200 },
      { x: 395, y: 150 },
    ];
    const wanted = points.map((p, i) => ({ ...p, text: `feature ${i}`, width: 60 }));
    const lines = [{ x: 290, y: 185, width: 80, height: 14 }];
    const { placed, hidden } = placeLabels(
      wanted,
      area,
      points.map((p) => marker(p.x, p.y)),
      lines,
    );
    assert.equal(placed.length + hidden.length, points.length);
    // Right of its point first; feature 0's right is taken by the points next to it, so it goes left.
    assert.deepEqual(placed[0], { x: 31, y: 93, width: 60, height: 14, text: 'feature 0' });
    for (const [i, a] of placed.entries()) {
      assert.ok(a.x >= 0 && a.y >= 0 && a.x + a.width <= 400 && a.y + a.height <= 300, `${a.text} inside`);
      for (const b of placed.slice(i + 1)) assert.ok(!overlaps(a, b), `${a.text} / ${b.text}`);
      for (const p of points) assert.ok(!overlaps(a, marker(p.x, p.y)), `${a.text} over a point`);
      assert.ok(!overlaps(a, lines[0]!), `${a.text} over a line label`);
    }
    const near = placed.find((p) => p.text === 'feature 4')!;
    assert.ok(near.x + near.width < 395, 'a point at the right edge is labelled on its left');
  });

  it('labels a point in a corner of the chart above it, clear of its own marker', () => {
    const { placed } = placeLabels([{ x: 33, y: 300, text: 'budgets', width: 130 }], area, [marker(33, 300)], []);
    assert.deepEqual(placed, [{ x: 35, y: 277, width: 130, height: 14, text: 'budgets' }]);
  });

  it('leaves out a label with no free spot, keeping the ones listed first', () => {
    const crowd = Array.from({ length: 30 }, (_, i) => ({ x: 200 + (i % 3), y: 150, text: `f${i}`, width: 50 }));
    const { placed, hidden } = placeLabels(crowd, area, [marker(201, 150)], []);
    assert.ok(placed.length >= 4 && placed.length <= 8, `${placed.length}`);
    assert.equal(placed[0]!.text, 'f0');
    assert.equal(hidden.length, 30 - placed.length);
  });

  it('draws the threshold lines and says every point’s name, values and quadrant on hover', () => {
    const config = scatter(
      [
        {
          name: 'export_csv',
          visibility_rate: 0.2,
          engagement_conversion: 0.75,
          quadrant: 'low_visibility_high_usage',
        },
      ],
      { visibility_rate: 0.5, engagement_conversion: 0.5 },
      COLORS,
    );
    assert.deepEqual(
      config.plugins?.map((p) => p.id),
      ['quadrantLines'],
    );
    const label = config.options!.plugins!.tooltip!.callbacks!.label as (item: unknown) => string;
    const item = { raw: { x: 20, y: 75, label: 'export_csv' }, dataset: { label: 'Hidden, used when found' } };
    assert.equal(label(item), 'export_csv: VR 20.0 %, EC 75.0 % (Hidden, used when found)');
  });
});

describe('console score explanations', () => {
  it('say what each score measures and its scale, in one sentence', () => {
    for (const [term, text] of Object.entries(EXPLANATIONS)) {
      assert.match(text, /^[A-Z][^:]+: /, term);
      assert.equal(text.split('. ').length, 1, `${term}: one sentence`);
      assert.match(text, /from 0|0 % to 100 %|in days|the mean time|share of all users/, `${term}: its scale`);
    }
  });

  it('use the formulas of docs/metrics.md', () => {
    const metrics = fs.readFileSync('docs/metrics.md', 'utf8');
    assert.match(metrics, /`\(1 − VR\) × EC × avg_days_to_discovery \/ 30`/);
    assert.match(EXPLANATIONS.discovery_gap_score, /\(1 − VR\) × EC × average days to discovery ÷ 30/);
    assert.match(metrics, /`efficiency_score` = optimal_steps ÷ actual_avg_steps, at most 1/);
    assert.match(
      EXPLANATIONS.efficiency_score,
      /shortest path .* ÷ the steps users took on this path on average, from 0 to 1/,
    );
    assert.match(metrics, /success_rate × quality factor/);
    assert.match(EXPLANATIONS.contextual_success_rate, /success rate × \(1 − Friction Index\) in an empty state/);
  });

  it('an efficiency score reads as how many times the shortest path’s steps users take', () => {
    assert.equal(efficiencyWords(1), 'shortest');
    assert.equal(efficiencyWords(0.5), '2× the steps');
    assert.equal(efficiencyWords(0.33), '3× the steps');
    assert.equal(efficiencyWords(0.4), '2.5× the steps');
    assert.equal(efficiencyWords(0.07), '14× the steps');
    assert.equal(efficiencyWords(0), '–');
  });
});
