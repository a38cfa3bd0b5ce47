import type { FrictionSignal, PageFacts, ElementFacts } from '../contribution/types.js';
import { type AnalyticsEvent, isClick, isPageView, prop } from '../event.js';
import type { AnalyticsConfig } from '../analytics-config.js';
import type { Session } from '../session.js';
import { detectBacktracks } from './detectors/backtrack.js';
import { detectDeadClicks } from './detectors/dead.js';
import { detectIdle } from './detectors/idle.js';
import { detectLoops } from './detectors/loop.js';
import { detectRageClicks } from './detectors/rage.js';
import { navigation, pagesOf } from './signal.js';
import { noFriction } from './index.js';

export interface SessionFriction {
  signals: FrictionSignal[];
  pages: Map<string, PageFacts>;
  /** keyed by page, then element */
  elements: Map<string, Map<string, ElementFacts>>;
}

const emptyPage = (): PageFacts => ({ ...noFriction(), rage_episodes: 0, loops: 0, idle_gaps: 0 });

/** Every detector over one session (events in time order), and the per-page/element facts. */
export function analyseSessionFriction(session: Session, config: AnalyticsConfig, final: boolean): SessionFriction {
  const events: AnalyticsEvent[] = session.events;
  const id = session.session_id;
  const pages = pagesOf(events, prop.page);
  const views = navigation(events, isPageView, prop.page);
  const signals = [
    ...detectRageClicks(id, events, pages, config.rage),
    ...detectDeadClicks(id, events, pages, config.dead, final),
    ...detectLoops(id, views, config.loop),
    ...detectBacktracks(id, views, config.backtrack),
    ...detectIdle(id, events, pages, config.idle),
  ].sort((a, b) => a.at - b.at || a.kind.localeCompare(b.kind));

  const pageFacts = new Map<string, PageFacts>();
  const elementFacts = new Map<string, Map<string, ElementFacts>>();
  const page = (name: string) => {
    let facts = pageFacts.get(name);
    if (!facts) pageFacts.set(name, (facts = emptyPage()));
    return facts;
  };
  const element = (pageName: string, name: string) => {
    let byElement = elementFacts.get(pageName);
    if (!byElement) elementFacts.set(pageName, (byElement = new Map<string, ElementFacts>()));
    let facts = byElement.get(name);
    if (!facts) byElement.set(name, (facts = { clicks: 0, dead_clicks: 0, rage_clicks: 0, rage_episodes: 0 }));
    return facts;
  };

  for (const view of views) page(view.page).views++;
  events.forEach((event, i) => {
    const on = pages[i];
    if (on == null) return;
    if (isClick(event)) {
      page(on).clicks++;
      const name = prop.element(event);
      if (name !== undefined) element(on, name).clicks++;
    }
    const next = events[i + 1];
    if (next) {
      const gap = next.timestamp - event.timestamp;
      const counted = Math.min(gap, config.idle.capMs);
      page(on).active_ms += counted;
      if (gap > config.idle.minGapMs) {
        page(on).idle_ms += counted;
        page(on).idle_gaps++;
      }
    }
  });
  for (const s of signals) {
    if (s.page === null) continue;
    const facts = page(s.page);
    if (s.kind === 'dead_click') facts.dead_clicks++;
    if (s.kind === 'rage_click') {
      facts.rage_clicks += s.count;
      facts.rage_episodes++;
    }
    if (s.kind === 'confusion_loop') {
      facts.loops++;
      facts.loop_views += Math.ceil(s.count / 2);
    }
    if (s.kind === 'backtrack') facts.backtracks++;
    if (s.element !== null && (s.kind === 'dead_click' || s.kind === 'rage_click')) {
      const el = element(s.page, s.element);
      if (s.kind === 'dead_click') el.dead_clicks++;
      else {
        el.rage_clicks += s.count;
        el.rage_episodes++;
      }
    }
  }
  return { signals, pages: pageFacts, elements: elementFacts };
}
