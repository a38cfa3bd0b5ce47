/**
 * First-party storage: localStorage, else a cookie of the page's own site (Safari's private mode
 * and some embedded browsers refuse localStorage). Never throws: a page without storage still
 * works, it only forgets its anonymous id between loads.
 */
export interface Store {
  get(key: string): string | null;
  set(key: string, value: string): void;
  remove(key: string): void;
}

function local(): Storage | undefined {
  try {
    const probe = '__pi_probe__';
    localStorage.setItem(probe, probe);
    localStorage.removeItem(probe);
    return localStorage;
  } catch {
    return undefined;
  }
}

const YEAR_S = 365 * 24 * 3600;

const cookies: Store = {
  get(key) {
    const hit = document.cookie.split('; ').find((c) => c.startsWith(`${key}=`));
    return hit === undefined ? null : decodeURIComponent(hit.slice(key.length + 1));
  },
  set(key, value) {
    const secure = location.protocol === 'https:' ? '; Secure' : '';
    document.cookie = `${key}=${encodeURIComponent(value)}; Max-Age=${YEAR_S}; Path=/; SameSite=Lax${secure}`;
  },
  remove(key) {
    document.cookie = `${key}=; Max-Age=0; Path=/; SameSite=Lax`;
  },
};

/**
 * Small values (ids, the consent choice): localStorage, else a cookie. Reading writes nothing; the
 * first write probes localStorage (a write of its own), so a visitor who never consents — or the
 * page before consent — gets no probe either.
 */
export function idStore(): Store {
  let chosen: Store | undefined;
  const pick = (): Store => {
    if (chosen) return chosen;
    const storage = local();
    return (chosen = storage
      ? {
          get: (key) => storage.getItem(key),
          set: (key, value) => storage.setItem(key, value),
          remove: (key) => storage.removeItem(key),
        }
      : cookies);
  };
  return {
    get(key) {
      if (chosen) return chosen.get(key);
      try {
        const value = localStorage.getItem(key);
        if (value !== null) return value;
      } catch {
        // Refused storage: a cookie may hold it.
      }
      return cookies.get(key);
    },
    set: (key, value) => pick().set(key, value),
    remove: (key) => pick().remove(key),
  };
}

const UNSENT = 'pi_unsent_';
/** Beyond this, the oldest unsent items are not kept across page loads. */
const MAX_UNSENT = 500;

/**
 * Unsent requests kept across page loads, one key per tab (so tabs never overwrite each other):
 * written when the page is hidden, adopted and removed by the next tracker that starts.
 */
export const unsent = {
  save(tab: string, items: unknown[]): void {
    try {
      if (items.length === 0) localStorage.removeItem(UNSENT + tab);
      else localStorage.setItem(UNSENT + tab, JSON.stringify(items.slice(-MAX_UNSENT)));
    } catch {
      // Full or refused storage: the keepalive requests are the only copy.
    }
  },
  /** Every tab's saved items; the keys are removed (a repeat is harmless: message ids de-duplicate). */
  take<T>(): T[] {
    const out: T[] = [];
    try {
      for (const key of Object.keys(localStorage).filter((k) => k.startsWith(UNSENT))) {
        const items: unknown = JSON.parse(localStorage.getItem(key) ?? '[]');
        localStorage.removeItem(key);
        if (Array.isArray(items)) out.push(...(items as T[]));
      }
    } catch {
      // Unreadable storage holds nothing for us.
    }
    return out;
  },
};
