import { actionable, answersByItself, elementName, elementType } from './element.js';

export type Properties = Record<string, unknown>;
/** Queues one event; `at` is when it happened (a click is sent once its response is known). */
export type Emit = (event: string, properties: Properties, at?: Date) => void;

/** PostHog's dead-click threshold: no DOM change, navigation, scroll or focus change within it. */
export const RESPONSE_WINDOW_MS = 2500;
/** A feature counts as seen when ≥ 50 % of it (or of the viewport) shows for this long. */
export const IMPRESSION_MS = 1000;

/**
 * The page of an event: the path, plus a hash route (`#/settings`), never a query string (it can
 * carry tokens and e-mail addresses).
 */
export function currentPage(): string {
  const route = /^#!?\//.test(location.hash) ? location.hash.split('?')[0]! : '';
  return (location.pathname + route).slice(0, 500);
}

export interface UiContext {
  empty_state?: boolean;
  data_present?: boolean;
  data_volume?: number;
  disabled?: boolean;
}

/**
 * What the user saw around `el`, from `data-pi-empty-state`, `data-pi-data-count` and disabled
 * controls: on `el` or an ancestor, and with `inside` also within `el` (a feature's own empty state).
 */
export function uiContext(el: Element, inside: boolean): UiContext | undefined {
  const find = (selector: string) => el.closest(selector) ?? (inside ? el.querySelector(selector) : null);
  const context: UiContext = {};
  const empty = find('[data-pi-empty-state]');
  if (empty) context.empty_state = empty.getAttribute('data-pi-empty-state') !== 'false';
  const counted = find('[data-pi-data-count]');
  const count = Number(counted?.getAttribute('data-pi-data-count') ?? NaN);
  if (Number.isFinite(count) && count >= 0) {
    context.data_volume = count;
    context.data_present = count > 0;
  }
  if (el.matches(':disabled') || el.closest('[aria-disabled="true"]')) context.disabled = true;
  return Object.keys(context).length > 0 ? context : undefined;
}

interface PendingClick {
  properties: Properties;
  at: Date;
  started: number;
  target: Element;
  timer?: ReturnType<typeof setTimeout>;
}

export interface Capture {
  /** Emits a page_view for the current page (again, with `force`). */
  pageView(force?: boolean): void;
  /** The page is being left or hidden: clicks still waiting count as answered (the view changed). */
  leave(): void;
  /** Resolves once no click waits for its response any more. */
  settle(): Promise<void>;
}

/**
 * Starts capturing page views, clicks (with their UI response), feature impressions and uses.
 * `redact` rewrites every page before it is emitted; a route change is told by the page as it is.
 */
export function startCapture(emit: Emit, redact: (page: string) => string = (page) => page): Capture {
  let lastPage = '';
  let pending: PendingClick[] = [];
  let settled: (() => void)[] = [];

  const finish = (click: PendingClick, responded: boolean) => {
    clearTimeout(click.timer);
    pending = pending.filter((p) => p !== click);
    const waited = Math.round(performance.now() - click.started);
    emit('click', { ...click.properties, ui_response: responded, ui_response_ms: waited }, click.at);
    if (pending.length === 0) {
      settled.forEach((resolve) => resolve());
      settled = [];
    }
  };
  const respond = () => pending.forEach((click) => finish(click, true));

  const onClick = (e: MouseEvent) => {
    const target = e.target instanceof Element ? e.target : null;
    if (!target || target.closest('[data-pi-ignore]')) return;
    const el = actionable(target);
    const page = redact(currentPage());
    const element = elementName(el);
    const context = uiContext(el, false);
    const withContext = context ? { ui_context: context } : {};
    const properties: Properties = { page, element, element_type: elementType(el), ...withContext };
    // detail 0: a click made with the keyboard (Enter, Space) has no position.
    if (e.detail > 0 || e.type !== 'click')
      Object.assign(properties, { x: Math.round(e.clientX), y: Math.round(e.clientY) });
    const feature = target.closest('[data-pi-feature]')?.getAttribute('data-pi-feature');
    if (feature) emit('feature_used', { page, feature: feature.slice(0, 255), element, ...withContext });
    const at = new Date();
    if (answersByItself(el)) {
      emit('click', { ...properties, ui_response: true, ui_response_ms: 0 }, at);
      return;
    }
    const click: PendingClick = { properties, at, started: performance.now(), target: el };
    click.timer = setTimeout(() => finish(click, false), RESPONSE_WINDOW_MS);
    pending.push(click);
  };
  document.addEventListener('click', onClick, true);
  // A disabled native control swallows its click; the pointer still tells that it was pressed.
  document.addEventListener(
    'pointerup',
    (e) => {
      if (e.target instanceof Element && e.target.closest(':disabled')) onClick(e);
    },
    true,
  );

  // What counts as the UI answering a click.
  addEventListener('scroll', respond, { capture: true, passive: true });
  document.addEventListener(
    'focusin',
    (e) =>
      pending.forEach((click) => {
        if (e.target instanceof Node && !e.target.contains(click.target)) finish(click, true);
      }),
    true,
  );

  const seen = new Set<string>();
  const timers = new Map<Element, ReturnType<typeof setTimeout>>();
  const impress = (el: Element) => {
    timers.delete(el);
    if (document.visibilityState !== 'visible') {
      timers.set(
        el,
        setTimeout(() => impress(el), IMPRESSION_MS),
      );
      return;
    }
    const name = el.getAttribute('data-pi-feature');
    if (!name || seen.has(name) || !el.isConnected) return;
    seen.add(name);
    const context = uiContext(el, true);
    emit('feature_impression', {
      page: redact(currentPage()),
      feature: name.slice(0, 255),
      ...(context && { ui_context: context }),
    });
  };
  const visibility =
    typeof IntersectionObserver === 'function'
      ? new IntersectionObserver(
          (entries) => {
            for (const entry of entries) {
              const el = entry.target;
              const seenArea = entry.intersectionRect.width * entry.intersectionRect.height;
              const root = entry.rootBounds;
              const shown =
                entry.isIntersecting &&
                (entry.intersectionRatio >= 0.5 || (!!root && seenArea >= 0.5 * root.width * root.height));
              if (shown && !timers.has(el))
                timers.set(
                  el,
                  setTimeout(() => impress(el), IMPRESSION_MS),
                );
              if (!shown) {
                clearTimeout(timers.get(el));
                timers.delete(el);
              }
            }
          },
          { threshold: [0, 0.25, 0.5, 0.75, 1] },
        )
      : undefined;
  const observeFeatures = (root: Element | Document) => {
    if (root instanceof Element && root.hasAttribute('data-pi-feature')) visibility?.observe(root);
    root.querySelectorAll('[data-pi-feature]').forEach((el) => visibility?.observe(el));
  };

  new MutationObserver((records) => {
    respond();
    for (const record of records) record.addedNodes.forEach((n) => n instanceof Element && observeFeatures(n));
  }).observe(document, { childList: true, subtree: true, attributes: true, characterData: true });

  const pageView = (force = false) => {
    const page = currentPage();
    if (page === lastPage && !force) return;
    lastPage = page;
    respond();
    // Impressions count once per page view: forget what was seen and look again.
    seen.clear();
    timers.forEach((t) => clearTimeout(t));
    timers.clear();
    visibility?.disconnect();
    observeFeatures(document);
    emit('page_view', { page: redact(page) });
  };
  for (const name of ['pushState', 'replaceState'] as const) {
    const original = history[name].bind(history);
    history[name] = (...args: Parameters<History['pushState']>) => {
      original(...args);
      pageView();
    };
  }
  addEventListener('popstate', () => pageView());
  addEventListener('hashchange', () => pageView());

  return {
    pageView,
    leave: respond,
    settle: () => (pending.length === 0 ? Promise.resolve() : new Promise((resolve) => settled.push(resolve))),
  };
}
