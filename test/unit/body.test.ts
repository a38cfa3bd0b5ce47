import assert from 'node:assert/strict';
import { MAX_DEPTH, problemAt } from '../../api/body.js';

describe('strings Postgres cannot store', () => {
  const cases: [string, unknown, string | undefined][] = [
    ['plain', { a: 'text ✓ 😀', b: [1, 'x'] }, undefined],
    ['NUL in a value', { a: { b: 'x\u0000y' } }, 'a.b'],
    ['NUL in a key', { 'k\u0000': 1 }, 'k\u0000'],
    ['lone high surrogate', { list: ['ok', '\ud800'] }, 'list[1]'],
    ['lone low surrogate', '\udc00x', ''],
    ['paired surrogates', { e: '\ud83d\ude00' }, undefined],
    ['numbers and null', [null, 1, true], undefined],
  ];
  for (const [name, value, path] of cases) {
    it(name, () => assert.equal(problemAt(value, '')?.path, path));
  }
});

describe('nesting depth of bodies', () => {
  const nested = (depth: number) => {
    let value: unknown = 'leaf';
    for (let i = 0; i < depth; i++) value = [value];
    return value;
  };
  it(`allows ${MAX_DEPTH} levels and refuses deeper ones, without recursion`, () => {
    assert.equal(problemAt({ a: nested(MAX_DEPTH - 1) }, ''), undefined);
    assert.equal(problemAt({ a: nested(MAX_DEPTH) }, '')?.reason, 'too_deep');
    assert.equal(problemAt(nested(100_000), '')?.reason, 'too_deep');
  });
});
