import { useCallback, useEffect, useState } from 'preact/hooks';
import { useLocation } from 'preact-iso';
import { ApiFailure, api } from './api';

export interface Loaded<T> {
  data?: T;
  error?: ApiFailure | Error;
  loading: boolean;
  reload: () => void;
}

/** GETs `path` (null: nothing yet) and again whenever it changes or reload() is called. */
export function useApi<T>(path: string | null): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: ApiFailure | Error; loading: boolean }>({ loading: !!path });
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (!path) {
      setState({ loading: false });
      return;
    }
    const abort = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    api<T>('GET', path, undefined, abort.signal).then(
      (data) => setState({ data, loading: false }),
      (error: unknown) => {
        if (abort.signal.aborted) return;
        setState({ error: error instanceof Error ? error : new Error(String(error)), loading: false });
      },
    );
    return () => abort.abort();
  }, [path, round]);
  const reload = useCallback(() => setRound((r) => r + 1), []);
  return { ...state, reload };
}

export const RANGES = [
  { value: 'last_7_days', label: 'Last 7 days' },
  { value: 'last_30_days', label: 'Last 30 days' },
  { value: 'last_90_days', label: 'Last 90 days' },
  { value: 'custom', label: 'Custom' },
] as const;

export interface DateRange {
  range: string;
  start: string;
  end: string;
}

/** The page's date range, kept in the URL (?date_range=…&start=…&end=…) so a reload or a link keeps it. */
export function useDateRange(): { value: DateRange; query: string; set: (next: DateRange) => void } {
  const location = useLocation();
  const range = location.query.date_range ?? 'last_30_days';
  const value = { range, start: location.query.start ?? '', end: location.query.end ?? '' };
  const params = new URLSearchParams({ date_range: range });
  if (range === 'custom') {
    params.set('start', value.start);
    params.set('end', value.end);
  }
  const set = (next: DateRange) => {
    const url = new URLSearchParams(location.query);
    url.set('date_range', next.range);
    if (next.range === 'custom') {
      url.set('start', next.start);
      url.set('end', next.end);
    } else {
      url.delete('start');
      url.delete('end');
    }
    location.route(`${location.path}?${url.toString()}`, true);
  };
  return { value, query: params.toString(), set };
}

/** Sets a query parameter of the current page (empty: removes it). */
export function useQueryParam(name: string): [string, (value: string) => void] {
  const location = useLocation();
  const set = (value: string) => {
    const url = new URLSearchParams(location.query);
    if (value) url.set(name, value);
    else url.delete(name);
    const query = url.toString();
    location.route(query ? `${location.path}?${query}` : location.path, true);
  };
  return [location.query[name] ?? '', set];
}
