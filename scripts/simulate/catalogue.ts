/** The fictional project-management app the default traffic browses: its pages, features, elements and plans. */

export const PAGES: Record<string, { features: string[]; elements: string[] }> = {
  '/dashboard': { features: ['share', 'widgets'], elements: ['#refresh', '#chart'] },
  '/projects': { features: ['templates'], elements: ['#new-project', '#search'] },
  '/reports': { features: ['export', 'filters'], elements: ['#export-btn', '#date-picker'] },
  '/settings': { features: ['invite'], elements: ['#save', '#avatar'] },
  '/billing': { features: ['upgrade'], elements: ['#plan-card'] },
};
export const PAGE_NAMES = Object.keys(PAGES);
export const PLANS = ['free', 'pro', 'enterprise'];

/** The ways a client marks an impression's view as empty, or as showing data (docs/events.md). */
export const EMPTY_CONTEXTS: Record<string, boolean>[] = [
  { empty_state: true, data_present: false },
  { empty_state: true },
  { data_present: false },
];
export const DATA_CONTEXTS: Record<string, boolean>[] = [
  { empty_state: false, data_present: true },
  { data_present: true },
  {},
];
