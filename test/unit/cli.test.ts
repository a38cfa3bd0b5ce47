import assert from 'node:assert/strict';
import { UsageError, helpText, parseCli, parseOnly } from '../../lib/cli.js';

const spec = {
  usage: 'npm run thing -- [--only a,b] [--max n] [--follow]',
  summary: 'Does a thing.',
  options: {
    only: { type: 'string' as const, arg: 'names', help: 'a subset' },
    max: { type: 'string' as const, arg: 'n', help: 'at most n' },
    follow: { type: 'boolean' as const, help: 'keep going' },
  },
};

describe('command lines (lib/cli.ts)', () => {
  it('parses known options and answers --help and -h with undefined', () => {
    assert.deepEqual(parseCli(spec, ['--only', 'a', '--follow'])?.values, { only: 'a', follow: true });
    assert.equal(parseCli(spec, ['--help']), undefined);
    assert.equal(parseCli(spec, ['-h']), undefined);
  });

  it('refuses unknown options, missing values and stray arguments with a UsageError', () => {
    for (const argv of [['--nope'], ['--only'], ['extra'], ['--follow=yes']]) {
      assert.throws(() => parseCli(spec, argv), UsageError, argv.join(' '));
    }
  });

  it('prints every option with its help in --help', () => {
    const text = helpText(spec);
    assert.match(text, /^usage: npm run thing/);
    for (const line of ['--only <names>', '--max <n>', '--follow', '--help']) assert.ok(text.includes(line), line);
  });

  it('--only takes a non-empty subset of the known names', () => {
    assert.equal(parseOnly(undefined, ['raw-sink', 'analytics']), undefined);
    assert.deepEqual(parseOnly('raw-sink', ['raw-sink', 'analytics']), ['raw-sink']);
    assert.throws(() => parseOnly('nope', ['raw-sink']), /--only: expected a comma-separated subset of raw-sink/);
    assert.throws(() => parseOnly('', ['raw-sink']), UsageError);
  });
});
