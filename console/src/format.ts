const number = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });
const integer = new Intl.NumberFormat('en', { maximumFractionDigits: 0 });
const dateTime = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
const date = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'UTC' });

/** A ratio in [0, 1] as a percentage: 0.1234 → "12.3 %". */
export const percent = (ratio: number | null | undefined): string =>
  ratio === null || ratio === undefined || !Number.isFinite(ratio) ? '–' : `${(ratio * 100).toFixed(1)} %`;

/** A number with at most `digits` decimals (2 unless said). */
export const num = (value: number | null | undefined, digits = 2): string =>
  value === null || value === undefined || !Number.isFinite(value)
    ? '–'
    : digits === 2
      ? number.format(value)
      : new Intl.NumberFormat('en', { maximumFractionDigits: digits }).format(value);

export const count = (value: number | null | undefined): string =>
  value === null || value === undefined ? '–' : integer.format(value);

export const when = (iso: string | null | undefined): string => (iso ? dateTime.format(new Date(iso)) : '–');

/** A YYYY-MM-DD day (UTC). */
export const day = (iso: string): string => date.format(new Date(`${iso.slice(0, 10)}T00:00:00Z`));

/** Seconds as "1 h 5 min", "3 min 20 s", "12 s". */
export function duration(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return '–';
  const s = Math.round(seconds);
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
}

/** snake_case → "Snake case". */
export const words = (value: string): string => {
  const text = value.replace(/_/g, ' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
};
