/**
 * How long a project keeps what ages (docs/api.md, "Retention"): raw events by when they
 * happened, finished webhook deliveries, finished report runs and friction alerts by when they
 * were made, warehouse export files on the service's disk by when they were written. Whole days;
 * what a project does not set keeps its default.
 */
export interface Retention {
  rawEventsDays: number;
  webhookDeliveriesDays: number;
  reportRunsDays: number;
  alertsDays: number;
  exportFilesDays: number;
}

export const RETENTION_DEFAULTS: Retention = {
  // 100 years, i.e. kept: raw events are the customer's history (exports, backfills of old
  // events), so they go only when the project says so.
  rawEventsDays: 36_500,
  webhookDeliveriesDays: 30,
  reportRunsDays: 365,
  alertsDays: 365,
  exportFilesDays: 30,
};

export const retention = (overrides: Partial<Retention> | null | undefined): Retention => ({
  ...RETENTION_DEFAULTS,
  ...overrides,
});

const DAY_MS = 86_400_000;

/** The instant before which a kind of data is deleted, `days` before `now`. */
export const cutoff = (now: Date, days: number): Date => new Date(now.getTime() - days * DAY_MS);
