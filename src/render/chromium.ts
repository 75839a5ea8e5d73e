// Debian's Chromium driven by playwright-core: how it is started, and how a page is loaded and read.
// The benchmark's floor loads pages with exactly these (bench/render-floor.ts), so what it measures
// beyond them is the cost of rendering safely.
import { accessSync, constants } from 'node:fs';
import type { Browser, Page } from 'playwright-core';

export const DEFAULT_CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * The features playwright-core disables (its chromiumSwitches.ts, 1.65), which a `--disable-features` of
 * ours would otherwise undo: Chromium keeps only the last one. test/render/chromium-args.test.ts checks
 * that this list still covers playwright's.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Every browser context is a window of its own, and Chromium 156 preloads two WebUI omnibox popups
 * (chrome://omnibox-popup.top-chrome/) in each: two renderer processes and 150-600 ms of CPU for every
 * fresh context, as much as the page itself (docs/performance.md). Headless, no one types in an omnibox.
 */
const OMNIBOX_WEBUI_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxFullPopup', 'WebUIOmniboxAimPopup'];

/** How Chromium is started on these machines (no sandbox in containers, no GPU, no background traffic, no omnibox). */
export const MACHINE_CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  // QUIC is UDP, which no HTTP proxy carries: without it every connection goes through the proxy.
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_WEBUI_FEATURES].join(',')}`,
];

/** The server's browser adds: nothing past the proxy. */
const CHROMIUM_ARGS = [
  ...MACHINE_CHROMIUM_ARGS,
  // WebRTC otherwise sends UDP (STUN, TURN) straight to any address a page names, past the proxy
  // (browser-safety.test.ts listens for it). Chromium's switch, not the "force-" one some documents name.
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/**
 * Images off in the whole browser. The server's one browser keeps them on, because a PDF shows the
 * brand's logo and no context can turn images back on; a rendering refuses its page's images instead
 * (render-page.ts). A browser that only loads pages (the benchmark's floor) starts with this.
 */
const NO_IMAGES_ARG = '--blink-settings=imagesEnabled=false';

/** Whether an executable is at `path` (PAGEGRADE_CHROMIUM_PATH): without one, render=1 is refused. */
export function chromiumAvailable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export interface LaunchOptions {
  /** Images on (the server's browser, which prints PDFs) or off (a browser that only loads pages); off by default. */
  images?: boolean;
}

/** playwright-core is loaded on the first launch: a server that never renders never loads it. */
export async function launchChromium(executablePath: string, extraArgs: string[] = [], { images = false }: LaunchOptions = {}): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath, headless: true, args: [...CHROMIUM_ARGS, ...(images ? [] : [NO_IMAGES_ARG]), ...extraArgs] });
}

/**
 * After the load event a page often still fetches what it renders (an app's data); it counts as
 * settled once the network has been quiet for 500 ms, or after this long at most.
 */
const SETTLE_MS = 2_000;

/** Loads `url`, lets scripts settle, and reads the DOM as HTML, all within `timeoutMs`. */
export async function loadAndRead(page: Page, url: string, timeoutMs: number): Promise<{ html: string; finalUrl: string }> {
  const deadline = performance.now() + timeoutMs;
  await page.goto(url, { waitUntil: 'load', timeout: timeoutMs });
  const left = deadline - performance.now();
  if (left > 0) await page.waitForLoadState('networkidle', { timeout: Math.min(SETTLE_MS, left) }).catch(() => {});
  return { html: await page.content(), finalUrl: page.url() };
}
