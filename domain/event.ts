/** An event as the analytics cores see it: parsed properties, times in epoch ms. */
export interface AnalyticsEvent {
  message_id: string;
  user_id: string;
  event: string;
  timestamp: number;
  received_at: number;
  /** Arrival order within the user's partition: breaks timestamp ties stably. */
  offset: number;
  properties: Record<string, unknown>;
}

/** Vocabulary readers (docs/events.md): free properties with known meanings. */
export const prop = {
  page: (e: AnalyticsEvent) => str(e.properties.page),
  element: (e: AnalyticsEvent) => str(e.properties.element),
  elementType: (e: AnalyticsEvent) => str(e.properties.element_type),
  feature: (e: AnalyticsEvent) => str(e.properties.feature),
  interaction: (e: AnalyticsEvent) => str(e.properties.interaction),
  uiResponse: (e: AnalyticsEvent) =>
    typeof e.properties.ui_response === 'boolean' ? e.properties.ui_response : undefined,
  uiResponseMs: (e: AnalyticsEvent) => num(e.properties.ui_response_ms),
  x: (e: AnalyticsEvent) => num(e.properties.x),
  y: (e: AnalyticsEvent) => num(e.properties.y),
  uiContext: (e: AnalyticsEvent) => {
    const c = e.properties.ui_context;
    return c !== null && typeof c === 'object' && !Array.isArray(c) ? (c as Record<string, unknown>) : {};
  },
};

const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

export const isClick = (e: AnalyticsEvent) => e.event === 'click' || prop.interaction(e) === 'click';
export const isPageView = (e: AnalyticsEvent) => e.event === 'page_view' || prop.interaction(e) === 'navigate';

/** What ordering and splitting into sessions need of an event. */
export type TimedEvent = Pick<AnalyticsEvent, 'message_id' | 'user_id' | 'timestamp' | 'offset'>;

/** Timestamp order, ties kept in arrival order. */
export const byTime = (a: TimedEvent, b: TimedEvent) => a.timestamp - b.timestamp || a.offset - b.offset;
