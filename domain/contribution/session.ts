import type { AnalyticsConfig } from '../analytics-config.js';
import type { ContextFacts, SessionContribution } from './types.js';
import { sessionOccurrences } from '../context/occurrences.js';
import { sessionFeatures } from '../features/facts.js';
import { analyseSessionFriction } from '../friction/session.js';
import type { Session } from '../session.js';

export function sessionContribution(session: Session, config: AnalyticsConfig): SessionContribution {
  const friction = analyseSessionFriction(session, config, true);
  const contexts = new Map<string, ContextFacts>();
  for (const o of sessionOccurrences(session, friction.signals, config)) {
    const key = `${o.event}\u0000${o.context}`;
    let c = contexts.get(key);
    if (!c) {
      c = {
        event: o.event,
        context: o.context,
        count: 0,
        successes: 0,
        dead_click: 0,
        rage_click: 0,
        confusion_loop: 0,
        backtrack: 0,
      };
      contexts.set(key, c);
    }
    c.count++;
    if (o.success) c.successes++;
    for (const issue of o.issues) if (issue !== 'idle') c[issue]++;
  }
  const byName = <T>(entries: [string, T][]) => entries.sort(([a], [b]) => a.localeCompare(b));
  return {
    session_id: session.session_id,
    user_id: session.user_id,
    day: new Date(session.started_at).toISOString().slice(0, 10),
    started_at: session.started_at,
    ended_at: session.ended_at,
    events: session.events.length,
    pages: byName([...friction.pages]).map(([page, facts]) => ({ page, ...facts })),
    elements: byName([...friction.elements]).flatMap(([page, byElement]) =>
      byName([...byElement]).map(([element, facts]) => ({ page, element, ...facts })),
    ),
    features: sessionFeatures(session, config),
    contexts: [...contexts.values()].sort(
      (a, b) => a.event.localeCompare(b.event) || a.context.localeCompare(b.context),
    ),
    signals: friction.signals,
  };
}
