import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Koa from 'koa';
import { CONTENT_SECURITY_POLICY, consoleStatic } from '../../api/console/static.js';
import { errorMiddleware } from '../../api/errors.js';
import { createLogger } from '../../lib/log.js';

/** The console's file server over a build written here, behind the API's error middleware. */
describe('console files (/console)', () => {
  let dir: string;
  let server: http.Server;
  let base: string;
  const script = `console.log(${JSON.stringify('x'.repeat(4000))});`;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pi-console-dist-'));
    fs.mkdirSync(path.join(dir, 'assets'));
    fs.writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>console</title>');
    fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), script);
    fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    const app = new Koa();
    app.use(errorMiddleware(createLogger('silent')));
    app.use(consoleStatic(dir));
    server = http.createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const get = (p: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
      http
        .get(`${base}${p}`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
        })
        .on('error', reject);
    });

  it('answers index.html, uncached and under the CSP, for every client-side route', async () => {
    for (const p of ['/console', '/console/', '/console/settings/api-keys', '/console/sign-in/link']) {
      const res = await get(p);
      assert.equal(res.status, 200, p);
      assert.equal(res.body.toString(), '<!doctype html><title>console</title>');
      assert.equal(res.headers['content-type'], 'text/html; charset=utf-8');
      assert.equal(res.headers['cache-control'], 'no-cache');
      assert.equal(res.headers['content-security-policy'], CONTENT_SECURITY_POLICY);
      assert.equal(res.headers['x-frame-options'], 'DENY');
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
    }
    assert.match(CONTENT_SECURITY_POLICY, /default-src 'none'/);
    assert.match(CONTENT_SECURITY_POLICY, /script-src 'self'(;|$)/);
    assert.doesNotMatch(CONTENT_SECURITY_POLICY, /unsafe-inline|unsafe-eval|https?:/);
  });

  it('serves hashed assets with a year-long immutable cache, gzipped when asked, and 304 when unchanged', async () => {
    const plain = await get('/console/assets/index-abc123.js');
    assert.equal(plain.status, 200);
    assert.equal(plain.headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal(plain.headers['cache-control'], 'public, max-age=31536000, immutable');
    assert.equal(plain.body.toString(), script);
    const gzipped = await get('/console/assets/index-abc123.js', { 'Accept-Encoding': 'gzip' });
    assert.equal(gzipped.headers['content-encoding'], 'gzip');
    assert.ok(gzipped.body.length < script.length / 10);
    assert.equal(zlib.gunzipSync(gzipped.body).toString(), script);
    const again = await get('/console/assets/index-abc123.js', { 'If-None-Match': plain.headers.etag! });
    assert.equal(again.status, 304);
    assert.equal((await get('/console/favicon.svg')).headers['cache-control'], 'public, max-age=3600');
  });

  it('answers 404 for a missing asset and never serves a file outside the build', async () => {
    const missing = await get('/console/assets/index-old999.js');
    assert.equal(missing.status, 404);
    assert.equal((JSON.parse(missing.body.toString()) as { error: { code: string } }).error.code, 'not_found');
    for (const p of [
      '/console/../package.json',
      '/console/%2e%2e/package.json',
      '/console/assets/..%2f..%2fpackage.json',
    ]) {
      const res = await get(p);
      assert.ok(!res.body.toString().includes('"name"'), p);
    }
    assert.equal((await get('/other')).status, 404, 'paths outside /console pass through');
  });
});

describe('console files before a build', () => {
  it('answers 503 saying how to build', async () => {
    const app = new Koa();
    app.use(errorMiddleware(createLogger('silent')));
    app.use(consoleStatic(path.join(os.tmpdir(), 'pi-no-such-build')));
    const server = http.createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/console/features`);
      assert.equal(res.status, 503);
      const body = (await res.json()) as { error: { message: string } };
      assert.match(body.error.message, /npm run console:build/);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
