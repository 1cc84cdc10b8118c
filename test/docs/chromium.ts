/**
 * Debian's Chromium for the browser tests, driven by playwright-core (which downloads no browser). Found through
 * $CHROMIUM or the usual install paths; every launch gets a fresh profile and no background traffic of its own.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';

const CANDIDATES = [
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/lib/chromium/chromium',
  '/snap/bin/chromium',
];

const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** The Chromium to use, or undefined; a $CHROMIUM that points nowhere is an error, not a silent skip. */
export function findChromium(): string | undefined {
  const fromEnv = process.env.CHROMIUM;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM=${fromEnv} does not exist`);
    return fromEnv;
  }
  const found = CANDIDATES.find((path) => existsSync(path));
  if (found) return found;
  try {
    return (
      execFileSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).trim() ||
      undefined
    );
  } catch {
    return undefined;
  }
}

export function missingChromiumBanner(ci: boolean): string {
  return [
    '',
    '*'.repeat(78),
    ci
      ? '*  NO CHROMIUM, and CI=true requires the docs browser tests: this run FAILS.'
      : '*  NO CHROMIUM: the docs browser tests are SKIPPED.',
    '*  Install it (`apt-get install chromium` on Debian) or set CHROMIUM=/path/to/chromium.',
    '*'.repeat(78),
    '',
  ].join('\n');
}

export interface Browser {
  context: BrowserContext;
  close: () => Promise<void>;
}

export async function launchChromium(executablePath: string): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'docs-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: LAUNCH_ARGS,
    viewport: { width: 1280, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
