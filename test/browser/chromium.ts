/**
 * Real Chromium for browser tests: Debian's `chromium` package driven by playwright-core
 * (Playwright's own browser download cannot work on machines without internet). `npm test`
 * installs the package first when absent (scripts/test-machine.mjs).
 */
import fs from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Fails clearly when Debian's chromium is missing (the test command installs it). */
export function ensureChromium(): void {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(`${CHROMIUM_PATH} is missing: run node scripts/test-machine.mjs (npm test runs it first)`);
  }
}

/**
 * Headless Chromium with the flags this network needs: without background networking off,
 * Chromium keeps trying hosts the machine cannot reach.
 */
export async function launchChromium(): Promise<Browser> {
  ensureChromium();
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
