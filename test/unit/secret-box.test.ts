import assert from 'node:assert/strict';
import { loadConfig } from '../../lib/config.js';
import { SEALED, SecretBox, newSecretKey, parseSecretKeys } from '../../lib/secret-box.js';

const keys = (text: string) => {
  const parsed = parseSecretKeys(text);
  assert.ok(typeof parsed !== 'string', parsed as string);
  return parsed;
};

describe('secret box', () => {
  const k1 = newSecretKey('k1');
  const k2 = newSecretKey('k2');

  it('seals with the first key and opens with any configured one', () => {
    const old = new SecretBox(keys(k1));
    const sealed = old.seal('whsec_abc', SEALED.webhookSecret);
    assert.match(sealed, /^sealed:v1:k1:/);
    assert.ok(!sealed.includes('whsec_abc'));
    assert.notEqual(old.seal('whsec_abc', SEALED.webhookSecret), sealed, 'a fresh IV each time');
    const rotated = new SecretBox(keys(`${k2},${k1}`));
    assert.equal(rotated.open(sealed, SEALED.webhookSecret), 'whsec_abc');
    assert.equal(rotated.current(sealed), false);
    assert.match(rotated.seal('x', SEALED.webhookSecret), /^sealed:v1:k2:/);
    assert.throws(() => new SecretBox(keys(k2)).open(sealed, SEALED.webhookSecret), /key k1, which is not configured/);
  });

  it('refuses an altered value, a value of another kind, a plain one, and sealing without a key', () => {
    const box = new SecretBox(keys(k1));
    const sealed = box.seal('hunter2', SEALED.warehousePassword);
    const raw = Buffer.from(sealed.split(':')[3]!, 'base64');
    raw[raw.length - 1]! ^= 1;
    assert.throws(() => box.open(`sealed:v1:k1:${raw.toString('base64')}`, SEALED.warehousePassword));
    assert.throws(() => box.open(sealed, SEALED.webhookSecret));
    assert.throws(() => box.open('hunter2', SEALED.warehousePassword), /not sealed/);
    assert.throws(() => new SecretBox([]).seal('x', SEALED.webhookSecret), /PI_SECRET_KEYS/);
  });

  it('parses id:base64key lists and names what is wrong', () => {
    assert.deepEqual(
      keys(`${k2}, ${k1}`).map((k) => k.id),
      ['k2', 'k1'],
    );
    assert.match(parseSecretKeys('k1:c2hvcnQ=') as string, /32 bytes/);
    assert.match(parseSecretKeys(`${k1},${k1}`) as string, /appears twice/);
    assert.match(parseSecretKeys('no key') as string, /expected id:base64key/);
  });

  it('is read from PI_SECRET_KEYS or the file PI_SECRET_KEYS_FILE names; a bad value stops the boot', () => {
    assert.deepEqual(
      loadConfig({ PI_SECRET_KEYS: k1 }).secretKeys.map((k) => k.id),
      ['k1'],
    );
    assert.deepEqual(loadConfig({ PI_SECRET_KEYS_FILE: '/nonexistent/keys' }).secretKeys, []);
    assert.throws(() => loadConfig({ PI_SECRET_KEYS: 'k1:xx' }), /PI_SECRET_KEYS: expected/);
  });
});
