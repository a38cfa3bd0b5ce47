import crypto from 'node:crypto';
import type { AnalyticsConfig } from '../../lib/analytics-config.js';
import { type FrictionTotals, frictionIndex } from '../../lib/friction-index.js';

export interface PageDay {
  projectId: string;
  page: string;
  day: string;
}

export interface FrictionAlert extends PageDay {
  alertId: string;
  index: number;
  users: number;
}

/**
 * The alert a page's day raises, or null: its Friction Index at or above `alerts.frictionIndex`
 * with at least `alerts.minUsersAffected` users affected (both bounds inclusive). The id is one
 * per project, page and day, so the page alerts once that day (de-duplicated in time).
 */
export function frictionAlert(
  pageDay: PageDay,
  totals: FrictionTotals,
  users: number,
  config: Pick<AnalyticsConfig, 'alerts' | 'weights'>,
): FrictionAlert | null {
  const index = frictionIndex(totals, config.weights);
  if (index < config.alerts.frictionIndex || users < config.alerts.minUsersAffected) return null;
  const key = `${pageDay.projectId}\u0000${pageDay.page}\u0000${pageDay.day}`;
  const alertId = `fa_${crypto.createHash('sha256').update(key).digest('hex').slice(0, 20)}`;
  return { ...pageDay, alertId, index, users };
}
