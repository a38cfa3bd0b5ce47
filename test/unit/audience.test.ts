import assert from 'node:assert/strict';
import { CriteriaError, parseCriteria, type Properties } from '../../domain/jobs/audience.js';

const matches = (criteria: string, properties: Properties) => parseCriteria(criteria)(properties);

describe('audience criteria', () => {
  describe('evaluates accepted expressions', () => {
    const user: Properties = {
      plan: 'pro',
      mrr: 150,
      trial: false,
      seats: 0,
      nickname: '',
      beta: true,
      deleted: null,
      company: { name: 'acme', size: 250, address: { country: 'DE' } },
      count: 5,
      code: '5',
    };
    const cases: [string, Properties, boolean][] = [
      // equality
      ["plan == 'pro'", user, true],
      ["plan == 'free'", user, false],
      ['plan == "pro"', user, true],
      ["plan != 'free'", user, true],
      ["plan != 'pro'", user, false],
      ['mrr == 150', user, true],
      ['mrr == 150.0', user, true],
      ['mrr != 150', user, false],
      ['1e2 == 100', user, true],
      // ordering on numbers
      ['mrr < 151', user, true],
      ['mrr < 150', user, false],
      ['mrr <= 150', user, true],
      ['mrr <= 149', user, false],
      ['mrr > 149', user, true],
      ['mrr > 150', user, false],
      ['mrr >= 150', user, true],
      ['mrr >= 151', user, false],
      // ordering on strings
      ["plan > 'free'", user, true],
      ["plan < 'free'", user, false],
      ["plan >= 'pro'", user, true],
      // logical operators and precedence
      ["plan == 'pro' && mrr >= 100", user, true],
      ["plan == 'pro' && mrr >= 200", user, false],
      ["plan == 'free' || mrr >= 100", user, true],
      ["plan == 'free' || mrr >= 200", user, false],
      ["plan == 'free' && mrr > 0 || beta", user, true],
      ["plan == 'free' && (mrr > 0 || beta)", user, false],
      ['!trial', user, true],
      ['!beta', user, false],
      ['!!beta', user, true],
      ["!(plan == 'pro')", user, false],
      ["plan == 'pro' && (mrr >= 100 || company.name in ['acme', 'globex']) && !trial", user, true],
      ["plan == 'pro' && (mrr >= 1000 || company.name in ['initech']) && !trial", user, false],
      // truthiness of bare values
      ['beta', user, true],
      ['trial', user, false],
      ['seats', user, false],
      ['nickname', user, false],
      ['deleted', user, false],
      ['company', user, true],
      ['!seats', user, true],
      ['!nickname', user, true],
      ['!deleted', user, true],
      ['!missing', user, true],
      ['missing', user, false],
      // in lists
      ["plan in ['pro', 'enterprise']", user, true],
      ["plan in ['free', 'enterprise']", user, false],
      ['mrr in [100, 150, 200]', user, true],
      ["mrr in ['150']", user, false],
      ['plan in []', user, false],
      ['beta in [true]', user, true],
      ['deleted in [null]', user, true],
      ['missing in [null]', user, false],
      // dotted members
      ['company.size == 250', user, true],
      ['company.size > 100', user, true],
      ['company.size < 100', user, false],
      ["company.address.country == 'DE'", user, true],
      ['company.missing == null', user, false],
      ['company.name.length == 4', user, false],
      ['plan.length == 3', user, false],
      ['company.size.x == 1', user, false],
      ['deleted.x == 1', user, false],
      ['missing.x == 1', user, false],
      // literals
      ['beta == true', user, true],
      ['trial == false', user, true],
      ['trial == true', user, false],
      ['deleted == null', user, true],
      ['deleted != null', user, false],
      ['plan != null', user, true],
      ['true', user, true],
      ['false', user, false],
      ['null', user, false],
    ];
    for (const [criteria, properties, expected] of cases) {
      it(`${criteria} → ${expected}`, () => {
        assert.equal(matches(criteria, properties), expected);
      });
    }
  });

  describe('missing properties never match comparisons', () => {
    const cases: string[] = [
      "plan == 'pro'",
      "plan != 'pro'",
      'plan == null',
      'plan != null',
      'mrr < 1',
      'mrr <= 1',
      'mrr > 1',
      'mrr >= 1',
      "plan in ['pro']",
      'company.size == 1',
      'company.size != 1',
      'company.size >= 0',
    ];
    for (const criteria of cases) {
      it(`${criteria} is false on {}`, () => {
        assert.equal(matches(criteria, {}), false);
      });
    }
  });

  describe('no type coercion', () => {
    const cases: [string, Properties][] = [
      ['count == 5', { count: '5' }],
      ["count == '5'", { count: 5 }],
      ["count != '5'", { count: '5' }],
      ["count >= '5'", { count: 5 }],
      ["count <= '5'", { count: 5 }],
      ["count > '4'", { count: 5 }],
      ['count < 6', { count: '5' }],
      ['flag == 1', { flag: true }],
      ['flag == true', { flag: 1 }],
      ['flag == false', { flag: 0 }],
      ["flag == ''", { flag: 0 }],
      ['flag == null', { flag: 0 }],
      ['flag == null', { flag: false }],
      ["count in ['5']", { count: 5 }],
      ['count in [5]', { count: '5' }],
      ['flag >= null', { flag: 0 }],
      ['flag < true', { flag: false }],
    ];
    for (const [criteria, properties] of cases) {
      it(`${criteria} is false on ${JSON.stringify(properties)}`, () => {
        assert.equal(matches(criteria, properties), false);
      });
    }

    it("'5' != 5 is a mismatch that matches !=", () => {
      assert.equal(matches('count != 5', { count: '5' }), true);
    });
  });

  describe('reaches own properties only', () => {
    const cases: [string, Properties, boolean][] = [
      ['constructor == 1', {}, false],
      ['constructor != null', {}, false],
      ['constructor', {}, false],
      ['!constructor', {}, true],
      ['toString != null', {}, false],
      ['toString', {}, false],
      ['hasOwnProperty != null', {}, false],
      ['__proto__ != null', {}, false],
      ['__proto__ == null', {}, false],
      ['__proto__', JSON.parse('{}') as Properties, false],
      ['__proto__.polluted == 1', JSON.parse('{}') as Properties, false],
      ['constructor.name != null', {}, false],
      ['constructor.prototype != null', {}, false],
      ['a.constructor != null', { a: {} }, false],
      ['a.toString != null', { a: {} }, false],
      ['a.__proto__ != null', { a: {} }, false],
      ['a.hasOwnProperty', { a: {} }, false],
      ['plan.constructor != null', { plan: 'pro' }, false],
      ['list.length == 2', { list: [1, 2] }, true],
      ['list.map != null', { list: [1, 2] }, false],
      ['constructor == 1', { constructor: 1 }, true],
      ['__proto__ == 1', JSON.parse('{"__proto__": 1}') as Properties, true],
      ['a.constructor == 2', { a: { constructor: 2 } }, true],
      ['a.b == 3', Object.assign(Object.create(null) as Properties, { a: { b: 3 } }), true],
    ];
    for (const [criteria, properties, expected] of cases) {
      it(`${criteria} → ${expected} on ${JSON.stringify(properties)}`, () => {
        assert.equal(matches(criteria, properties), expected);
      });
    }

    it('does not read inherited properties of the properties object', () => {
      const properties = Object.create({ plan: 'pro' }) as Properties;
      assert.equal(matches("plan == 'pro'", properties), false);
      assert.equal(matches('a.b == 1', { a: Object.create({ b: 1 }) as unknown }), false);
    });
  });

  describe('rejects with CriteriaError', () => {
    const cases: [string, string, RegExp][] = [
      ['empty string', '', /criteria is empty/],
      ['blank string', '   \n\t', /criteria is empty/],
      ['addition', 'a + 1', /Unexpected "\+"/],
      ['subtraction', 'a - 1', /single expression/],
      ['multiplication', 'a * 2 > 1', /Unexpected "\*"/],
      ['division', 'a / 2 > 1', /Unexpected "\/"/],
      ['modulo', 'a % 2 == 0', /Unexpected "%"/],
      ['bitwise and', 'a & 1', /Unexpected "&"/],
      ['bitwise or', 'a | 1', /Unexpected "\|"/],
      ['bitwise xor', 'a ^ 1', /Unexpected "\^"/],
      ['shift', 'a << 1', /Expected expression/],
      ['strict equality', 'a === 1', /Expected expression/],
      ['unary minus', '-a', /operator - is not supported/],
      ['unary plus', '+a', /Unexpected "\+"/],
      ['bitwise not', '~a', /Unexpected "~"/],
      ['nullish coalescing', 'a ?? b', /operator \?\? is not supported/],
      ['function call', 'foo()', /CallExpression is not allowed/],
      ['method call', 'plan.toUpperCase()', /CallExpression is not allowed/],
      ['call in a comparison', "plan == foo('x')", /CallExpression is not allowed/],
      ['computed member', "a['b']", /use dotted names/],
      ['computed member with number', 'a[0] == 1', /use dotted names/],
      ['optional computed member', 'a?.[0]', /use dotted names/],
      ['computed member nested', "a.b['c'] == 1", /use dotted names/],
      ['in with identifier', 'plan in plans', /'in' needs a list/],
      ['in with string', "plan in 'pro'", /'in' needs a list/],
      ['in with number', 'plan in 1', /'in' needs a list/],
      ['list with identifier', 'plan in [other]', /lists may only hold literal values/],
      ['list with member', 'plan in [a.b]', /lists may only hold literal values/],
      ['list with nested list', 'plan in [[1]]', /lists may only hold literal values/],
      ['list with hole', 'plan in [1, , 2]', /lists may only hold literal values/],
      ['list with expression', 'plan in [a == 1]', /lists may only hold literal values/],
      ['this', 'this', /ThisExpression is not allowed/],
      ['this member', 'this.plan == 1', /ThisExpression is not allowed/],
      ['assignment', 'a = 1', /Unexpected "="/],
      ['assignment inside', "plan == 'pro' && a = 1", /Unexpected "="/],
      ['compound with semicolon', 'a; b', /single expression/],
      ['compound with comma', 'a, b', /single expression/],
      ['juxtaposition', 'a b', /single expression/],
      ['ternary', 'a ? b : c', /ConditionalExpression is not allowed/],
      ['template literal', '`x`', /Unexpected "`"/],
      ['arrow function', 'a => 1', /Unexpected "="/],
      ['unclosed paren', "(plan == 'pro'", /Unclosed/],
      ['unclosed string', "plan == 'pro", /Unclosed quote/],
      ['dangling operator', 'plan ==', /Expected expression/],
      ['arithmetic in nested', "!(a + 1) && plan == 'pro'", /Unexpected "\+"/],
      ['function call under not', '!foo()', /CallExpression is not allowed/],
      ['computed member under in', "a['b'] in [1]", /use dotted names/],
    ];
    for (const [label, criteria, message] of cases) {
      it(`${label}: ${JSON.stringify(criteria)}`, () => {
        assert.throws(
          () => parseCriteria(criteria),
          (err: unknown) => {
            assert.ok(err instanceof CriteriaError, `expected CriteriaError, got ${String(err)}`);
            assert.match(err.message, message);
            return true;
          },
        );
      });
    }
  });

  it('returns a reusable function that evaluates each property set independently', () => {
    const audience = parseCriteria("plan in ['pro', 'enterprise'] && seats >= 10");
    assert.equal(audience({ plan: 'pro', seats: 10 }), true);
    assert.equal(audience({ plan: 'enterprise', seats: 9 }), false);
    assert.equal(audience({ plan: 'free', seats: 100 }), false);
    assert.equal(audience({ seats: 100 }), false);
  });
});

describe('audience criteria: regressions', () => {
  it('a missing property never matches, on either side of == and !=', () => {
    assert.equal(parseCriteria('a == b')({}), false);
    assert.equal(parseCriteria('plan == undefined')({}), false);
    assert.equal(parseCriteria('plan != other')({ plan: 'pro' }), false);
    assert.equal(parseCriteria('plan != other')({ plan: 'pro', other: 'free' }), true);
  });

  it('accepts negative numbers but no other unary minus', () => {
    assert.equal(parseCriteria('mrr > -1')({ mrr: 0 }), true);
    assert.equal(parseCriteria('delta == -2.5')({ delta: -2.5 }), true);
    assert.throws(() => parseCriteria('-mrr > 1'), CriteriaError);
    assert.equal(parseCriteria('delta in [-1, 2]')({ delta: -1 }), true);
    assert.throws(() => parseCriteria('delta in [-x]'), CriteriaError);
  });
});
