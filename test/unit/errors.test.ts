import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { ApiError, errorMiddleware } from '../../api/errors.js';
import { LeaseUnanswered } from '../../lib/lease.js';
import { createLogger } from '../../lib/log.js';

/** The error middleware alone, on an in-process server: every failure becomes the contract's error body. */
async function answer(handler: Koa.Middleware): Promise<{ status: number; body: unknown; headers: Headers }> {
  const app = new Koa();
  app.use(errorMiddleware(createLogger('silent')));
  app.use(handler);
  const server = http.createServer(app.callback()).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x`);
    return { status: res.status, body: await res.json(), headers: res.headers };
  } finally {
    server.close();
  }
}

describe('error middleware', () => {
  it('hides unexpected errors behind a 500 internal_error body', async () => {
    const reply = await answer(() => {
      throw new Error('secret stack detail');
    });
    assert.equal(reply.status, 500);
    assert.deepEqual(reply.body, {
      error: {
        code: 'internal_error',
        message: 'Something went wrong on our side; the request was not applied.',
        details: {},
      },
    });
  });

  it('renders an ApiError with its status, details and headers', async () => {
    const reply = await answer(() => {
      throw new ApiError(429, 'rate_limited', 'slow down', { limit: 5 }, { 'Retry-After': '7' });
    });
    assert.equal(reply.status, 429);
    assert.equal(reply.headers.get('retry-after'), '7');
    assert.deepEqual(reply.body, { error: { code: 'rate_limited', message: 'slow down', details: { limit: 5 } } });
  });

  it('answers a read that did not answer within its lease as Postgres unavailable: 503 with Retry-After', async () => {
    const reply = await answer(() => {
      throw new LeaseUnanswered();
    });
    assert.equal(reply.status, 503);
    assert.equal(reply.headers.get('retry-after'), '5');
    assert.equal((reply.body as { error: { code: string } }).error.code, 'service_unavailable');
  });

  it('answers a deadlock or a serialization failure (SQLSTATE class 40) as 503: the same request can succeed', async () => {
    for (const code of ['40P01', '40001']) {
      const reply = await answer(() => {
        throw Object.assign(new Error('deadlock detected'), { code });
      });
      assert.equal(reply.status, 503, code);
      assert.equal(reply.headers.get('retry-after'), '5');
      assert.equal((reply.body as { error: { code: string } }).error.code, 'service_unavailable');
    }
  });

  it('keeps a statement Postgres refuses for what it says (23505) a 500', async () => {
    const reply = await answer(() => {
      throw Object.assign(new Error('duplicate key value'), { code: '23505' });
    });
    assert.equal(reply.status, 500);
  });

  it('turns an unanswered request into 404 not_found', async () => {
    const reply = await answer(() => undefined);
    assert.equal(reply.status, 404);
    assert.equal((reply.body as { error: { code: string } }).error.code, 'not_found');
  });
});
