import assert from 'node:assert/strict';
import { FOLDED, dayOf, folded, namesOf } from '../../domain/name-caps.js';

describe('name caps: the names an event brings in, folded', () => {
  const e = { event: 'feature_used', properties: { feature: 'export', page: '/home', element: '', x: 1 } };

  it('names the event, its feature, page and element (not empty ones)', () => {
    assert.deepEqual(namesOf(e), [
      { kind: 'event', name: 'feature_used' },
      { kind: 'feature', name: 'export' },
      { kind: 'page', name: '/home' },
    ]);
  });

  it('folds what is refused into one name and leaves the rest, the original untouched', () => {
    const out = folded(e, (kind) => kind !== 'feature');
    assert.deepEqual(out.kinds, ['feature']);
    assert.deepEqual(out.event, { event: 'feature_used', properties: { ...e.properties, feature: FOLDED } });
    assert.equal(e.properties.feature, 'export');
    const all = folded(e, () => false);
    assert.equal(all.event.event, FOLDED);
    assert.equal(folded(e, () => true).event, e, 'nothing refused: the same event');
  });

  it('days are UTC', () => assert.equal(dayOf(Date.UTC(2026, 0, 1, 23, 59)), '2026-01-01'));
});
