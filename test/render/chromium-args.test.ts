// Our `--disable-features` replaces playwright-core's own (Chromium keeps the last one), so it must list
// every feature playwright disables; and it must keep the WebUI omnibox popups, two renderer processes
// per context, from being preloaded in every fresh context.
import { readFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { launchChromium, PLAYWRIGHT_DISABLED_FEATURES } from '../../src/render/chromium.ts';
import { findProcessWithArgument } from '../../src/render/process-memory.ts';
import { CHROMIUM, chromiumInstalled, whenChromiumMissing } from '../support/chromium.ts';

const TEST_MS = 60_000;

whenChromiumMissing("Chromium's arguments");

describe.runIf(chromiumInstalled)("Chromium's arguments", () => {
  it("disables every feature playwright-core disables by default", { timeout: TEST_MS }, async () => {
    const marker = `--pagegrade-args-test=${process.pid}`;
    const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', marker] });
    try {
      const pid = await findProcessWithArgument(marker);
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      const playwrights = args.find((arg) => arg.startsWith('--disable-features='))!.slice('--disable-features='.length).split(',');
      expect(PLAYWRIGHT_DISABLED_FEATURES).toEqual(expect.arrayContaining(playwrights));
    } finally {
      await browser.close();
    }
  });

  it('starts no omnibox popup in a fresh context', { timeout: TEST_MS }, async () => {
    const browser = await launchChromium(CHROMIUM);
    try {
      const context = await browser.newContext();
      await context.newPage();
      await new Promise((resolve) => setTimeout(resolve, 500));
      const cdp = await browser.newBrowserCDPSession();
      const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { type: string; url: string }[] };
      expect(targetInfos.map((target) => target.url)).toEqual(['about:blank']);
    } finally {
      await browser.close();
    }
  });
});
