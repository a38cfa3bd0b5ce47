import crypto from 'node:crypto';
import type { AnalyticsConfig } from '../analytics-config.js';
import { type FrictionTotals, frictionIndex } from './index.js';

export interface PageDay {
  projectId: string;
  page: string;
  day: string;
  /** latest receipt time (epoch ms) of the events of the sessions that changed the page's day in this batch */
  receivedAt: number;
}

export interface FrictionAlert extends Omit<PageDay, 'receivedAt'> {
  alertId: string;
  index: number;
  users: number;
}

/**
 * The alert a page's day raises, or null: its Friction Index at or above `alerts.frictionIndex`
 * with at least `alerts.minUsersAffected` users affected (both bounds inclusive), moved there by
 * events received at most `alerts.maxReceiptAgeMs` before `now` — alerts are news: a replay of
 * older events raises none. The id is one per project, page and day, so the page alerts once that
 * day (de-duplicated in time).
 */
export function frictionAlert(
  pageDay: PageDay,
  totals: FrictionTotals,
  users: number,
  config: Pick<AnalyticsConfig, 'alerts' | 'weights'>,
  now: number,
): FrictionAlert | null {
  if (now - pageDay.receivedAt > config.alerts.maxReceiptAgeMs) return null;
  const index = frictionIndex(totals, config.weights);
  if (index < config.alerts.frictionIndex || users < config.alerts.minUsersAffected) return null;
  const { projectId, page, day } = pageDay;
  const alertId = `fa_${crypto.createHash('sha256').update(`${projectId}\u0000${page}\u0000${day}`).digest('hex').slice(0, 20)}`;
  return { projectId, page, day, alertId, index, users };
}
