// Tests that drive Debian's Chromium: without it they say so and skip, unless
// PAGEGRADE_REQUIRE_BROWSER=1 (CI, whose .ci/run installs it), where a missing browser fails them.
import { chromium, type Browser } from 'playwright-core';
import { describe, it } from 'vitest';
import { chromiumAvailable, DEFAULT_CHROMIUM_PATH, MACHINE_CHROMIUM_ARGS } from '../../src/render/chromium.ts';

export const CHROMIUM = DEFAULT_CHROMIUM_PATH;
export const chromiumInstalled = chromiumAvailable(CHROMIUM);

/** Stands in for a suite that needs Chromium when there is none: a skip, or a failure in CI. */
export function whenChromiumMissing(suite: string): void {
  if (chromiumInstalled) return;
  describe(suite, () => {
    if (process.env.PAGEGRADE_REQUIRE_BROWSER === '1') {
      it('needs Chromium: PAGEGRADE_REQUIRE_BROWSER=1 is set and /usr/bin/chromium is missing', () => {
        throw new Error(`${CHROMIUM} is not installed; install Debian's chromium package (CI's .ci/run does).`);
      });
    } else {
      it.skip(`skipped: ${CHROMIUM} is not installed (apt-get install chromium; CI always runs these)`, () => {});
    }
  });
}

/** Chromium for a test that looks at pages (images on, unlike rendering's). */
export function launchTestBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: MACHINE_CHROMIUM_ARGS });
}
