import { existsSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';

/** Where Chromium or Chrome usually lives, per platform; `CHROMIUM_PATH` wins over all of them. */
const USUAL_LOCATIONS = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/snap/bin/chromium',
  '/Applications/Chromium.app/Contents/MacOS/Chromium',
  '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome',
  ...(process.env.PROGRAMFILES ? [path.join(process.env.PROGRAMFILES, 'Google', 'Chrome', 'Application', 'chrome.exe')] : []),
  ...(process.env.LOCALAPPDATA ? [path.join(process.env.LOCALAPPDATA, 'Chromium', 'Application', 'chrome.exe')] : []),
];

export function chromiumPath(): string {
  const configured = process.env.CHROMIUM_PATH;
  if (configured) {
    if (!existsSync(configured)) throw new Error(`CHROMIUM_PATH is ${configured}, which does not exist.`);
    return configured;
  }
  const found = USUAL_LOCATIONS.find((candidate) => existsSync(candidate));
  if (!found) {
    throw new Error(
      `No Chromium or Chrome found (looked in ${USUAL_LOCATIONS.join(', ')}). `
      + 'Install one (Debian/Ubuntu: apt-get install -y chromium, as .ci/run does) or set CHROMIUM_PATH to its executable.',
    );
  }
  return found;
}

/** Headless, with nothing that phones home. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}
