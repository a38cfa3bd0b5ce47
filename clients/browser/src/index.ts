/** The browser tracker as a module: `import { createTracker } from '…/clients/browser'`. */
export { createTracker, type Tracker, type TrackerOptions } from './tracker.js';
export type { UiContext } from './capture.js';
export { redactPath } from './privacy.js';
