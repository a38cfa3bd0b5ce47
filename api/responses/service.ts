import { RATE_TIERS } from '../../store/projects.js';
import { ROLES } from '../console/roles.js';
import { WAITS } from '../waits.js';
import { type Schema, array, bool, int, literal, num, obj, enumOf, ref, str, timestamp } from './shapes.js';

const check = obj({ status: enumOf('ok', 'down'), latency_ms: int }, { error: str });

const member = obj({
  id: str,
  email: { type: 'string', format: 'email' },
  role: enumOf(...ROLES),
  has_password: bool,
  created_at: timestamp,
});

/** Health, rate limit, the OpenAPI document and the console's own endpoints. */
export const SERVICE_SCHEMAS = {
  Health: obj({ status: enumOf('ok', 'degraded') }),
  HealthDetails: obj({
    status: enumOf('ok', 'degraded'),
    checked_at: timestamp,
    checks: obj({ postgres: check, kafka: check, registry: check }),
    event_loop: obj({ since: timestamp, p50_ms: num, p99_ms: num, max_ms: num }),
    waits: obj(Object.fromEntries(WAITS.map((w) => [w, obj({ count: int, p50_ms: num, p99_ms: num, max_ms: num })]))),
  }),
  RateLimitSettings: obj({
    tier: enumOf(...RATE_TIERS),
    limit_per_hour: { type: 'integer', minimum: 1 },
    window: obj({
      start: { ...timestamp, description: 'start of the current clock-hour window' },
      reset: { ...int, description: 'end of the window, Unix epoch seconds (X-RateLimit-Reset)' },
      used: { ...int, description: 'requests counted in the window, this one included' },
      remaining: { ...int, description: 'X-RateLimit-Remaining' },
    }),
  }),
  NameCaps: obj({
    caps: obj({ event: int, feature: int, page: int, element: int }),
    established_days: { ...int, description: 'names used in this many days before are never folded' },
    folded_into: str,
    days: array(
      obj({
        date: str,
        ...Object.fromEntries(
          ['event', 'feature', 'page', 'element'].map((k) => [k, obj({ new_names: int, folded_events: int })]),
        ),
      }),
      'today first, then the week before',
    ),
  }),
  OpenApiDocument: {
    type: 'object',
    required: ['openapi', 'info', 'paths', 'components'],
    properties: {
      openapi: { type: 'string', pattern: '^3\\.1\\.' },
      info: { type: 'object' },
      paths: { type: 'object' },
      components: { type: 'object' },
    },
  },
  ConsoleSession: obj({
    user: obj({ id: str, email: str, role: enumOf(...ROLES), has_password: bool }),
    project: obj({ id: str, name: str }),
    csrf_token: str,
    via_link: bool,
    expires_at: timestamp,
  }),
  ConsoleSignedOut: obj({ signed_out: literal(true), sessions_ended: int }),
  ConsolePasswordSet: obj({ password_set: literal(true), other_sessions_ended: int }),
  ConsoleStreamToken: obj({ token: str, expires_at: timestamp }),
  ConsoleMember: member,
  ConsoleMembers: obj({ members: array(ref('ConsoleMember')) }),
  ConsoleInvitation: obj({ member: ref('ConsoleMember'), sign_in_link: str, expires_at: timestamp }),
  ConsoleSignInLink: obj({ sign_in_link: str, expires_at: timestamp }),
  Deleted: obj({ id: str, deleted: literal(true) }),
  Disconnected: obj({ deleted: literal(true) }),
} satisfies Record<string, Schema>;
