/** A form field's value as typed (passwords), or '' when absent. */
export function raw(data: FormData, name: string): string {
  const value = data.get(name);
  return typeof value === 'string' ? value : '';
}

/** A form field's value without surrounding spaces. */
export const text = (data: FormData, name: string): string => raw(data, name).trim();

/** Every checked value of a group of checkboxes. */
export const checked = (data: FormData, name: string): string[] =>
  data.getAll(name).filter((v): v is string => typeof v === 'string');

/** The checked values of a group that needs one at least; none checked is an error saying so. */
export function someChecked(data: FormData, name: string, what: string): string[] {
  const values = checked(data, name);
  if (values.length === 0) throw new Error(`Choose at least one ${what}.`);
  return values;
}
