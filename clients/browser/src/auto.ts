/**
 * The script-tag entry, bundled into /tracker.js:
 *   <script src="https://HOST/tracker.js" data-api-key="KEY"></script>
 * starts a tracker for the service at the script's own origin and exposes it as `window.pi`.
 * Calls made before it loaded (`window.pi = window.pi || []; pi.push(['track', 'x'])`) are replayed.
 */
import { type Tracker, createTracker } from './tracker.js';

declare global {
  interface Window {
    pi?: Tracker | [keyof Tracker, ...unknown[]][];
  }
}

const script = document.currentScript;
const apiKey = script?.getAttribute('data-api-key');
if (!(script instanceof HTMLScriptElement) || !apiKey) {
  console.warn('pi: the tracker script needs a data-api-key attribute; nothing is tracked');
} else {
  const early = Array.isArray(window.pi) ? window.pi : [];
  const pi = createTracker({
    apiKey,
    host: script.getAttribute('data-api-host') ?? new URL(script.src).origin,
    autocapture: script.getAttribute('data-autocapture') !== 'false',
    respectGpc: script.getAttribute('data-respect-gpc') !== 'false',
  });
  window.pi = pi;
  for (const [method, ...args] of early) (pi[method] as (...a: unknown[]) => unknown)(...args);
}
