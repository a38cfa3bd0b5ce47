/**
 * Sets a project's rate tier: an operator's decision, so it is a command and not an API route a
 * project's own admin key could call. GET /v1/settings/rate-limit shows the result to the project.
 */
import { pathToFileURL } from 'node:url';
import { UsageError, runCli } from '../lib/cli.js';
import { loadConfig } from '../lib/config.js';
import { createPool } from '../lib/db.js';
import { outlastLeases } from '../lib/lease.js';
import { TIER_LIMITS } from '../store/api-keys.js';
import { RATE_TIERS, type RateSettings, type TierChoice, setRateTier } from '../store/projects.js';

/** Highest custom limit accepted (the column is a 32-bit integer; a billion an hour is far past any tier). */
export const MAX_LIMIT_PER_HOUR = 1_000_000_000;

/** `--tier` and `--limit` as given → the tier to store; a UsageError names what is wrong. */
export function tierChoice(tier: string | undefined, limit: string | undefined): TierChoice {
  if (tier === undefined) throw new UsageError(`--tier is required: ${RATE_TIERS.join(', ')}`);
  if (!(RATE_TIERS as readonly string[]).includes(tier)) {
    throw new UsageError(`--tier: expected ${RATE_TIERS.join(', ')}; got "${tier}"`);
  }
  if (tier !== 'enterprise') {
    if (limit !== undefined) {
      throw new UsageError(
        `--limit applies to --tier enterprise only (standard is ${TIER_LIMITS.standard}/h, pro ${TIER_LIMITS.pro}/h)`,
      );
    }
    return { tier: tier as 'standard' | 'pro' };
  }
  if (limit === undefined) throw new UsageError('--limit <requests/h> is required with --tier enterprise');
  const limitPerHour = /^\d+$/.test(limit) ? Number(limit) : NaN;
  if (!Number.isSafeInteger(limitPerHour) || limitPerHour < 1 || limitPerHour > MAX_LIMIT_PER_HOUR) {
    throw new UsageError(`--limit: expected a whole number of requests per hour from 1 to ${MAX_LIMIT_PER_HOUR}`);
  }
  return { tier: 'enterprise', limitPerHour };
}

const describe = (s: RateSettings) => `tier ${s.tier}, ${s.limitPerHour} requests per hour`;

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await runCli(
    {
      usage: 'npm run project:set -- --project <name> --tier standard|pro|enterprise [--limit <requests/h>]',
      summary: `Sets a project's rate tier: standard (${TIER_LIMITS.standard} requests per hour), pro (${TIER_LIMITS.pro}) or enterprise (--limit, required). The next request of any of its keys counts against it.`,
      options: {
        project: { type: 'string', arg: 'name', help: 'the project (as named by key:create)' },
        tier: { type: 'string', arg: 'tier', help: RATE_TIERS.join(' | ') },
        limit: { type: 'string', arg: 'requests/h', help: 'requests per hour; with --tier enterprise only' },
      },
    },
    async ({ values }) => {
      if (!values.project) throw new UsageError('--project <name> is required');
      const choice = tierChoice(values.tier, values.limit);
      const db = createPool(loadConfig().databaseUrl, 1);
      try {
        const changed = await setRateTier(db, values.project, choice);
        if (!changed) {
          throw new Error(`no project named "${values.project}" (npm run key:create -- --project … makes one)`);
        }
        // API processes answer from a key's rate limit read up to a lease ago.
        await outlastLeases();
        const { before, after } = changed;
        console.log(`project ${after.name} (${after.projectId}): ${describe(after)} (was ${describe(before)})`);
      } finally {
        await db.end();
      }
    },
  );
}
