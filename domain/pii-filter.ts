/**
 * The ingest PII filter (docs/events.md, "Personal data"): every event's properties lose the
 * values that look like an e-mail address or a payment card number before they reach Kafka,
 * whichever client sent them. Pure; the events route calls it.
 */

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/;
/** Digit groups with at most one space or dash between them: how card numbers are written. */
const DIGIT_RUN = /\d+(?:[ -]\d+)*/g;

export function hasEmail(text: string): boolean {
  return text.includes('@') && EMAIL.test(text);
}

/** The Luhn check digit test of ISO/IEC 7812 (every card number passes it). */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

/**
 * 13–19 digits, Luhn-valid, starting with 2–6 (the industry digits of payment cards — so a
 * 13-digit epoch-milliseconds time, starting with 1, is never taken for one). Written grouped
 * ("4111 1111 1111 1111", "4111-…") the number may sit between other digit groups, so every run
 * of whole consecutive groups is tried.
 */
export function hasCardNumber(text: string): boolean {
  for (const run of text.match(DIGIT_RUN) ?? []) {
    const groups = run.split(/[ -]/);
    for (let start = 0; start < groups.length; start++) {
      let digits = '';
      for (let end = start; end < groups.length && digits.length < 19; end++) {
        digits += groups[end];
        if (digits.length >= 13 && digits.length <= 19 && '23456'.includes(digits[0]!) && luhnValid(digits))
          return true;
      }
    }
  }
  return false;
}

export function looksPersonal(text: string): boolean {
  return hasEmail(text) || hasCardNumber(text);
}

const DROP = Symbol('drop');

/** `value` without personal-looking parts (the same object when it has none), or DROP. */
function scrub(value: unknown, counter: { dropped: number }): unknown {
  if (typeof value === 'string') return looksPersonal(value) ? DROP : value;
  // A card number sent as a JSON number (16 digits fit a double exactly).
  if (typeof value === 'number') {
    return Number.isInteger(value) && Math.abs(value) >= 1e12 && hasCardNumber(String(Math.abs(value))) ? DROP : value;
  }
  if (value === null || typeof value !== 'object') return value;
  let changed = false;
  const keep = (item: unknown, key: string | undefined): unknown => {
    const cleaned = key !== undefined && looksPersonal(key) ? DROP : scrub(item, counter);
    if (cleaned === DROP) counter.dropped++;
    if (cleaned !== item) changed = true;
    return cleaned;
  };
  if (Array.isArray(value)) {
    const items = value.map((item) => keep(item, undefined)).filter((item) => item !== DROP);
    return changed ? items : value;
  }
  const entries = Object.entries(value as Record<string, unknown>)
    .map(([key, item]) => [key, keep(item, key)] as const)
    .filter(([, item]) => item !== DROP);
  return changed ? Object.fromEntries(entries) : value;
}

/**
 * The properties without every member (at any depth; keys too) and array item whose value looks
 * like an e-mail address or a card number; `dropped` counts them. Nothing else changes.
 */
export function scrubProperties(properties: Record<string, unknown>): {
  properties: Record<string, unknown>;
  dropped: number;
} {
  const counter = { dropped: 0 };
  return { properties: scrub(properties, counter) as Record<string, unknown>, dropped: counter.dropped };
}

/** The event with scrubbed properties (the same object when there was nothing to drop). */
export function withoutPii<T extends { properties?: Record<string, unknown> }>(event: T): T {
  if (!event.properties) return event;
  const { properties, dropped } = scrubProperties(event.properties);
  return dropped === 0 ? event : { ...event, properties };
}
