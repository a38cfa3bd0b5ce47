/**
 * An event record's properties, parsed once: the analytics step reads each chain event's properties
 * twice in a batch (to cap names, then to make its analytics events), and each batch re-reads the
 * user's whole last chain. Kept per record object, so a record made anew (a folded name) is parsed
 * anew; the parsed object is shared, and its readers do not change it.
 */
const parsed = new WeakMap<{ properties: string }, Record<string, unknown>>();

export function propertiesOf(record: { properties: string }): Record<string, unknown> {
  let properties = parsed.get(record);
  if (properties === undefined) {
    properties = JSON.parse(record.properties) as Record<string, unknown>;
    parsed.set(record, properties);
  }
  return properties;
}
