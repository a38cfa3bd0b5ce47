import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type dns from 'node:dns';
import fc from 'fast-check';
import { ATTEMPTS_PER_ROUND, type AttemptOutcome, nextStep, retryDelayMs } from '../../domain/webhooks/retry.js';
import { signature, webhookHeaders } from '../../domain/webhooks/signing.js';
import {
  ForbiddenTargetError,
  guardedLookup,
  isForbiddenAddress,
  literalTargetProblem,
  targetPolicy,
  urlProblem,
} from '../../lib/targets.js';

/** The receiver's side of Standard Webhooks, written from the spec and not from our module. */
function specSignature(secret: string, id: string, timestamp: string, body: string): string {
  assert.ok(secret.startsWith('whsec_'));
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const content = Buffer.from(`${id}.${timestamp}.${body}`, 'utf8');
  return `v1,${crypto.createHmac('sha256', key).update(content).digest('base64')}`;
}

describe('webhooks: signing', () => {
  // The example published with the Standard Webhooks spec (and used by its reference libraries).
  const vector = {
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
    timestamp: 1614265330,
    body: '{"test": 2432232314}',
    signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  };

  it('the test-side computation reproduces the published vector', () => {
    const key = Buffer.from('MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'base64');
    const mac = crypto
      .createHmac('sha256', key)
      .update('msg_p5jXN8AQM9LWM0D4loKWxJek.1614265330.{"test": 2432232314}')
      .digest('base64');
    assert.equal(`v1,${mac}`, vector.signature);
    assert.equal(specSignature(vector.secret, vector.id, String(vector.timestamp), vector.body), vector.signature);
  });

  it('signature() reproduces the published vector', () =>
    assert.equal(signature(vector.secret, vector.id, vector.timestamp, vector.body), vector.signature));

  it('webhookHeaders() carries the vector in the three Standard Webhooks headers, timestamp in seconds', () =>
    assert.deepEqual(webhookHeaders(vector.secret, vector.id, vector.body, vector.timestamp * 1000 + 999), {
      'content-type': 'application/json',
      'webhook-id': vector.id,
      'webhook-timestamp': '1614265330',
      'webhook-signature': vector.signature,
    }));

  it('agrees with the spec for any key, id, timestamp and body (UTF-8 included)', () =>
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 24, maxLength: 64 }),
        fc.stringMatching(/^msg_[A-Za-z0-9]{1,30}$/),
        fc.integer({ min: 0, max: 4_102_444_800_000 }),
        fc.string({ unit: 'grapheme' }),
        (keyBytes, id, nowMs, body) => {
          const secret = `whsec_${Buffer.from(keyBytes).toString('base64')}`;
          const headers = webhookHeaders(secret, id, body, nowMs);
          const timestamp = String(Math.floor(nowMs / 1000));
          assert.equal(headers['webhook-timestamp'], timestamp);
          assert.equal(headers['webhook-id'], id);
          assert.equal(headers['webhook-signature'], specSignature(secret, id, timestamp, body));
        },
      ),
    ));

  describe('changes with every signed part', () => {
    const base = signature(vector.secret, vector.id, vector.timestamp, vector.body);
    const cases: [string, string][] = [
      ['another id', signature(vector.secret, 'msg_other', vector.timestamp, vector.body)],
      ['another timestamp', signature(vector.secret, vector.id, vector.timestamp + 1, vector.body)],
      ['another body', signature(vector.secret, vector.id, vector.timestamp, '{"test":2432232314}')],
      [
        'another secret',
        signature(`whsec_${Buffer.alloc(24, 1).toString('base64')}`, vector.id, vector.timestamp, vector.body),
      ],
    ];
    for (const [name, other] of cases) it(name, () => assert.notEqual(other, base));
  });
});

describe('webhooks: retry', () => {
  const BASE = 1000;
  const half = () => 0.5;

  describe('nextStep', () => {
    const cases: [string, AttemptOutcome, number, ReturnType<typeof nextStep>][] = [
      ['200 succeeds', { status: 200 }, 1, { kind: 'succeeded' }],
      ['204 succeeds', { status: 204 }, 2, { kind: 'succeeded' }],
      ['299 succeeds', { status: 299 }, 3, { kind: 'succeeded' }],
      ['a 2xx on the last attempt still succeeds', { status: 201 }, 4, { kind: 'succeeded' }],
      ['300 is retried', { status: 300 }, 1, { kind: 'retry', delayMs: 1000 }],
      ['199 is retried', { status: 199 }, 1, { kind: 'retry', delayMs: 1000 }],
      ['404 is retried', { status: 404 }, 1, { kind: 'retry', delayMs: 1000 }],
      ['500 is retried', { status: 500 }, 1, { kind: 'retry', delayMs: 1000 }],
      ['a network error is retried', { error: 'ECONNREFUSED' }, 1, { kind: 'retry', delayMs: 1000 }],
      ['a timeout is retried', { error: 'ETIMEDOUT' }, 1, { kind: 'retry', delayMs: 1000 }],
      ['the 2nd failure waits twice as long', { status: 503 }, 2, { kind: 'retry', delayMs: 2000 }],
      ['the 3rd failure waits four times as long', { error: 'ECONNRESET' }, 3, { kind: 'retry', delayMs: 4000 }],
      ['the 4th failure gives up', { status: 500 }, 4, { kind: 'failed' }],
      ['the 4th error gives up', { error: 'ECONNREFUSED' }, 4, { kind: 'failed' }],
      ['past the round it stays given up', { status: 404 }, 5, { kind: 'failed' }],
    ];
    for (const [name, outcome, attempt, expected] of cases) {
      it(name, () => assert.deepEqual(nextStep(outcome, attempt, BASE, half), expected));
    }
  });

  describe('retryDelayMs: base·2^(n−1) with ±20 % jitter', () => {
    const cases: [number, number, number][] = [
      // [retry, random(), delay with base 1000]
      [1, 0, 800],
      [1, 0.5, 1000],
      [1, 1, 1200],
      [2, 0, 1600],
      [2, 0.5, 2000],
      [2, 1, 2400],
      [3, 0, 3200],
      [3, 0.5, 4000],
      [3, 1, 4800],
    ];
    for (const [retry, random, delay] of cases) {
      it(`retry ${retry}, random ${random} → ${delay} ms`, () =>
        assert.equal(
          retryDelayMs(retry, BASE, () => random),
          delay,
        ));
    }

    it('uses Math.random by default, within the bounds', () => {
      for (let i = 0; i < 100; i++) {
        const d = retryDelayMs(2, BASE);
        assert.ok(d >= 1600 && d <= 2400, `${d}`);
      }
    });

    it('stays within the bounds and grows strictly, whatever the jitter draws', () =>
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 3_600_000 }),
          fc.array(fc.double({ min: 0, max: 1, noNaN: true }), {
            minLength: ATTEMPTS_PER_ROUND - 1,
            maxLength: ATTEMPTS_PER_ROUND - 1,
          }),
          (base, draws) => {
            const delays = draws.map((r, i) => {
              const step = nextStep({ status: 500 }, i + 1, base, () => r);
              assert.equal(step.kind, 'retry');
              return step.kind === 'retry' ? step.delayMs : NaN;
            });
            delays.forEach((d, i) => {
              const nominal = base * 2 ** i;
              assert.ok(d >= Math.floor(0.8 * nominal) && d <= Math.ceil(1.2 * nominal), `${d} vs ${nominal}`);
              if (i > 0) assert.ok(d > delays[i - 1]!, `${delays.join(' ≤ ')}`);
            });
          },
        ),
      ));
  });
});

describe('webhooks: targets', () => {
  const none = targetPolicy([]);

  describe('targetPolicy', () => {
    const policy = targetPolicy(['Hooks.Example.COM', 'internal', '10.0.0.0/8', '192.168.1.7', 'fd00::/8', '::1']);

    it('keeps host names, lower-cased', () => assert.deepEqual([...policy.hosts], ['hooks.example.com', 'internal']));

    const cases: [string, string, 'ipv4' | 'ipv6', boolean][] = [
      ['a v4 CIDR covers its range', '10.255.0.1', 'ipv4', true],
      ['… and nothing outside it', '11.0.0.1', 'ipv4', false],
      ['a single v4 address covers itself', '192.168.1.7', 'ipv4', true],
      ['… and not its neighbour', '192.168.1.8', 'ipv4', false],
      ['a v6 CIDR covers its range', 'fd12:3456::1', 'ipv6', true],
      ['… and nothing outside it', 'fc00::1', 'ipv6', false],
      ['a single v6 address covers itself', '::1', 'ipv6', true],
      ['… and not its neighbour', '::2', 'ipv6', false],
    ];
    for (const [name, address, family, allowed] of cases) {
      it(`${name} (${address})`, () => assert.equal(policy.ranges.check(address, family), allowed));
    }

    it('puts IPs and ranges in no host list', () => assert.equal(policy.hosts.size, 2));
  });

  describe('isForbiddenAddress, nothing allow-listed', () => {
    const cases: [string, string][] = [
      ['loopback', '127.0.0.1'],
      ['loopback, anywhere in 127/8', '127.255.0.9'],
      ['RFC 1918 10/8', '10.0.0.1'],
      ['RFC 1918 172.16/12', '172.16.0.1'],
      ['RFC 1918 172.16/12, top', '172.31.255.254'],
      ['RFC 1918 192.168/16', '192.168.0.1'],
      ['link-local: the cloud metadata address', '169.254.169.254'],
      ['CGNAT 100.64/10', '100.64.0.1'],
      ['CGNAT 100.64/10, top', '100.127.255.254'],
      ['this network', '0.0.0.0'],
      ['multicast', '224.0.0.1'],
      ['broadcast', '255.255.255.255'],
      ['IPv6 loopback', '::1'],
      ['IPv6 unspecified', '::'],
      ['IPv6 unique local fc00::/7', 'fc00::1'],
      ['IPv6 unique local fc00::/7 (fd)', 'fd12:3456::1'],
      ['IPv6 link-local', 'fe80::1'],
      ['IPv6 multicast', 'ff02::1'],
      ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
      ['IPv4-mapped private', '::ffff:10.0.0.1'],
      ['IPv4-mapped loopback, hex form', '::ffff:7f00:1'],
    ];
    for (const [name, address] of cases) {
      it(`forbids ${name} (${address})`, () => assert.equal(isForbiddenAddress(address, none), true));
    }

    const publicCases: [string, string][] = [
      ['public IPv6', '2001:4860:4860::8888'],
      ['public IPv6 (another)', '2606:4700:4700::1111'],
    ];
    for (const [name, address] of publicCases) {
      it(`allows ${name} (${address})`, () => assert.equal(isForbiddenAddress(address, none), false));
    }

    // Regression: ::ffff:0:0/96 in the forbidden list held every IPv4 address (BlockList matches
    // IPv4 addresses against IPv4-mapped ranges), so every IPv4 target was refused.
    it('allows public IPv4 addresses (8.8.8.8, 1.1.1.1, ::ffff:8.8.8.8, 172.32.0.1, 100.128.0.1)', () => {
      for (const address of ['8.8.8.8', '1.1.1.1', '::ffff:8.8.8.8', '172.32.0.1', '100.128.0.1']) {
        assert.equal(isForbiddenAddress(address, none), false, address);
      }
    });
  });

  describe('isForbiddenAddress with an allow-list', () => {
    const policy = targetPolicy(['10.0.0.0/8', '127.0.0.1', 'fd00::/8']);
    const cases: [string, boolean][] = [
      ['10.1.2.3', false],
      ['::ffff:10.1.2.3', false],
      ['127.0.0.1', false],
      ['fd12::1', false],
      // the allow-list opens exactly what it names
      ['127.0.0.2', true],
      ['192.168.0.1', true],
      ['169.254.169.254', true],
      ['fc00::1', true],
      ['::1', true],
    ];
    for (const [address, forbidden] of cases) {
      it(`${address} → ${forbidden ? 'forbidden' : 'allowed'}`, () =>
        assert.equal(isForbiddenAddress(address, policy), forbidden));
    }
  });

  describe('urlProblem and literalTargetProblem', () => {
    const allow = targetPolicy(['hooks.internal', 'localhost', '10.0.0.0/8']);
    type Reason = 'https_required' | 'credentials_in_url' | 'forbidden_target' | undefined;
    // [url, policy, urlProblem reason, literalTargetProblem says forbidden]
    const cases: [string, ReturnType<typeof targetPolicy>, Reason, boolean][] = [
      ['http://hooks.example.com/in', none, 'https_required', false],
      ['ftp://hooks.example.com/in', none, 'https_required', false],
      ['https://user:pass@hooks.example.com/in', none, 'credentials_in_url', false],
      ['https://user@hooks.example.com/in', none, 'credentials_in_url', false],
      ['https://localhost/in', none, 'forbidden_target', false],
      ['https://LOCALHOST:8443/in', none, 'forbidden_target', false],
      ['https://sub.localhost/in', none, 'forbidden_target', false],
      ['https://[::1]/in', none, 'forbidden_target', true],
      ['https://127.0.0.1/in', none, 'forbidden_target', true],
      ['https://127.1/in', none, 'forbidden_target', true],
      ['https://0x7f000001/in', none, 'forbidden_target', true],
      ['https://10.0.0.1/in', none, 'forbidden_target', true],
      ['https://169.254.169.254/latest/meta-data', none, 'forbidden_target', true],
      ['https://[fe80::1]/in', none, 'forbidden_target', true],
      ['https://[::ffff:127.0.0.1]/in', none, 'forbidden_target', true],
      ['https://hooks.example.com/in', none, undefined, false],
      ['https://[2001:4860:4860::8888]/in', none, undefined, false],
      // allow-listed by name or range
      ['https://hooks.internal/in', allow, undefined, false],
      ['https://localhost/in', allow, undefined, false],
      ['https://10.1.2.3/in', allow, undefined, false],
      ['https://[::ffff:10.1.2.3]/in', allow, undefined, false],
      ['https://sub.localhost/in', allow, 'forbidden_target', false],
      ['https://192.168.0.1/in', allow, 'forbidden_target', true],
      // the scheme and credentials rules hold even for allow-listed hosts
      ['http://hooks.internal/in', allow, 'https_required', false],
      ['https://u:p@hooks.internal/in', allow, 'credentials_in_url', false],
    ];
    for (const [url, policy, reason, literal] of cases) {
      const label = policy === none ? '' : ' (allow-listed hooks.internal, localhost, 10/8)';
      it(`${url}${label} → ${reason ?? 'ok'}`, () => {
        const problem = urlProblem(new URL(url), policy);
        assert.equal(problem?.reason, reason);
        if (problem) assert.ok(problem.message.length > 0);
        const literalProblem = literalTargetProblem(new URL(url), policy);
        assert.equal(literalProblem !== undefined, literal, literalProblem);
      });
    }

    it('refuses the fully qualified localhost. and the 6to4 and site-local ranges', () => {
      assert.equal(urlProblem(new URL('https://localhost./x'), none)?.reason, 'forbidden_target');
      assert.equal(isForbiddenAddress('2002:7f00:1::1', none), true);
      assert.equal(isForbiddenAddress('fec0::1', none), true);
    });

    it('names the refused host in the message', () =>
      assert.match(urlProblem(new URL('https://[::1]/'), none)!.message, /^::1 is a private or loopback address/));

    // Regression: the same ::ffff:0:0/96 entry refused every public IPv4 literal.
    it('lets a public IPv4 literal through (https://8.8.8.8/)', () => {
      assert.equal(urlProblem(new URL('https://8.8.8.8/in'), none), undefined);
      assert.equal(literalTargetProblem(new URL('https://8.8.8.8/in'), none), undefined);
    });
  });

  describe('guardedLookup (resolves the literal name localhost locally)', () => {
    type Result = { err: NodeJS.ErrnoException | null; address: string | dns.LookupAddress[]; family?: number };
    const lookup = (policy: ReturnType<typeof targetPolicy>, hostname: string, options: dns.LookupOptions) =>
      new Promise<Result>((resolve) =>
        guardedLookup(policy)(hostname, options, (err, address, family) => resolve({ err, address, family })),
      );
    const isLoopback = (address: string) => address === '::1' || address.startsWith('127.');

    for (const all of [true, false]) {
      it(`refuses localhost (all: ${all})`, async () => {
        const { err, address } = await lookup(none, 'localhost', { all });
        assert.ok(err instanceof ForbiddenTargetError);
        assert.equal(err.code, 'EFORBIDDENTARGET');
        assert.match(err.message, /^localhost resolves to (127\.|::1)/);
        assert.deepEqual(address, []);
      });
    }

    it('returns every address when localhost is allow-listed (all: true)', async () => {
      const { err, address } = await lookup(targetPolicy(['localhost']), 'localhost', { all: true });
      assert.equal(err, null);
      assert.ok(Array.isArray(address) && address.length > 0);
      for (const a of address) {
        assert.ok(isLoopback(a.address), a.address);
        assert.ok(a.family === 4 || a.family === 6);
      }
    });

    it('returns one address and its family when localhost is allow-listed (all: false)', async () => {
      const { err, address, family } = await lookup(targetPolicy(['LocalHost']), 'LOCALHOST', { all: false });
      assert.equal(err, null);
      assert.ok(typeof address === 'string', 'one address, not a list');
      assert.ok(isLoopback(address), address);
      assert.equal(family, address.includes(':') ? 6 : 4);
    });

    it('honours the requested family', async () => {
      const { err, address, family } = await lookup(targetPolicy(['localhost']), 'localhost', { family: 4 });
      assert.equal(err, null);
      assert.equal(address, '127.0.0.1');
      assert.equal(family, 4);
    });

    it('lets localhost through when its addresses are allow-listed by range', async () => {
      const { err, address } = await lookup(targetPolicy(['127.0.0.0/8', '::1']), 'localhost', { all: true });
      assert.equal(err, null);
      assert.ok(Array.isArray(address) && address.length > 0);
    });

    it('another allow-listed name does not open localhost', async () => {
      const { err } = await lookup(targetPolicy(['hooks.internal']), 'localhost', { all: true });
      assert.ok(err instanceof ForbiddenTargetError);
    });
  });
});
