/**
 * Real Chromium for browser tests: Debian's `chromium` package driven by playwright-core
 * (Playwright's own browser download cannot work on machines without internet). The package is
 * installed when absent, so a fresh machine and CI pass the same way.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';

/** Installs Debian's chromium when it is missing (needs root and Debian's package mirror). */
export function ensureChromium(): void {
  if (fs.existsSync(CHROMIUM_PATH)) return;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  execFileSync('apt-get', ['update', '-q'], { stdio: 'ignore', env });
  execFileSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', 'chromium'], { stdio: 'ignore', env });
  if (!fs.existsSync(CHROMIUM_PATH)) throw new Error(`apt-get installed chromium but ${CHROMIUM_PATH} is missing`);
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
