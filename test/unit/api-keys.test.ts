import assert from 'node:assert/strict';
import { generateKey, hashKey, parseScopes } from '../../lib/api-keys.js';
import { parseOnly } from '../../processors/main.js';

describe('API keys', () => {
  it('generates distinct keys that carry their id', () => {
    const a = generateKey();
    const b = generateKey();
    assert.notEqual(a.key, b.key);
    assert.match(a.key, new RegExp(`^pi_${a.keyId}_[A-Za-z0-9_-]{43}$`));
    assert.equal(hashKey(a.key).length, 32);
    assert.notDeepEqual(hashKey(a.key), hashKey(b.key));
  });

  it('parses scope lists and refuses unknown scopes', () => {
    assert.deepEqual(parseScopes('events:write, admin,events:write'), ['events:write', 'admin']);
    assert.throws(() => parseScopes('events:write,root'), /scopes must be/);
    assert.throws(() => parseScopes(''), /scopes must be/);
  });
});

describe('processors --only', () => {
  it('accepts known processor names only', () => {
    assert.equal(parseOnly([]), undefined);
    assert.deepEqual(parseOnly(['--only', 'raw-sink']), ['raw-sink']);
    assert.throws(() => parseOnly(['--only', 'nope']), /--only/);
    assert.throws(() => parseOnly(['--only']), /--only/);
  });
});
