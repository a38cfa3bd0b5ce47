import assert from 'node:assert/strict';
import {
  hasCardNumber,
  hasEmail,
  looksPersonal,
  luhnValid,
  scrubProperties,
  withoutPii,
} from '../../domain/pii-filter.js';
import { seededRandom } from '../../domain/random.js';

describe('PII filter: what looks personal', () => {
  it('finds e-mail addresses inside any text', () => {
    for (const text of ['jane@example.com', 'Contact: Jane.Doe+news@mail.example.co.uk, thanks', 'a_b%c@x-y.io']) {
      assert.equal(hasEmail(text), true, text);
    }
    for (const text of ['@handle', 'user@localhost', 'a@b', 'price: 3 @ 4.99', '/settings/profile']) {
      assert.equal(hasEmail(text), false, text);
    }
  });

  it('checks the Luhn digit', () => {
    assert.equal(luhnValid('4111111111111111'), true);
    assert.equal(luhnValid('4111111111111112'), false);
    assert.equal(luhnValid('378282246310005'), true);
  });

  it('finds Luhn-valid 13–19 digit card numbers, plain or grouped, between other digits', () => {
    const cards = [
      '4111111111111111',
      '4111 1111 1111 1111',
      '4111-1111-1111-1111',
      'Amex 3782 822463 10005 on file',
      'order 12 4111 1111 1111 1111',
      '4222222222222', // 13-digit Visa
      '6011000990139424',
      '5555555555554444',
    ];
    for (const text of cards) assert.equal(hasCardNumber(text), true, text);
  });

  it('leaves other numbers alone: wrong check digit, wrong length, timestamps, ids, phone numbers', () => {
    const others = [
      '4111111111111112', // Luhn fails
      '411111111111', // 12 digits
      '41111111111111111111', // 20 digits in one run
      String(Date.UTC(2025, 5, 1)), // epoch ms: 13 digits starting with 1
      '1700000000000000', // 16 digits starting with 1
      '+1 415-555-0132',
      '2025-06-01 12:30:00',
      'v1.2.3',
    ];
    for (const text of others) assert.equal(hasCardNumber(text), false, text);
  });
});

describe('PII filter: scrubbing event properties', () => {
  it('drops personal values and keys at any depth, and nothing else', () => {
    const { properties, dropped } = scrubProperties({
      page: '/checkout',
      email: 'jane@example.com',
      note: 'call me: jane@example.com',
      card: '4111 1111 1111 1111',
      card_number: 4111111111111111,
      at: Date.UTC(2025, 5, 1),
      ok: true,
      nested: { list: ['a', 'bob@example.org', 3, null], 'jane@example.com': 1, deep: { pan: '5555555555554444' } },
      ui_context: { empty_state: true },
    });
    assert.deepEqual(properties, {
      page: '/checkout',
      at: Date.UTC(2025, 5, 1),
      ok: true,
      nested: { list: ['a', 3, null], deep: {} },
      ui_context: { empty_state: true },
    });
    assert.equal(dropped, 7);
  });

  it('returns the very same objects when nothing is personal (no copies on the ingest path)', () => {
    const input = { page: '/a', list: [1, 'b'], nested: { x: 'y' } };
    assert.equal(scrubProperties(input).properties, input);
    const event = { user_id: 'u', event: 'click', properties: input };
    assert.equal(withoutPii(event), event);
    const bare: { user_id: string; event: string; properties?: Record<string, unknown> } = { user_id: 'u', event: 'x' };
    assert.equal(withoutPii(bare), bare);
  });

  it('keeps the event around the scrubbed properties', () => {
    const event = {
      user_id: 'jane@example.com',
      event: 'signup',
      message_id: 'm1',
      properties: { email: 'jane@example.com', plan: 'pro' },
    };
    assert.deepEqual(withoutPii(event), { ...event, properties: { plan: 'pro' } }, 'user_id is not a property');
  });
});

// The scans the filter used before it became linear: the reference on short inputs only (the
// e-mail regex backtracks, so a long value takes it minutes).
const OLD_EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;
const oldHasEmail = (text: string) => text.includes('@') && OLD_EMAIL.test(text);
function oldHasCardNumber(text: string): boolean {
  for (const run of text.match(/\d+(?:[ -]\d+)*/g) ?? []) {
    const groups = run.split(/[ -]/);
    for (let start = 0; start < groups.length; start++) {
      let digits = '';
      for (let end = start; end < groups.length && digits.length < 19; end++) {
        digits += groups[end];
        if (digits.length >= 13 && digits.length <= 19 && '23456'.includes(digits[0]!) && luhnValid(digits))
          return true;
      }
    }
  }
  return false;
}

/** Short strings built from the pieces the two shapes are made of, so both answers occur often. */
function randomText(random: () => number, pieces: string[]): string {
  let text = '';
  const length = Math.floor(random() * 12);
  for (let i = 0; i < length; i++) text += pieces[Math.floor(random() * pieces.length)];
  return text;
}

describe('PII filter: the same answers as the regexes it replaced', () => {
  it('finds e-mail addresses exactly where the old regex did', () => {
    const random = seededRandom(45);
    const pieces = ['a', 'Zq', '7', '-', '.', '..', '_', '%', '+', '@', ' ', 'é', '!', 'x@', '@y', '.io', '.c', 'a.b'];
    const found = { yes: 0, no: 0 };
    for (let i = 0; i < 50_000; i++) {
      const text = randomText(random, pieces);
      const expected = oldHasEmail(text);
      assert.equal(hasEmail(text), expected, JSON.stringify(text));
      found[expected ? 'yes' : 'no']++;
    }
    assert.ok(found.yes > 1000 && found.no > 1000, JSON.stringify(found));
  });

  it('finds card numbers exactly where the old scan did', () => {
    const random = seededRandom(7812);
    const pieces = [
      '4111',
      '1111',
      '5555',
      '4444',
      '1',
      '2',
      '3',
      '6',
      '7',
      '0',
      '378282',
      '4242424242424242',
      ' ',
      '-',
    ];
    const more = [' ', '  ', '-', '--', ' -', 'x', '.', '1', '9'];
    const found = { yes: 0, no: 0 };
    for (let i = 0; i < 50_000; i++) {
      const text = randomText(random, random() < 0.5 ? pieces : [...pieces, ...more]);
      const expected = oldHasCardNumber(text);
      assert.equal(hasCardNumber(text), expected, JSON.stringify(text));
      found[expected ? 'yes' : 'no']++;
    }
    assert.ok(found.yes > 1000 && found.no > 1000, JSON.stringify(found));
  });
});

describe('PII filter: linear in the value (any holder of a browser key can send 1 MiB)', () => {
  const MIB = 1 << 20;
  /** CPU milliseconds `scan` takes, so a busy machine does not fail the test. */
  const cpuMs = (scan: () => unknown) => {
    const start = process.cpuUsage();
    scan();
    const { user, system } = process.cpuUsage(start);
    return (user + system) / 1000;
  };
  const values: [string, string][] = [
    ['a local part that no domain follows', 'a'.repeat(MIB) + '@'],
    ['a domain of one-letter labels', 'a@' + 'a.'.repeat(300_000)],
    ['one long label', 'a@' + 'a'.repeat(MIB)],
    ['many addresses without a domain', 'a@'.repeat(MIB / 2)],
    ['dots and at signs', 'a.@.'.repeat(MIB / 4)],
    ['one-digit groups', '1 '.repeat(400_000)],
    ['card-like groups that fail Luhn', '4111 1111 1111 1112 '.repeat(MIB / 20)],
    ['one long digit run', '4'.repeat(MIB)],
    ['dashed digit pairs', '42-'.repeat(MIB / 3)],
  ];
  for (const [name, value] of values) {
    it(`scans ${name} (${value.length.toLocaleString('en')} characters) in well under 200 ms of CPU`, () => {
      const personal = looksPersonal(value); // once to warm up, then measured
      const ms = cpuMs(() => assert.equal(looksPersonal(value), personal));
      assert.ok(ms < 200, `${ms.toFixed(1)} ms`);
    });
  }

  it('scrubs a 1 MiB value and a 1 MiB key as quickly', () => {
    const value = 'a'.repeat(MIB) + '@';
    const ms = cpuMs(() => scrubProperties({ [value]: 1, note: value, list: [value] }));
    assert.ok(ms < 200, `${ms.toFixed(1)} ms`);
  });
});
