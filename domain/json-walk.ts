/**
 * Whether any string of parsed JSON data (a value or a key, at any depth) passes `onString`, or any
 * number passes `onNumber`. It allocates nothing: the API and the sessionizer walk every event's
 * properties with it, and the common event passes.
 */
export function someInJson(
  value: unknown,
  onString: (text: string) => boolean,
  onNumber: (n: number) => boolean = () => false,
): boolean {
  if (typeof value === 'string') return onString(value);
  if (typeof value === 'number') return onNumber(value);
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    for (const item of value) if (someInJson(item, onString, onNumber)) return true;
    return false;
  }
  // Parsed JSON: every enumerable key is its own.
  for (const key in value) {
    if (onString(key) || someInJson((value as Record<string, unknown>)[key], onString, onNumber)) return true;
  }
  return false;
}
