import { useEffect, useState } from 'preact/hooks';
import { RANGES, useDateRange } from '../hooks';
import { Field } from './form';

const today = () => new Date().toISOString().slice(0, 10);

/** The date-range picker of the analytics pages: a named range, or custom start and end days (UTC). */
export function DateRangePicker() {
  const { value, set } = useDateRange();
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value.range, value.start, value.end]);
  const custom = draft.range === 'custom';
  const day = (label: string, value: string, change: (day: string) => void, limits: { min?: string; max?: string }) => (
    <div class="field">
      <Field label={label}>
        {(control) => (
          <input
            {...control}
            type="date"
            required
            {...limits}
            value={value}
            onInput={(e) => change(e.currentTarget.value)}
          />
        )}
      </Field>
    </div>
  );
  return (
    <form
      class="range"
      aria-label="Date range"
      onSubmit={(e) => {
        e.preventDefault();
        set(draft);
      }}
    >
      <div class="field">
        <Field label="Date range">
          {(control) => (
            <select
              {...control}
              value={draft.range}
              onChange={(e) => {
                const range = e.currentTarget.value;
                if (range === 'custom') {
                  const end = value.end || today();
                  const start = value.start || new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);
                  setDraft({ range, start, end });
                } else {
                  setDraft({ range, start: '', end: '' });
                  set({ range, start: '', end: '' });
                }
              }}
            >
              {RANGES.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {custom && (
        <>
          {day('From', draft.start, (start) => setDraft({ ...draft, start }), { max: draft.end || today() })}
          {day('To', draft.end, (end) => setDraft({ ...draft, end }), { min: draft.start })}
          <button type="submit" class="button">
            Apply
          </button>
        </>
      )}
    </form>
  );
}

/** "1 Mar 2025 – 30 Mar 2025 (UTC)" from an answer's date_range. */
export function CoveredDays({ range }: { range?: { start: string; end: string } }) {
  if (!range) return null;
  return (
    <p class="muted covered">
      Covers {range.start} to {range.end} (UTC days, both included).
    </p>
  );
}
