import crypto from 'node:crypto';
import assert from 'node:assert/strict';
import {
  keepOpenedValues,
  messageRef,
  newUserKey,
  openEvent,
  openValue,
  sealEvent,
  sealValue,
  userRef,
} from '../../domain/sealed-user.js';
import type { TrackedEventRecord } from '../../domain/tracked-event.js';
import { type SessionChainRecord, openChain, sealChain } from '../../processors/sessionize/record.js';

const record: TrackedEventRecord = {
  project_id: 'p1',
  message_id: 'm1',
  user_id: 'ada@example.com',
  event: 'click',
  timestamp: 1,
  received_at: 2,
  properties: '{"plan":"pro"}',
};

describe('sealed users (crypto-shredding)', () => {
  it('names a user by a pseudonym that depends on the project secret', () => {
    const [a, b] = [Buffer.alloc(32, 1), Buffer.alloc(32, 2)];
    assert.match(userRef(a, 'ada'), /^[0-9a-f]{32}$/);
    assert.equal(userRef(a, 'ada'), userRef(a, 'ada'));
    assert.notEqual(userRef(a, 'ada'), userRef(b, 'ada'));
    assert.notEqual(userRef(a, 'ada'), userRef(a, 'bob'));
  });

  it('keeps pseudonyms it made per secret, equal to the HMAC whether kept, made again or emptied out', () => {
    const hmac = (secret: Buffer, id: string) =>
      crypto.createHmac('sha256', secret).update(id, 'utf8').digest('hex').slice(0, 32);
    const a = Buffer.alloc(32, 3);
    const first = userRef(a, 'ada');
    assert.equal(first, hmac(a, 'ada'));
    // Another buffer with the same bytes, and one with other bytes, each from its own kept pseudonyms.
    assert.equal(userRef(Buffer.alloc(32, 3), 'ada'), first);
    assert.equal(userRef(Buffer.alloc(32, 4), 'ada'), hmac(Buffer.alloc(32, 4), 'ada'));
    // More users than are kept: the map is emptied and refilled, never wrong.
    for (let i = 0; i < 100_050; i++) userRef(a, `u${i}`);
    assert.equal(userRef(a, 'ada'), first);
    assert.equal(userRef(a, 'u100049'), hmac(a, 'u100049'));
  });

  it('opens an event sealed with the user key; without the key it is skipped, a plain one passes', () => {
    const key = newUserKey();
    const sealed = sealEvent(record, 'r1', key);
    assert.ok(!JSON.stringify(sealed).includes('ada@example.com'));
    assert.ok(!sealed.sealed.includes('ada@example.com'));
    assert.deepEqual(openEvent(sealed, key), record);
    assert.equal(openEvent(sealed, undefined), undefined);
    assert.throws(() => openEvent(sealed, newUserKey()));
    assert.throws(() => openEvent({ ...sealed, user_ref: 'r2' }, key), 'bound to the pseudonym');
    assert.deepEqual(openEvent(record, undefined), record);
  });

  it('seals the message id too, leaving in the clear a token equal for a repeat and unreadable without the key', () => {
    const key = newUserKey();
    const named = { ...record, message_id: 'u_42-signup' };
    const sealed = sealEvent(named, 'r1', key);
    assert.ok(!JSON.stringify(sealed).includes('u_42'));
    assert.ok(!sealed.sealed.includes('u_42'));
    assert.equal(sealed.message_id, undefined, 'left to the schema default (empty)');
    assert.match(sealed.message_ref!, /^[0-9a-f]{32}$/);
    assert.equal(sealed.message_ref, messageRef(key, 'u_42-signup'));
    assert.equal(sealEvent(named, 'r1', key).message_ref, sealed.message_ref, 'a repeat: the same token');
    assert.notEqual(sealEvent({ ...named, message_id: 'u_42-login' }, 'r1', key).message_ref, sealed.message_ref);
    assert.notEqual(sealEvent(named, 'r1', newUserKey()).message_ref, sealed.message_ref, "another key's token");
    assert.equal(
      sealed.message_ref,
      crypto
        .createHash('sha3-256')
        .update(`${key.toString('hex')}pi.message_ref\u0000u_42-signup`)
        .digest('hex')
        .slice(0, 32),
      'as the schema documents it',
    );
    // As a decoder of the current schema gives it: the clear id empty.
    assert.deepEqual(openEvent({ ...sealed, message_id: '' }, key), named);
    assert.equal(openEvent(sealed, undefined), undefined);
  });

  it('opens an event sealed before message ids were, with its id in the clear; refuses one with no id', () => {
    const key = newUserKey();
    const { user_id, properties, ...clear } = record;
    const older = { ...clear, user_ref: 'r1', sealed: sealValue(key, 'p1:r1', { user_id, properties }) };
    assert.deepEqual(openEvent(older, key), record);
    assert.deepEqual(openEvent({ ...older, message_ref: '' }, key), record, 'read with the current schema');
    assert.throws(() => openEvent({ ...older, message_id: '' }, key), /no message id/);
    assert.throws(() => openEvent({ ...older, message_id: '', message_ref: 'ab' }, key), /without a sealed message id/);
  });

  it('gives every sealed value its own nonce, across refills of the nonce pool, and each opens', () => {
    const key = newUserKey();
    const sealed = Array.from({ length: 10_000 }, (_, i) => sealValue(key, 'p:u', { i }));
    assert.equal(new Set(sealed.map((s) => s.subarray(4, 28).toString('hex'))).size, sealed.length);
    assert.deepEqual(openValue(key, 'p:u', sealed[0]!), { i: 0 });
    assert.deepEqual(openValue(key, 'p:u', sealed[9_999]!), { i: 9_999 });
  });

  it('seals with XChaCha20-Poly1305 under a key derived from the user key, and still opens AES-GCM values sealed before', () => {
    const key = newUserKey();
    const sealed = sealValue(key, 'p:u', { a: 'é' });
    assert.equal(sealed.subarray(0, 4).toString('latin1'), '\u0000pi2');
    // 4 + 24 (nonce) + the JSON text + 16 (tag): nothing else travels.
    assert.equal(sealed.length, 4 + 24 + Buffer.byteLength('{"a":"é"}') + 16);
    const olderForm = (iv: Buffer, value: unknown, context = 'p:u') => {
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(context));
      const text = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), text]);
    };
    assert.deepEqual(openValue(key, 'p:u', olderForm(crypto.randomBytes(12), { b: 1 })), { b: 1 });
    // An older value whose random IV begins with the mark opens all the same.
    const markedIv = Buffer.concat([Buffer.from('\u0000pi2', 'latin1'), crypto.randomBytes(8)]);
    assert.deepEqual(openValue(key, 'p:u', olderForm(markedIv, { c: [1, 2] })), { c: [1, 2] });
    assert.throws(() => openValue(key, 'p:other', olderForm(markedIv, { c: 1 })));
    // The user key itself does not open the new form as AES-GCM, nor the derived key another's value.
    assert.throws(() => openValue(newUserKey(), 'p:u', sealed));
  });

  it('refuses altered bytes', () => {
    const key = newUserKey();
    const sealed = sealValue(key, 'p:r', { a: 1 });
    assert.deepEqual(openValue(key, 'p:r', sealed), { a: 1 });
    for (const at of [0, 3, 4, 27, 28, sealed.length - 1]) {
      const altered = Buffer.from(sealed);
      altered[at]! ^= 1;
      assert.throws(() => openValue(key, 'p:r', altered), `byte ${at} altered`);
    }
    assert.throws(() => openValue(key, 'p:r', sealed.subarray(0, sealed.length - 1)));
  });

  it('seals a chain: the user id and every event property in order, the rest in the clear', () => {
    const event = (id: string, properties: string) => ({
      message_id: id,
      event: 'click',
      timestamp: 1,
      received_at: 2,
      offset: 3,
      properties,
    });
    const chain: SessionChainRecord = {
      project_id: 'p1',
      user_id: 'ada',
      gap_ms: 1,
      max_ms: 2,
      complete: true,
      sessions: [
        { session_id: 's1', events: [event('a', '{"i":1}'), event('u_42-b', '{"i":2}')] },
        { session_id: 's2', events: [event('c', '{"i":3}')] },
      ],
    };
    const key = newUserKey();
    const sealed = sealChain(chain, 'r1', key);
    assert.ok(!JSON.stringify(sealed).includes('"i"'));
    assert.ok(!JSON.stringify(sealed).includes('u_42'), 'no message id in the clear');
    const events = sealed.sessions.flatMap((s) => s.events);
    assert.deepEqual(
      events.map((e) => [e.message_id, e.message_ref]),
      ['a', 'u_42-b', 'c'].map((id) => [undefined, messageRef(key, id)]),
    );
    assert.deepEqual(openChain(sealed, key), chain);
    assert.equal(openChain(sealed, undefined), undefined);
    assert.deepEqual(openChain(chain, undefined), chain);
    // Written before message ids were sealed: the ids in the clear, none in `sealed`.
    const older = {
      ...sealed,
      sealed: sealValue(key, 'p1:r1', { user_id: 'ada', properties: ['{"i":1}', '{"i":2}', '{"i":3}'] }),
      sessions: chain.sessions.map((s) => ({
        ...s,
        events: s.events.map(({ properties: _, ...e }) => ({ ...e, message_ref: '' })),
      })),
    };
    assert.deepEqual(openChain(older, key), chain);
    const noIds = {
      ...older,
      sessions: older.sessions.map((s) => ({ ...s, events: s.events.map((e) => ({ ...e, message_ref: 'ab' })) })),
    };
    assert.throws(() => openChain(noIds, key), /without a sealed message id/);
    const emptyIds = {
      ...older,
      sessions: older.sessions.map((s) => ({ ...s, events: s.events.map((e) => ({ ...e, message_id: '' })) })),
    };
    assert.throws(() => openChain(emptyIds, key), /no message id/);
  });

  describe('keeping what was opened (the processors)', () => {
    afterEach(() => keepOpenedValues(0));

    it('opens the same bytes twice with one decryption: the second opening gets the first value', () => {
      const key = newUserKey();
      const sealed = sealValue(key, 'p:r', { a: [1] }); // sealed elsewhere (the API)
      keepOpenedValues();
      const first = openValue(key, 'p:r', sealed);
      assert.deepEqual(first, { a: [1] });
      const again = Buffer.from(sealed); // the same bytes, as a consumer of another group reads them
      assert.equal(openValue(key, 'p:r', again), first);
      // Kept until the next opening only: a third opening decrypts again.
      const third = openValue(key, 'p:r', sealed);
      assert.deepEqual(third, first);
      assert.notEqual(third, first);
    });

    it('keeps what it seals for its next opening, and never for other bytes, keys or contexts', () => {
      keepOpenedValues();
      const key = newUserKey();
      const value = { user_id: 'ada', properties: ['{"i":1}'] };
      const sealed = sealValue(key, 'p:r', value);
      assert.throws(() => openValue(newUserKey(), 'p:r', sealed));
      assert.throws(() => openValue(key, 'p:other', sealed));
      const altered = Buffer.from(sealed);
      altered[altered.length - 1]! ^= 1;
      assert.throws(() => openValue(key, 'p:r', altered));
      assert.equal(openValue(key, 'p:r', sealed), value);
    });

    it('keeps nothing it seals where told not to (no step of the process opens it again), still what it opens', () => {
      keepOpenedValues(undefined, false);
      const key = newUserKey();
      const value = { user_id: 'ada', properties: ['{"i":1}'] };
      const sealed = sealValue(key, 'p:r', value);
      const opened = openValue(key, 'p:r', sealed);
      assert.deepEqual(opened, value);
      assert.notEqual(opened, value, 'decrypted: the sealed value was not kept');
      assert.equal(openValue(key, 'p:r', Buffer.from(sealed)), opened, 'what it opened is kept');
    });

    it('keeps its own copy of opened bytes, not a view of the buffer they came in (a whole Kafka fetch)', () => {
      const key = newUserKey();
      const sealed = sealValue(key, 'p:r', { a: 1 });
      keepOpenedValues();
      const fetch = Buffer.concat([Buffer.alloc(100), sealed, Buffer.alloc(100)]);
      const view = fetch.subarray(100, 100 + sealed.length);
      const first = openValue(key, 'p:r', view);
      fetch.fill(0); // the fetch's memory, released and reused
      assert.equal(openValue(key, 'p:r', sealed), first);
    });

    it('forgets the oldest beyond its budget', () => {
      const key = newUserKey();
      const sealed = sealValue(key, 'p:r', { i: 0 }); // sealed before keeping: not kept
      keepOpenedValues(sealed.length * 2); // two values of this size
      const first = openValue(key, 'p:r', sealed);
      const others = [1, 2].map((i) => sealValue(key, 'p:r', { i }));
      assert.notEqual(openValue(key, 'p:r', sealed), first, 'the oldest went first');
      assert.deepEqual(openValue(key, 'p:r', others[1]!), { i: 2 });
    });

    it('counts taken values out of its budget: the oldest still kept go first, however many came and went', () => {
      const key = newUserKey();
      const size = sealValue(key, 'p:r', { i: 0 }).length;
      keepOpenedValues(size * 3);
      const [a, b, c] = [1, 2, 3].map((i) => ({ i }));
      const [sealedA, sealedB, sealedC] = [a, b, c].map((v) => sealValue(key, 'p:r', v));
      assert.equal(openValue(key, 'p:r', sealedB!), b, 'taken');
      // Thousands kept and taken while `a` and `c` wait (taken ones pile up behind `a` until dropped).
      for (let i = 10; i < 5000; i++) {
        const value = { i };
        assert.equal(openValue(key, 'p:r', sealValue(key, 'p:r', value)), value);
      }
      const d = { i: 4 };
      const sealedD = sealValue(key, 'p:r', d); // a, c, d: within the budget
      const e = { i: 5 };
      const sealedE = sealValue(key, 'p:r', e); // beyond it: a, the oldest, goes
      for (const [sealed, value] of [
        [sealedC, c],
        [sealedD, d],
        [sealedE, e],
      ] as const)
        assert.equal(openValue(key, 'p:r', sealed!), value);
      const opened = openValue(key, 'p:r', sealedA!);
      assert.deepEqual(opened, a);
      assert.notEqual(opened, a, 'a was forgotten: opened anew');
    });
  });
});
