import crypto from 'node:crypto';
import type { AnalyticsConfig } from '../analytics-config.js';
import { frictionIndex } from './index.js';
import type { SessionContribution, SignalKind } from '../contribution/types.js';

/**
 * The signals announced to customers as user.friction_detected. Rage clicks and confusion loops
 * are final once seen; a dead click is not (the next event can still answer it) and idle gaps
 * and backtracks are too common to be worth a message each.
 */
export const ANNOUNCED_SIGNALS: readonly SignalKind[] = ['rage_click', 'confusion_loop'];

export interface FrictionEpisode {
  episode_id: string;
  user_id: string;
  session_id: string;
  signal: SignalKind;
  page: string | null;
  element: string | null;
  /** the Friction Index of the signal's page within the session */
  friction_index: number;
  /** epoch ms of the episode's last event: the moment it became recognisable */
  detected_at: number;
}

/** The session's announceable episodes; ids depend on the user and events, not on session cuts. */
export function frictionEpisodes(
  userId: string,
  c: SessionContribution,
  weights: AnalyticsConfig['weights'],
): FrictionEpisode[] {
  return c.signals
    .filter((s) => ANNOUNCED_SIGNALS.includes(s.kind))
    .map((s) => {
      const page = c.pages.find((p) => p.page === s.page);
      return {
        episode_id: `fe_${crypto
          .createHash('sha256')
          .update(`${userId}\u0000${s.kind}\u0000${s.message_ids[0] ?? s.signal_id}`)
          .digest('hex')
          .slice(0, 24)}`,
        user_id: userId,
        session_id: c.session_id,
        signal: s.kind,
        page: s.page,
        element: s.element,
        friction_index: page ? frictionIndex(page, weights) : 0,
        detected_at: s.at + s.timings_ms.reduce((sum, t) => sum + t, 0),
      };
    });
}
