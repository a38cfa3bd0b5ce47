import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import type { Middleware } from 'koa';
import { unavailable } from '../errors.js';

/** Where `npm run console:build` (scripts/console-build.ts) writes the console. */
export const CONSOLE_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'console', 'dist');

export const CONSOLE_PATH = '/console';

/**
 * Only our own files run, style and connect: no inline script or style, no other origin (the
 * console fetches nothing from outside), no framing. 'self' in connect-src covers the same-origin
 * WebSocket of the stream.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};

interface Asset {
  body: Buffer;
  gzip: Buffer | undefined;
  type: string;
  etag: string;
  cacheControl: string;
}

/** Every file of the build, in memory (it is small), keyed by its URL path; undefined when not built. */
function loadBuild(dir: string): Map<string, Asset> | undefined {
  if (!fs.existsSync(path.join(dir, 'index.html'))) return undefined;
  const assets = new Map<string, Asset>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    const urlPath = `${CONSOLE_PATH}/${path.relative(dir, file).split(path.sep).join('/')}`;
    const body = fs.readFileSync(file);
    const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
    const compressible = /^(text\/|application\/json|image\/svg)/.test(type) && body.length > 1024;
    assets.set(urlPath, {
      body,
      gzip: compressible ? zlib.gzipSync(body, { level: 9 }) : undefined,
      type,
      etag: `"${crypto.createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
      // File names under assets/ carry a hash of their content: they never change, so cache for good.
      cacheControl: urlPath.startsWith(`${CONSOLE_PATH}/assets/`)
        ? 'public, max-age=31536000, immutable'
        : urlPath.endsWith('.html')
          ? 'no-cache'
          : 'public, max-age=3600',
    });
  }
  return assets;
}

/**
 * Serves the built console under /console: its files, and index.html for every other path (the
 * console's own routes, e.g. /console/settings/api-keys). Only files found in the build are
 * served, so no request path reaches the file system.
 */
export function consoleStatic(dir = CONSOLE_DIST): Middleware {
  let build: Map<string, Asset> | undefined;
  return async (ctx, next) => {
    if (ctx.path !== CONSOLE_PATH && !ctx.path.startsWith(`${CONSOLE_PATH}/`)) {
      await next();
      return;
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      await next();
      return;
    }
    build ??= loadBuild(dir);
    if (!build) throw unavailable('The console is not built: run `npm run console:build` (npm start does it).');
    let asset = build.get(ctx.path);
    if (!asset) {
      // A missing hashed file is a 404 (a stale page asking for an old build), not the app.
      if (ctx.path.startsWith(`${CONSOLE_PATH}/assets/`)) {
        await next();
        return;
      }
      asset = build.get(`${CONSOLE_PATH}/index.html`)!;
    }
    ctx.set({
      'Content-Security-Policy': CONTENT_SECURITY_POLICY,
      'X-Content-Type-Options': 'nosniff',
      'X-Frame-Options': 'DENY',
      'Referrer-Policy': 'no-referrer',
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Resource-Policy': 'same-origin',
      'Cache-Control': asset.cacheControl,
      Vary: 'Accept-Encoding',
    });
    ctx.type = asset.type;
    ctx.etag = asset.etag;
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    if (asset.gzip && ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
      ctx.set('Content-Encoding', 'gzip');
      ctx.body = asset.gzip;
    } else {
      ctx.body = asset.body;
    }
  };
}
