/**
 * The arithmetic of a fault's figures (pure: test/unit/faults-report.test.ts): what the client
 * saw, what Postgres holds, and the verdict. `npm run faults` (scripts/faults.ts) feeds it.
 */
import { percentiles } from '../bench/stats.js';

/** One logical message of the load: every attempt's answer until it was acknowledged or given up. */
export interface Sent {
  messageId: string;
  /** HTTP status of each attempt in order; 0 = network error or no answer within the client's timeout. */
  statuses: number[];
  /** How long each attempt took to be answered, ms. */
  latenciesMs: number[];
  /** When the 202 came (ms on the run's clock), if one came. */
  ackedAt?: number;
}

/** One timed request of the bystander loop. */
export interface Probe {
  what: string;
  status: number;
  ms: number;
  /** the answer expected: 200, or for /health also 503 (degraded is a right answer during a fault) */
  ok: boolean;
}

/** What Postgres holds of the fault's messages once drained (or the drain gave up). */
export interface Stored {
  /** message_id → copies in raw_events */
  raw: Map<string, number>;
  /** message_id → copies in session_events (the end of the analytics chain) */
  sessionEvents: Map<string, number>;
  /** sum(sessions.events) of the fault's users: more than session_events counts an event twice */
  sessionEventTotal: number;
}

/** ms until every message in question was in raw_events / session_events; null = not within the wait. */
export interface Visible {
  raw: number | null;
  session_events: number | null;
}

export interface FaultFigures {
  sent: number;
  acknowledged: number;
  /** attempts refused, by HTTP status (0 = network error or timeout) */
  refused: Record<string, number>;
  /** attempts after the first one */
  retried: number;
  /** messages never acknowledged (retries exhausted) */
  abandoned: number;
  /** abandoned messages that were stored all the same (a refused send that landed) */
  abandoned_but_stored: number;
  lost_raw: number;
  lost_session_events: number;
  duplicates_raw: number;
  duplicates_session_events: number;
  /** sum(sessions.events) minus session_events rows of the fault's users: > 0 counts events twice */
  session_count_excess: number;
  /** from the fault cleared until every event acknowledged by then was visible */
  visible_after_clear_ms: Visible;
  /** from the last acknowledgement (the load's end) until every acknowledged event was visible */
  visible_after_last_ack_ms: Visible;
  ingest_ms: ReturnType<typeof percentiles>;
  bystanders: Record<string, ReturnType<typeof percentiles> & { failed: number }>;
  /** supervisor lines "<role> exited (…); restarting" during the fault */
  restarts: string[];
}

export function figures(
  sent: Sent[],
  probes: Probe[],
  stored: Stored,
  visible: { afterClear: Visible; afterLastAck: Visible },
  restarts: string[],
): FaultFigures {
  const refused: Record<string, number> = {};
  let retried = 0;
  for (const s of sent) {
    retried += Math.max(0, s.statuses.length - 1);
    for (const status of s.statuses) if (status !== 202) refused[status] = (refused[status] ?? 0) + 1;
  }
  const acked = sent.filter((s) => s.ackedAt !== undefined);
  const abandoned = sent.filter((s) => s.ackedAt === undefined);
  const copies = (map: Map<string, number>, id: string) => map.get(id) ?? 0;
  const twice = (map: Map<string, number>) => [...map.values()].filter((n) => n > 1).length;
  const byWhat = new Map<string, Probe[]>();
  for (const p of probes) byWhat.set(p.what, [...(byWhat.get(p.what) ?? []), p]);
  return {
    sent: sent.length,
    acknowledged: acked.length,
    refused,
    retried,
    abandoned: abandoned.length,
    abandoned_but_stored: abandoned.filter((s) => copies(stored.raw, s.messageId) > 0).length,
    lost_raw: acked.filter((s) => copies(stored.raw, s.messageId) === 0).length,
    lost_session_events: acked.filter((s) => copies(stored.sessionEvents, s.messageId) === 0).length,
    duplicates_raw: twice(stored.raw),
    duplicates_session_events: twice(stored.sessionEvents),
    session_count_excess: stored.sessionEventTotal - [...stored.sessionEvents.values()].reduce((a, n) => a + n, 0),
    visible_after_clear_ms: visible.afterClear,
    visible_after_last_ack_ms: visible.afterLastAck,
    ingest_ms: percentiles(sent.flatMap((s) => s.latenciesMs)),
    bystanders: Object.fromEntries(
      [...byWhat].map(([what, list]) => [
        what,
        { ...percentiles(list.map((p) => p.ms)), failed: list.filter((p) => !p.ok).length },
      ]),
    ),
    restarts,
  };
}

/** Whether the fault broke the promise: something acknowledged lost, or something stored (or counted) twice. */
export function broken(f: FaultFigures): boolean {
  return (
    f.lost_raw + f.lost_session_events + f.duplicates_raw + f.duplicates_session_events > 0 ||
    f.session_count_excess > 0
  );
}

const cell = (v: number | null) => (v === null || Number.isNaN(v) ? '—' : String(Math.round(v)));

/** The table printed at the end of a run, one row per fault. */
export function table(rows: { fault: string; figures: FaultFigures }[]): string {
  const header = [
    'fault',
    'sent',
    'acked',
    'refused (status×n)',
    'retried',
    'lost',
    'twice',
    'visible ms (clear/last)',
    'ingest p50/p99 ms',
    'bystanders p99 ms (failed)',
    'restarts',
  ];
  const lines = rows.map(({ fault, figures: f }) => [
    fault,
    String(f.sent),
    String(f.acknowledged),
    Object.entries(f.refused)
      .map(([status, n]) => `${status === '0' ? 'net' : status}×${n}`)
      .join(' ') || '—',
    String(f.retried),
    `${f.lost_raw}/${f.lost_session_events}`,
    `${f.duplicates_raw}/${f.duplicates_session_events}/${f.session_count_excess}`,
    `${cell(f.visible_after_clear_ms.session_events)}/${cell(f.visible_after_last_ack_ms.session_events)}`,
    `${cell(f.ingest_ms.p50)}/${cell(f.ingest_ms.p99)}`,
    Object.entries(f.bystanders)
      .map(([what, b]) => `${what} ${cell(b.p99)} (${b.failed})`)
      .join(', '),
    f.restarts.length === 0 ? 'none' : f.restarts.join(' '),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const row = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  return [
    row(header),
    ...lines.map(row),
    '',
    'lost = acknowledged but missing in raw_events/session_events; twice = raw/session_events/sum(sessions.events) excess;',
    'visible ms = until every event acknowledged by then was in session_events: after the fault was cleared / after the last 202.',
  ].join('\n');
}
