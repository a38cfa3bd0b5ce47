/**
 * The tracker's privacy rules, pure: whether it may collect (consent, Global Privacy Control,
 * Do-Not-Track) and what of a URL path may leave the page. No DOM: unit-tested on plain values.
 */

/**
 * - `granted`: events are sent, an anonymous id is stored on first use.
 * - `pending` (requireConsent, no choice yet) and `denied` (opted out, GPC, DNT): nothing is
 *   stored, nothing is sent, and events are dropped — never queued, so nothing collected before a
 *   choice can leave the page after it (docs/adr/0076-tracker-consent-first.md).
 */
export type Consent = 'granted' | 'pending' | 'denied';

export interface ConsentInputs {
  /** The visitor's remembered choice (`pi_consent`): `in`, `out`, or none. */
  stored: string | null;
  /** The site asks for consent first (`requireConsent`). */
  requireConsent: boolean;
  /** The browser says "do not sell or share" (GPC) or "do not track" (DNT), and the site respects it. */
  signalsOptOut: boolean;
}

/** An explicit choice wins over the browser's signals; a signal wins over the site's default. */
export function consentState({ stored, requireConsent, signalsOptOut }: ConsentInputs): Consent {
  if (stored === 'in') return 'granted';
  if (stored === 'out' || signalsOptOut) return 'denied';
  return requireConsent ? 'pending' : 'granted';
}

/**
 * Do-Not-Track as browsers expose it: `navigator.doNotTrack` (`'1'`; old Firefox said `'yes'`) or,
 * in old Safari and IE, `window.doNotTrack`.
 */
export function doNotTrack(nav: { doNotTrack?: string | null }, win: { doNotTrack?: string | null }): boolean {
  return [nav.doNotTrack, win.doNotTrack].some((v) => v === '1' || v === 'yes');
}

/** What a redacted path segment becomes. */
export const REDACTED = ':id';

/**
 * A path segment that is an identifier or a secret rather than a route name: a UUID, a number of
 * 3+ digits, an e-mail address, or a token — 16+ letters, digits and `_` in a row with a digit
 * among them (hex, base64url, JWT parts, API keys). Slugs (`how-to-export-data`) and words stay.
 */
export function looksLikeId(segment: string): boolean {
  return (
    /^\d{3,}$/.test(segment) ||
    /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i.test(segment) ||
    /@|%40/.test(segment) ||
    (segment.match(/\w{16,}/g) ?? []).some((run) => /\d/.test(run))
  );
}

/**
 * The built-in redaction (on unless turned off): every `/`- or `#`-separated segment of the page
 * (path plus hash route) that looks like an identifier becomes `:id` —
 * `/reset/Gx7kQ2mZ9pL4vR8sT1wY/orders/12345#/tab/2` → `/reset/:id/orders/:id#/tab/2`.
 */
export function redactPath(path: string): string {
  return path.replace(/[^/#]+/g, (segment) => (looksLikeId(segment) ? REDACTED : segment));
}
