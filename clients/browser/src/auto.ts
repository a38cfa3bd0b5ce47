/**
 * The script-tag entry, bundled into /tracker.js:
 *   <script src="https://HOST/tracker.js" data-api-key="KEY"></script>
 * starts a tracker for the service at the script's own origin and exposes it as `window.pi`.
 * Calls made before it loaded (`window.pi = window.pi || []; pi.push(['track', 'x'])`) are replayed.
 * A site's own path redaction is a function set before the tag: `window.piRedactPath = (p) => …`.
 */
import { type Tracker, createTracker } from './tracker.js';

declare global {
  interface Window {
    pi?: Tracker | [keyof Tracker, ...unknown[]][];
    piRedactPath?: (path: string) => string;
  }
}

const script = document.currentScript;
const apiKey = script?.getAttribute('data-api-key');
if (!(script instanceof HTMLScriptElement) || !apiKey) {
  console.warn('pi: the tracker script needs a data-api-key attribute; nothing is tracked');
} else {
  const early = Array.isArray(window.pi) ? window.pi : [];
  const flag = (name: string) => script.getAttribute(`data-${name}`);
  const pi = createTracker({
    apiKey,
    host: script.getAttribute('data-api-host') ?? new URL(script.src).origin,
    autocapture: flag('autocapture') !== 'false',
    respectGpc: flag('respect-gpc') !== 'false',
    respectDnt: flag('respect-dnt') !== 'false',
    // Present (`data-require-consent`, `="true"`) unless `="false"`.
    requireConsent: flag('require-consent') !== null && flag('require-consent') !== 'false',
    // The site's hook, else the built-in unless `data-redact-paths="false"`.
    redactPath:
      typeof window.piRedactPath === 'function'
        ? window.piRedactPath
        : flag('redact-paths') === 'false'
          ? false
          : undefined,
  });
  window.pi = pi;
  for (const [method, ...args] of early) (pi[method] as (...a: unknown[]) => unknown)(...args);
}
