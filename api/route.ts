import type Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import type { Scope } from '../store/api-keys.js';
import type { Pool } from '../lib/db.js';
import { authenticate, requireScope } from './auth.js';
import type { AuthThrottle } from './auth-throttle.js';
import { jsonBody, problemAt } from './body.js';
import { fieldError } from './errors.js';
import { rateLimits } from './rate-limit.js';
import type { ResponseName } from './responses/index.js';
import { validate } from './validate.js';

declare module 'koa' {
  interface DefaultState {
    /** The query parameters the matched route declares: the only ones api/query.ts reads. */
    queryParams?: ReadonlySet<string>;
  }
}

/** A query parameter as documented in OpenAPI; parsing stays in the handler (api/query.ts). */
export interface QueryParam {
  name: string;
  description: string;
  schema: Record<string, unknown>;
  required?: boolean;
}

/**
 * One endpoint: everything the router and the OpenAPI document need, declared once. Requests
 * pass authentication → rate limit → scope → JSON body → schema validation before `handle`.
 */
export interface Route<Body = unknown> {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Koa style: /jobs/:job_id */
  path: string;
  summary: string;
  tag: string;
  /** What a key needs (undefined = public, no key); what a console member needs: api/console/roles.ts */
  scope?: Scope;
  /** $id of the JSON Schema of the body */
  body?: string;
  /** The body carries events (one, or `events`): a browser key's count on its events budget too. */
  ingests?: true;
  query?: QueryParam[];
  /**
   * Parameters a client may expect here that the route refuses on purpose, with why (a 400
   * `not_applicable` carrying that message instead of `unknown_parameter`).
   */
  refuses?: Record<string, string>;
  success: {
    status: number;
    description: string;
    /** The answer's schema: its name in components/schemas (api/responses/) */
    schema: ResponseName;
    /** Other statuses answered with the same schema, e.g. { 201: 'created' } */
    also?: Record<number, string>;
  };
  /** Other documented outcomes, e.g. { 404: 'No such job' } */
  errors?: Record<number, string>;
  /** Media types of the success response other than JSON, e.g. { 'text/csv': 'one row per event' } */
  produces?: Record<string, string>;
  handle(ctx: Context, body: Body): Promise<void>;
}

export function defineRoute<Body>(route: Route<Body>): Route {
  return route;
}

export function mount(router: Router, routes: Route[], db: Pool, throttle: AuthThrottle): void {
  const auth = authenticate(db, throttle);
  const limits = rateLimits(db);
  for (const route of routes) {
    const chain: Middleware[] = [];
    if (route.scope)
      chain.push(auth, limits.requests, requireScope({ method: route.method, path: route.path, scope: route.scope }));
    if (route.body) chain.push(jsonBody());
    if (route.ingests) chain.push(limits.events);
    const declared = new Set((route.query ?? []).map((q) => q.name));
    chain.push(async (ctx) => {
      refuseUnknownParams(ctx, declared, route.refuses ?? {});
      refuseUnstorableParams(ctx);
      refuseOutOfSchemaNumbers(ctx, route.query ?? []);
      const body = route.body ? validate(route.body, ctx.request.json) : undefined;
      await route.handle(ctx, body);
    });
    router.register(route.path, [route.method], chain);
  }
}

/** A path parameter of the matched route (`:job_id` → pathParam(ctx, 'job_id')). */
export function pathParam(ctx: Context, name: string): string {
  const params = (ctx as Context & { params?: Record<string, string> }).params ?? {};
  const value = params[name];
  if (value === undefined) throw new Error(`route has no :${name}`);
  return value;
}

/**
 * A query parameter the route does not declare is a 400 naming it: a typo (`date_rnge`) must not
 * give a plausible answer for the default. The declared names are also the only ones the handler
 * may read (api/query.ts refuses the others), so the declaration cannot drift from the code.
 */
function refuseUnknownParams(ctx: Context, declared: ReadonlySet<string>, refuses: Record<string, string>): void {
  const unknown = Object.keys(ctx.query).find((name) => !declared.has(name));
  if (unknown !== undefined && Object.hasOwn(refuses, unknown)) {
    throw fieldError(unknown, 'not_applicable', refuses[unknown]!);
  }
  if (unknown !== undefined) {
    const known = [...declared].join(', ') || 'none';
    throw fieldError(unknown, 'unknown_parameter', `Unknown query parameter ${unknown} (this route takes: ${known}).`);
  }
  ctx.state.queryParams = declared;
}

/** Path and query values reach SQL too: the same rule as for bodies (no U+0000, no lone surrogates). */
function refuseUnstorableParams(ctx: Context): void {
  const params = (ctx as Context & { params?: Record<string, string> }).params ?? {};
  for (const [where, values] of [
    ['path', params],
    ['query', ctx.query],
  ] as const) {
    const bad = problemAt(values, '');
    if (bad)
      throw fieldError(
        bad.path,
        'invalid_characters',
        `The ${where} parameter ${bad.path} holds characters that cannot be stored.`,
      );
  }
}

/**
 * Every numeric query parameter is checked against the schema it is documented with (type number
 * or integer, minimum, maximum) before the handler reads it, on every route: a value the document
 * refuses is a 400 naming the parameter, never a value that reaches Postgres and fails there.
 */
function refuseOutOfSchemaNumbers(ctx: Context, params: QueryParam[]): void {
  for (const { name, schema } of params) {
    const raw = ctx.query[name];
    if (typeof raw !== 'string' || (schema.type !== 'number' && schema.type !== 'integer')) continue;
    const value = Number(raw);
    if (raw.trim() === '' || !Number.isFinite(value)) {
      throw fieldError(name, 'invalid_type', `${name} must be a number.`);
    }
    if (schema.type === 'integer' && !/^-?\d+$/.test(raw.trim())) {
      throw fieldError(name, 'invalid_type', `${name} must be a whole number.`);
    }
    const min = typeof schema.minimum === 'number' ? schema.minimum : -Infinity;
    const max = typeof schema.maximum === 'number' ? schema.maximum : Infinity;
    if (value < min || value > max) {
      const bounds = [min > -Infinity ? `at least ${min}` : '', max < Infinity ? `at most ${max}` : ''];
      throw fieldError(name, 'out_of_range', `${name} must be ${bounds.filter(Boolean).join(' and ')}.`);
    }
  }
}
