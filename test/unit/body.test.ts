import assert from 'node:assert/strict';
import { MAX_DEPTH, problemAt } from '../../api/body.js';
import { seededRandom } from '../../domain/random.js';

describe('strings Postgres cannot store', () => {
  const cases: [string, unknown, string | undefined][] = [
    ['plain', { a: 'text ✓ 😀', b: [1, 'x'] }, undefined],
    ['NUL in a value', { a: { b: 'x\u0000y' } }, 'a.b'],
    ['NUL in a key', { 'k\u0000': 1 }, 'k\u0000'],
    ['lone high surrogate', { list: ['ok', '\ud800'] }, 'list[1]'],
    ['lone low surrogate', '\udc00x', ''],
    ['paired surrogates', { e: '\ud83d\ude00' }, undefined],
    ['numbers and null', [null, 1, true], undefined],
    ['in an array at the top', [['ok', '\u0000']], '[0][1]'],
    ['in an object in an array', { events: [{}, { p: { q: ['\ud800'] } }] }, 'events[1].p.q[0]'],
    ['a key in an array', { a: [{ ok: 1 }, { 'b\u0000': 1 }] }, 'a[1].b\u0000'],
    ["an object's keys before its values", { a: 'x\u0000', 'b\u0000': 1 }, 'b\u0000'],
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

// problemAt before it built paths only for problems: the reference for its answers.
// eslint-disable-next-line no-control-regex -- matching U+0000 is the point
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
function oldProblemAt(root: unknown, rootPath: string): { path: string; reason: string } | undefined {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value: root, path: rootPath, depth: 0 }];
  while (stack.length > 0) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      if (UNSTORABLE.test(value)) return { path, reason: 'invalid_characters' };
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_DEPTH) return { path, reason: 'too_deep' };
    const entries: [string, unknown][] = Array.isArray(value)
      ? value.map((item, i) => [`${path}[${i}]`, item])
      : Object.entries(value).map(([key, item]) => [path ? `${path}.${key}` : key, item]);
    if (!Array.isArray(value)) {
      const badKey = Object.keys(value).find((key) => UNSTORABLE.test(key));
      if (badKey !== undefined) return { path: path ? `${path}.${badKey}` : badKey, reason: 'invalid_characters' };
    }
    for (let i = entries.length - 1; i >= 0; i--)
      stack.push({ value: entries[i]![1], path: entries[i]![0], depth: depth + 1 });
  }
  return undefined;
}

describe('problemAt answers as it did when it built every path', () => {
  it('on random bodies: the same problem and path', () => {
    const random = seededRandom(45);
    const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)]!;
    const strings = ['', 'a', 'x y', '\ud83d\ude00', 'bad\u0000', '\ud800', 'é\udc00'];
    const keys = ['', 'a', 'b.c', 'list', '0', '\u0000', 'k\ud800'];
    const key = (i: number) => (random() < 0.1 ? pick(keys) : `k${i}`);
    const value = (depth: number): unknown => {
      const kind = random();
      if (depth > 4 || kind < 0.35) return random() < 0.9 ? pick<unknown>([null, 1, true, 'a']) : pick(strings);
      const width = Math.floor(random() * 4);
      if (kind < 0.65) return Array.from({ length: width }, () => value(depth + 1));
      return Object.fromEntries(Array.from({ length: width }, (_, i) => [key(i), value(depth + 1)]));
    };
    // Half the bodies sit at the end of a chain around MAX_DEPTH long, so that too_deep comes too.
    const body = () => {
      let inner = value(0);
      const levels = random() < 0.5 ? 0 : MAX_DEPTH - 4 + Math.floor(random() * 8);
      for (let i = 0; i < levels; i++) {
        const sibling = random() < 0.9 ? i : value(3);
        inner = random() < 0.5 ? [sibling, inner] : { [key(0)]: sibling, [key(1)]: inner };
      }
      return inner;
    };
    const found: Record<string, number> = { none: 0, invalid_characters: 0, too_deep: 0 };
    for (let i = 0; i < 20_000; i++) {
      const input = body();
      const expected = oldProblemAt(input, '');
      assert.deepEqual(problemAt(input, ''), expected, JSON.stringify(input));
      found[expected?.reason ?? 'none']!++;
    }
    assert.ok(
      Object.values(found).every((n) => n > 1000),
      JSON.stringify(found),
    );
  });
});
