import assert from 'node:assert/strict';
import { generateKey, hashKey, parseScopes } from '../../store/api-keys.js';

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
