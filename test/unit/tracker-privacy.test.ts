import assert from 'node:assert/strict';
import {
  type Consent,
  type ConsentInputs,
  REDACTED,
  consentState,
  doNotTrack,
  looksLikeId,
  redactPath,
} from '../../clients/browser/src/privacy.js';

describe('tracker: consent', () => {
  it('decides from the stored choice, the browser signals and requireConsent, in that order', () => {
    const cases: [Partial<ConsentInputs>, Consent][] = [
      [{}, 'granted'],
      [{ requireConsent: true }, 'pending'],
      [{ requireConsent: true, stored: 'in' }, 'granted'],
      [{ requireConsent: true, stored: 'out' }, 'denied'],
      [{ requireConsent: true, signalsOptOut: true }, 'denied'],
      [{ signalsOptOut: true }, 'denied'],
      [{ signalsOptOut: true, stored: 'in' }, 'granted'],
      [{ stored: 'out' }, 'denied'],
      [{ stored: 'in' }, 'granted'],
      [{ stored: 'garbage' }, 'granted'],
      [{ stored: 'garbage', requireConsent: true }, 'pending'],
    ];
    for (const [inputs, expected] of cases) {
      const full: ConsentInputs = { stored: null, requireConsent: false, signalsOptOut: false, ...inputs };
      assert.equal(consentState(full), expected, JSON.stringify(inputs));
    }
  });

  it('reads Do-Not-Track from navigator or window, as browsers expose it', () => {
    assert.equal(doNotTrack({ doNotTrack: '1' }, {}), true);
    assert.equal(doNotTrack({ doNotTrack: 'yes' }, {}), true, 'old Firefox');
    assert.equal(doNotTrack({}, { doNotTrack: '1' }), true, 'old Safari and IE: window.doNotTrack');
    assert.equal(doNotTrack({ doNotTrack: null }, {}), false, 'not set');
    assert.equal(doNotTrack({ doNotTrack: '0' }, {}), false, 'tracking explicitly allowed');
    assert.equal(doNotTrack({ doNotTrack: 'unspecified' }, { doNotTrack: null }), false);
  });
});

describe('tracker: path redaction', () => {
  it('replaces segments that look like ids or tokens, keeps route names', () => {
    const cases: [string, string][] = [
      ['/', '/'],
      ['/app/settings', '/app/settings'],
      ['/orders/12345', '/orders/:id'],
      ['/orders/12345/items/7', '/orders/:id/items/7'],
      ['/tab/2', '/tab/2'],
      ['/users/550e8400-e29b-41d4-a716-446655440000/edit', '/users/:id/edit'],
      ['/users/550E8400-E29B-41D4-A716-446655440000', '/users/:id'],
      ['/reset/Gx7kQ2mZ9pL4vR8sT1wY', '/reset/:id'],
      ['/share/0123456789abcdef0123456789abcdef', '/share/:id'],
      ['/invite/eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.abc', '/invite/:id'],
      ['/confirm/pi_0123456789abcdef_' + 'x'.repeat(43), '/confirm/:id'],
      ['/unsubscribe/jane@example.com', '/unsubscribe/:id'],
      ['/unsubscribe/jane%40example.com', '/unsubscribe/:id'],
      ['/docs/how-to-configure-the-tracker', '/docs/how-to-configure-the-tracker'],
      ['/docs/internationalization', '/docs/internationalization'],
      ['/blog/release-notes-2-4', '/blog/release-notes-2-4'],
      ['/app#/orders/98765', '/app#/orders/:id'],
      ['/reset/0123456789abcdef0123#/tab/2', '/reset/:id#/tab/2'],
      ['/app#!/invoice/1234', '/app#!/invoice/:id'],
    ];
    for (const [path, expected] of cases) assert.equal(redactPath(path), expected, path);
  });

  it('tells ids from words', () => {
    for (const id of ['123', '4242424242', 'a1b2c3d4e5f6a7b8c9d0', 'ABCDEFGHIJKLMNOP1', 'x@y']) {
      assert.equal(looksLikeId(id), true, id);
    }
    for (const word of ['12', 'v2', 'settings', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'step-1-of-3', REDACTED]) {
      assert.equal(looksLikeId(word), false, word);
    }
  });

  it('is stable: a redacted path redacts to itself', () => {
    for (const path of ['/orders/12345', '/reset/Gx7kQ2mZ9pL4vR8sT1wY#/tab/99999']) {
      const once = redactPath(path);
      assert.equal(redactPath(once), once);
    }
  });
});
