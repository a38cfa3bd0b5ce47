import { someInJson } from './json-walk.js';

/**
 * The ingest PII filter (docs/events.md, "Personal data"): every event's properties lose the
 * values that look like an e-mail address or a payment card number before they reach Kafka,
 * whichever client sent them. Pure; the events route calls it.
 */

// Both scans are linear in the text, with no backtracking regex: property values are free text from
// anyone holding a (public) browser key, and a backtracking scan of a 1 MiB value takes minutes.

const isDigit = (c: number) => c >= 48 && c <= 57;
const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
/** A domain label's characters: [A-Za-z0-9-]. */
const isLabelChar = (c: number) => isLetter(c) || isDigit(c) || c === 45;
/** A local part's characters: [A-Za-z0-9._%+-]. */
const isLocalChar = (c: number) => isLabelChar(c) || c === 46 || c === 95 || c === 37 || c === 43;

/**
 * Whether the text contains `local@label(.label)*.tld`: a local-part character right before an
 * '@', then non-empty labels joined by single dots up to a dot followed by two letters. A domain
 * scan stops at the next '@', so each character is read a bounded number of times.
 */
export function hasEmail(text: string): boolean {
  for (let at = text.indexOf('@'); at !== -1; at = text.indexOf('@', at + 1)) {
    if (at > 0 && isLocalChar(text.charCodeAt(at - 1)) && domainAt(text, at + 1)) return true;
  }
  return false;
}

/** Whether a domain of hasEmail starts at `i` (charCodeAt past the end is NaN: no character class). */
function domainAt(text: string, i: number): boolean {
  for (;;) {
    if (!isLabelChar(text.charCodeAt(i))) return false;
    while (isLabelChar(text.charCodeAt(i))) i++;
    if (text.charCodeAt(i) !== 46) return false;
    if (isLetter(text.charCodeAt(i + 1)) && isLetter(text.charCodeAt(i + 2))) return true;
    i++;
  }
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
 * ("4111 1111 1111 1111", "4111-…": digit groups with one space or dash between them) the number
 * may sit between other digit groups, so every run of whole consecutive groups is tried: from each
 * group's first digit at most 19 digits are read.
 */
export function hasCardNumber(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (isDigit(text.charCodeAt(i)) && !isDigit(text.charCodeAt(i - 1)) && cardFrom(text, i)) return true;
  }
  return false;
}

/** Whether the groups from the one starting at `i` on, whole, make a card number. */
function cardFrom(text: string, i: number): boolean {
  const first = text.charCodeAt(i);
  if (first < 50 || first > 54) return false;
  // The Luhn sum of the digits read so far, and the same sum with every digit's doubling flipped:
  // appending a digit shifts the others by one place, so the two swap and no digit is read twice.
  let count = 0;
  let undoubled = 0;
  let doubled = 0;
  for (;;) {
    for (let c = text.charCodeAt(i); isDigit(c); c = text.charCodeAt(++i)) {
      if (++count > 19) return false;
      const d = c - 48;
      const previous = undoubled;
      undoubled = d + doubled;
      doubled = (d * 2 > 9 ? d * 2 - 9 : d * 2) + previous;
    }
    if (count >= 13 && undoubled % 10 === 0) return true;
    const separator = text.charCodeAt(i);
    if ((separator !== 32 && separator !== 45) || !isDigit(text.charCodeAt(i + 1))) return false;
    i++;
  }
}

export function looksPersonal(text: string): boolean {
  return hasEmail(text) || hasCardNumber(text);
}

const DROP = Symbol('drop');

/** A card number sent as a JSON number (16 digits fit a double exactly). */
const personalNumber = (value: number): boolean =>
  Number.isInteger(value) && Math.abs(value) >= 1e12 && hasCardNumber(String(Math.abs(value)));

/** `value` without personal-looking parts (the same object when it has none), or DROP. */
function scrub(value: unknown, counter: { dropped: number }): unknown {
  if (typeof value === 'string') return looksPersonal(value) ? DROP : value;
  if (typeof value === 'number') return personalNumber(value) ? DROP : value;
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
  // Most events hold nothing to drop: a walk that allocates nothing says so before any copy is made.
  if (!someInJson(properties, looksPersonal, personalNumber)) return { properties, dropped: 0 };
  const counter = { dropped: 0 };
  return { properties: scrub(properties, counter) as Record<string, unknown>, dropped: counter.dropped };
}

/** The event with scrubbed properties (the same object when there was nothing to drop). */
export function withoutPii<T extends { properties?: Record<string, unknown> }>(event: T): T {
  if (!event.properties) return event;
  const { properties, dropped } = scrubProperties(event.properties);
  return dropped === 0 ? event : { ...event, properties };
}
