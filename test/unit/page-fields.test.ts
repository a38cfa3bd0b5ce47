import assert from 'node:assert/strict';
import { pageFields } from '../../api/query.js';

describe('pageFields: what a list answer carries besides its items', () => {
  const page = (number: number, perPage: number, pageAlias = true) => ({
    page: number,
    perPage,
    offset: (number - 1) * perPage,
    pageAlias,
  });

  it('names the next page while items remain after this one, null on the last', () => {
    assert.deepEqual(pageFields(page(1, 1000), 1002), {
      total: 1002,
      page_number: 1,
      page: 1,
      per_page: 1000,
      next: 2,
    });
    assert.equal(pageFields(page(2, 1000), 1002).next, null);
    assert.equal(pageFields(page(1, 10), 10).next, null, 'exactly one full page');
    assert.equal(pageFields(page(1, 10), 11).next, 2);
    assert.equal(pageFields(page(1, 10), 0).next, null, 'an empty list');
    assert.equal(pageFields(page(5, 10), 11).next, null, 'beyond the last page');
  });

  it('carries page only where it is the older name of page_number', () => {
    assert.deepEqual(pageFields(page(3, 2, false), 9), { total: 9, page_number: 3, per_page: 2, next: 4 });
  });
});
