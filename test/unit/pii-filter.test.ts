import assert from 'node:assert/strict';
import { hasCardNumber, hasEmail, luhnValid, scrubProperties, withoutPii } from '../../domain/pii-filter.js';

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
