/**
 * Caps on the distinct names a project's events bring in per day (docs/adr/0089-name-caps.md):
 * event names, features, pages and elements each become keys of the analytics tables, so a flood of
 * unique names (anyone holding a page's browser key can send one) would grow the tables until the
 * answers time out. Beyond a day's cap a new name is folded into `FOLDED`; names the project used in
 * the week before are never folded.
 */
export type NameKind = 'event' | 'feature' | 'page' | 'element';

export const NAME_KINDS: readonly NameKind[] = ['event', 'feature', 'page', 'element'];

/** New names a project may bring in per UTC day and kind. */
export const NAME_CAPS: Record<NameKind, number> = { event: 1_000, feature: 1_000, page: 2_000, element: 5_000 };

/** Days before an event's day whose names are the project's own: never folded. */
export const ESTABLISHED_DAYS = 7;

/** What a folded name becomes. */
export const FOLDED = '(other)';

export interface Named {
  event: string;
  properties: Record<string, unknown>;
}

/** The names an event brings in, by kind. */
export function namesOf(e: Named): { kind: NameKind; name: string }[] {
  const out: { kind: NameKind; name: string }[] = [{ kind: 'event', name: e.event }];
  for (const kind of ['feature', 'page', 'element'] as const) {
    const v = e.properties[kind];
    if (typeof v === 'string' && v !== '') out.push({ kind, name: v });
  }
  return out;
}

/** The event with each name `admitted` refuses folded, and the kinds folded. */
export function folded<E extends Named>(
  e: E,
  admitted: (kind: NameKind, name: string) => boolean,
): { event: E; kinds: NameKind[] } {
  const kinds = namesOf(e)
    .filter(({ kind, name }) => !admitted(kind, name))
    .map((n) => n.kind);
  if (kinds.length === 0) return { event: e, kinds };
  const properties = { ...e.properties };
  for (const kind of kinds) if (kind !== 'event') properties[kind] = FOLDED;
  return { event: { ...e, event: kinds.includes('event') ? FOLDED : e.event, properties }, kinds };
}

/** The UTC day of an epoch-ms instant, YYYY-MM-DD. */
export const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
