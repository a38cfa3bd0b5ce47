import assert from 'node:assert/strict';
import { unstorableString } from '../../api/body.js';

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
    it(name, () => assert.equal(unstorableString(value, ''), path));
  }
});
