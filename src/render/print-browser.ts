// The browser PDFs are printed in: one Chromium, started on first use, a fresh context for each PDF,
// at most `size` at once (later ones wait their turn, up to a limit).
// Not the rendering pool's browsers: those are started with images off (chromium.ts), which no
// context can turn back on, and a PDF shows the brand's logo. This browser never reaches the network:
// its proxy is a closed port (loopback included), and printPdf aborts every request besides.
import type { Browser, BrowserContext } from 'playwright-core';
import { MACHINE_CHROMIUM_ARGS } from './chromium.ts';

/** What printing needs from a browser: a fresh context for the time of one function, then closed. */
export interface ContextRunner {
  withContext<T>(fn: (context: BrowserContext) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** A PDF that waited this long for its turn fails: the person asking has long given up. */
const MAX_WAIT_MS = 60_000;
/** A browser with nothing to print for this long is closed: a server that rarely prints does not keep one. */
const IDLE_CLOSE_MS = 5 * 60_000;
/** Port 9 (discard) on loopback: nothing listens, so a request that got past printPdf goes nowhere. */
const NOWHERE_PROXY = 'http://127.0.0.1:9';

export function createPrintBrowser(chromiumPath: string, size: number): ContextRunner {
  let browser: Promise<Browser> | null = null;
  let running = 0;
  let closed = false;
  let idleTimer: NodeJS.Timeout | undefined;
  const waiting: Array<() => void> = [];

  async function closeBrowser(): Promise<void> {
    const current = browser;
    browser = null;
    if (current) await current.then((started) => started.close(), () => {});
  }

  function browserNow(): Promise<Browser> {
    if (!browser) {
      const launching = import('playwright-core').then(({ chromium }) =>
        chromium.launch({ executablePath: chromiumPath, headless: true, args: MACHINE_CHROMIUM_ARGS }),
      );
      browser = launching;
      launching.then(
        (started) => started.once('disconnected', () => { if (browser === launching) browser = null; }),
        () => { if (browser === launching) browser = null; },
      );
    }
    return browser;
  }

  async function turn(): Promise<void> {
    if (running < size) {
      running += 1;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(go), 1);
        reject(new Error(`Every PDF browser was busy for ${MAX_WAIT_MS / 1000} s.`));
      }, MAX_WAIT_MS);
      // The finishing call hands its place over: `running` stays the same.
      const go = () => {
        clearTimeout(timer);
        resolve();
      };
      waiting.push(go);
    });
  }

  function done(): void {
    const next = waiting.shift();
    if (next) return next();
    running -= 1;
    if (running > 0) return;
    idleTimer = setTimeout(() => void closeBrowser(), IDLE_CLOSE_MS);
    idleTimer.unref();
  }

  return {
    async withContext(fn) {
      if (closed) throw new Error('The server is shutting down.');
      await turn();
      clearTimeout(idleTimer);
      try {
        const context = await (await browserNow()).newContext({
          javaScriptEnabled: false,
          serviceWorkers: 'block',
          acceptDownloads: false,
          proxy: { server: NOWHERE_PROXY, bypass: '<-loopback>' },
        });
        try {
          return await fn(context);
        } finally {
          await context.close().catch(() => {});
        }
      } finally {
        done();
      }
    },
    async close() {
      closed = true;
      clearTimeout(idleTimer);
      await closeBrowser();
    },
  };
}
