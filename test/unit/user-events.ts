import type { AnalyticsEvent } from '../../domain/event.js';

let offset = 0;

/** An event of user u1 at `timestamp`, received 20 ms later, after every event built before it. */
export const userEvent = (
  id: string,
  timestamp: number,
  event: string,
  properties: Record<string, unknown> = {},
): AnalyticsEvent => ({
  message_id: id,
  user_id: 'u1',
  event,
  timestamp,
  received_at: timestamp + 20,
  offset: offset++,
  properties,
});
