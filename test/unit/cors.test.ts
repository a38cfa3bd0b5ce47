import assert from 'node:assert/strict';
import { ApiError } from '../../api/errors.js';
import { allowedOriginsOf, normalizeOrigin, refuseForeignOrigin } from '../../api/cors.js';

describe('browser keys: allowed origins', () => {
  it('takes origins as browsers send them', () => {
    const cases: [string, string | undefined][] = [
      ['https://app.example.com', 'https://app.example.com'],
      ['https://App.Example.com/', 'https://app.example.com'],
      ['https://app.example.com:443', 'https://app.example.com'],
      ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
      ['https://bücher.example', 'https://xn--bcher-kva.example'],
      ['https://app.example.com/path', undefined],
      ['https://app.example.com/?', undefined],
      ['https://app.example.com/#top', undefined],
      ['https://user:pw@app.example.com', undefined],
      ['ftp://app.example.com', undefined],
      ['app.example.com', undefined],
      ['*', undefined],
      ['null', undefined],
    ];
    for (const [text, origin] of cases) assert.equal(normalizeOrigin(text), origin, text);
  });

  it('makes a key with origins a write-only browser key', () => {
    assert.equal(allowedOriginsOf(undefined, ['admin']), null);
    assert.equal(allowedOriginsOf(null, ['admin']), null);
    assert.deepEqual(allowedOriginsOf([], ['admin']), [], 'an empty list refuses every browser');
    assert.deepEqual(allowedOriginsOf(['https://A.example', 'https://a.example/'], ['events:write']), [
      'https://a.example',
    ]);
    const scopeError = (() => {
      try {
        allowedOriginsOf(['https://a.example'], ['events:write', 'analytics:read']);
      } catch (err) {
        return err;
      }
    })();
    assert.ok(scopeError instanceof ApiError);
    assert.deepEqual(scopeError.details, { field: 'scopes', reason: 'invalid_value' });
    assert.throws(
      () => allowedOriginsOf(['https://a.example', 'https://a.example/x'], ['events:write']),
      (err: ApiError) => err.details.field === 'allowed_origins[1]',
    );
  });

  it('refuses a request whose Origin the key does not list, and only then', () => {
    assert.doesNotThrow(() => refuseForeignOrigin('', ['https://a.example']), 'no Origin: not a browser');
    assert.throws(
      () => refuseForeignOrigin('https://evil.example', null),
      (err: ApiError) => err.status === 403 && err.details.reason === 'server_key_in_page',
      'a server key from a page',
    );
    assert.doesNotThrow(() => refuseForeignOrigin('', null), 'a server key from a server');
    assert.doesNotThrow(() => refuseForeignOrigin('https://a.example', ['https://a.example']));
    assert.throws(
      () => refuseForeignOrigin('https://evil.example', ['https://a.example']),
      (err: ApiError) => err.status === 403 && err.details.reason === 'origin_not_allowed',
    );
    assert.throws(
      () => refuseForeignOrigin('null', []),
      (err: ApiError) => err.status === 403,
    );
  });
});
