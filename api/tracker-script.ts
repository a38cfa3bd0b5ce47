import crypto from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import type { Middleware } from 'koa';
import type { Logger } from '../lib/log.js';
import { unavailable } from './errors.js';

/** Written by `npm run build:tracker` (scripts/build-tracker.ts), which npm start and npm test run first. */
export const TRACKER_BUNDLE = fileURLToPath(new URL('../dist/tracker.js', import.meta.url));

export interface TrackerScript {
  code: Buffer;
  gzip: Buffer;
  /** first 16 hex digits of the SHA-256 of the code: the ETag and the versioned name tracker.<version>.js */
  version: string;
}

export function loadTrackerScript(file = TRACKER_BUNDLE): TrackerScript | undefined {
  if (!fs.existsSync(file)) return undefined;
  const code = fs.readFileSync(file);
  return {
    code,
    gzip: zlib.gzipSync(code, { level: 9 }),
    version: crypto.createHash('sha256').update(code).digest('hex').slice(0, 16),
  };
}

const VERSIONED = /^\/tracker\.([0-9a-f]{16})\.js$/;

/**
 * GET /tracker.js (public, revalidated every 5 min) and GET /tracker.<version>.js or
 * /tracker.js?v=<version> (immutable for a year), outside /v1 like any static script. Other paths pass.
 */
export function trackerScript(script: TrackerScript | undefined, log: Logger): Middleware {
  if (!script)
    log.warn({ file: TRACKER_BUNDLE }, 'tracker bundle not built (npm run build:tracker): /tracker.js answers 503');
  return async (ctx, next) => {
    const versioned = VERSIONED.exec(ctx.path)?.[1];
    if ((ctx.path !== '/tracker.js' && !versioned) || !['GET', 'HEAD'].includes(ctx.method)) {
      await next();
      return;
    }
    if (!script) throw unavailable('The tracker bundle is not built; run npm run build:tracker and restart.');
    const asked = versioned ?? (typeof ctx.query.v === 'string' ? ctx.query.v : undefined);
    // An old version is gone: a 404 is better than old code cached for a year under its name.
    if (versioned && versioned !== script.version) {
      await next();
      return;
    }
    const immutable = asked === script.version;
    ctx.set({
      'Cache-Control': immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
      ETag: `"${script.version}"`,
      'X-Tracker-Version': script.version,
      Vary: 'Accept-Encoding',
      // Loadable by any page, also with crossorigin="anonymous" or under Cross-Origin-Embedder-Policy.
      'Access-Control-Allow-Origin': '*',
      'Cross-Origin-Resource-Policy': 'cross-origin',
      'X-Content-Type-Options': 'nosniff',
    });
    ctx.type = 'application/javascript; charset=utf-8';
    ctx.status = 200;
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    const gzip = ctx.acceptsEncodings('gzip', 'identity') === 'gzip';
    if (gzip) ctx.set('Content-Encoding', 'gzip');
    ctx.body = gzip ? script.gzip : script.code;
  };
}
