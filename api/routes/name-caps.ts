import type { Pool } from '../../lib/db.js';
import { ESTABLISHED_DAYS, FOLDED, NAME_CAPS, NAME_KINDS } from '../../domain/name-caps.js';
import { type Route, defineRoute } from '../route.js';
import { nameCapDays } from '../../store/name-caps.js';

/** The days shown: today and the week before. */
const DAYS_SHOWN = 8;

/**
 * The caps on distinct names per day (domain/name-caps.ts) and what they did to the project's last
 * days: names admitted and events whose names were folded into "(other)".
 */
export function nameCapRoutes(db: Pool): Route[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/settings/name-caps',
      tag: 'Settings',
      summary: `New event, feature, page and element names a project may bring in per day, and the events folded into "${FOLDED}" beyond them`,
      scope: 'admin',
      success: { status: 200, schema: 'NameCaps', description: '{ caps, established_days, folded_into, days }' },
      async handle(ctx) {
        const rows = await nameCapDays(db, ctx.state.auth.projectId, DAYS_SHOWN, NAME_KINDS);
        const days = new Map<string, Record<string, { new_names: number; folded_events: number }>>();
        for (const r of rows) {
          days.set(r.day, { ...days.get(r.day), [r.kind]: { new_names: r.admitted, folded_events: r.folded } });
        }
        ctx.body = {
          caps: NAME_CAPS,
          established_days: ESTABLISHED_DAYS,
          folded_into: FOLDED,
          days: [...days].map(([date, kinds]) => ({ date, ...kinds })),
        };
      },
    }),
  ];
}
