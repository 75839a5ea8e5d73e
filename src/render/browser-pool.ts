// A bounded pool of Chromium browsers, each rendering one page at a time (PAGEGRADE_RENDER_CONCURRENCY
// of them). Pages wait their turn in order. A browser is started on first use and replaced when it
// crashes, when a page would not let go of it, when it has grown too large, or after many pages;
// browsers idle for a while are closed, so a server that rarely renders does not keep them.
import { randomUUID } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { launchChromium } from './chromium.ts';
import { findProcessWithArgument, processTreeMb } from './process-memory.ts';
import { preparePage, renderPage, type PreparedPage, type RenderLimits, type RenderOutcome } from './render-page.ts';

export interface BrowserPoolOptions {
  chromiumPath: string;
  /** Browsers at most, each rendering one page at a time. */
  size: number;
  /** A browser is replaced after this many pages, whatever its size: leaks show late. */
  maxPagesPerBrowser?: number;
  /** A page that waited this long for a browser fails. */
  maxWaitMs?: number;
}

export interface BrowserPool {
  /** Never throws: a page that cannot be rendered is an outcome with a reason. */
  render(url: string, limits: RenderLimits, signal?: AbortSignal): Promise<RenderOutcome>;
  /** Browsers started so far, and how many replaced one that crashed, hung or grew too large. */
  stats(): { launched: number; replaced: number };
  close(): Promise<void>;
}

/**
 * A page's renderer takes 100-300 MB; a browser past a gigabyte (every process of it) is holding on to
 * what pages left, and is replaced once its page is done.
 */
const MAX_BROWSER_MB = 1024;
const MAX_PAGES_PER_BROWSER = 500;
/**
 * A browser's memory is read every this many pages: reading it walks every process in /proc (75 ms a
 * page on a busy two-core machine, while the browser waits), and a browser grows over pages, not in one.
 */
const MEMORY_CHECK_EVERY = 10;
const MAX_WAIT_MS = 60_000;
/** Browsers with nothing to do for this long are closed. */
const IDLE_CLOSE_MS = 5 * 60_000;
/** A browser that does not close this fast is killed. */
const CLOSE_MS = 5_000;

interface Slot {
  browser: Browser | null;
  /** The browser's process, found by the marker it was started with; null where /proc cannot tell. */
  pid: number | null;
  pages: number;
  busy: boolean;
  /** A fresh context made on this browser while its last page loaded, for its next page. */
  next: { browser: Browser; prepared: Promise<PreparedPage> } | null;
}

interface Waiting {
  url: string;
  limits: RenderLimits;
  signal?: AbortSignal;
  resolve(outcome: RenderOutcome): void;
  timer: NodeJS.Timeout;
}

export function createBrowserPool(options: BrowserPoolOptions): BrowserPool {
  const maxPages = options.maxPagesPerBrowser ?? MAX_PAGES_PER_BROWSER;
  const slots: Slot[] = Array.from({ length: options.size }, () => ({ browser: null, pid: null, pages: 0, busy: false, next: null }));
  const queue: Waiting[] = [];
  let launched = 0;
  let replaced = 0;
  let closed = false;
  let idleTimer: NodeJS.Timeout | undefined;

  async function browserOf(slot: Slot): Promise<Browser> {
    if (slot.browser?.isConnected()) return slot.browser;
    // An argument Chromium ignores, by which its process is found in /proc.
    const marker = `--pagegrade-browser=${randomUUID()}`;
    const browser = await launchChromium(options.chromiumPath, [marker]);
    launched += 1;
    slot.browser = browser;
    slot.pages = 0;
    slot.pid = await findProcessWithArgument(marker);
    browser.once('disconnected', () => {
      if (slot.browser !== browser) return;
      slot.browser = null;
      replaced += 1;
    });
    return browser;
  }

  /** The context prepared for this page, or one made now when none fits (another browser, other limits). */
  function takePrepared(slot: Slot, browser: Browser, limits: RenderLimits): Promise<PreparedPage> {
    const next = slot.next;
    slot.next = null;
    if (next && next.browser === browser) {
      return next.prepared.then((prepared) => {
        if (prepared.limits === limits) return prepared;
        void prepared.discard();
        return preparePage(browser, limits);
      });
    }
    if (next) void discard(next.prepared);
    return preparePage(browser, limits);
  }

  async function discard(prepared: Promise<PreparedPage>): Promise<void> {
    await prepared.then((unused) => unused.discard(), () => {});
  }

  /** Closes the slot's browser, killing it when it will not close. */
  async function retire(slot: Slot): Promise<void> {
    const { browser, pid, next } = slot;
    slot.browser = null;
    slot.pid = null;
    slot.next = null;
    if (next) await discard(next.prepared);
    if (!browser) return;
    let timer: NodeJS.Timeout | undefined;
    const closedInTime = await Promise.race([
      browser.close().then(() => true, () => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CLOSE_MS))),
    ]);
    clearTimeout(timer);
    if (!closedInTime && pid !== null) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
  }

  async function tooLarge(slot: Slot): Promise<boolean> {
    if (slot.pages >= maxPages) return true;
    if (slot.pid === null || slot.pages % MEMORY_CHECK_EVERY !== 0) return false;
    const mb = await processTreeMb(slot.pid);
    return mb !== null && mb > MAX_BROWSER_MB;
  }

  async function run(slot: Slot, job: Waiting): Promise<void> {
    let browser: Browser;
    try {
      browser = await browserOf(slot);
    } catch (error) {
      job.resolve({ ok: false, reason: `The browser could not be started: ${firstLine(error)}` });
      return retire(slot);
    }
    let replace: boolean;
    try {
      const prepared = await takePrepared(slot, browser, job.limits);
      // The next page's context is made while this one loads, not after.
      slot.next = { browser, prepared: preparePage(browser, job.limits) };
      slot.next.prepared.catch(() => {});
      const rendering = await renderPage(prepared, job.url, job.signal);
      job.resolve(rendering.outcome);
      slot.pages += 1;
      replace = !rendering.clean || !browser.isConnected() || (await tooLarge(slot));
    } catch (error) {
      job.resolve({ ok: false, reason: `The page could not be given a browser context: ${firstLine(error)}` });
      replace = true;
    }
    // The page has its answer; the slot takes the next one once its browser is fit for it.
    if (replace) {
      if (slot.browser) replaced += 1;
      await retire(slot);
    }
  }

  function dispatch(): void {
    for (const slot of slots) {
      if (slot.busy || queue.length === 0) continue;
      const job = queue.shift()!;
      clearTimeout(job.timer);
      slot.busy = true;
      void run(slot, job).finally(() => {
        slot.busy = false;
        dispatch();
      });
    }
    scheduleIdleClose();
  }

  function scheduleIdleClose(): void {
    clearTimeout(idleTimer);
    if (queue.length > 0 || slots.some((slot) => slot.busy)) return;
    idleTimer = setTimeout(() => void Promise.all(slots.filter((slot) => !slot.busy).map(retire)), IDLE_CLOSE_MS);
    idleTimer.unref();
  }

  return {
    render(url, limits, signal) {
      if (closed) return Promise.resolve({ ok: false, reason: 'The server is shutting down.' });
      return new Promise<RenderOutcome>((resolve) => {
        const maxWaitMs = options.maxWaitMs ?? MAX_WAIT_MS;
        const job: Waiting = {
          url,
          limits,
          signal,
          resolve,
          timer: setTimeout(() => leave(job, `Every browser was busy for ${Math.round(maxWaitMs / 1000)} s; the page was not rendered.`), maxWaitMs),
        };
        signal?.addEventListener('abort', () => leave(job, 'The rendering was cancelled.'), { once: true });
        queue.push(job);
        dispatch();
      });
    },
    stats: () => ({ launched, replaced }),
    async close() {
      closed = true;
      clearTimeout(idleTimer);
      for (const job of queue.splice(0)) {
        clearTimeout(job.timer);
        job.resolve({ ok: false, reason: 'The server is shutting down.' });
      }
      await Promise.all(slots.map(retire));
    },
  };

  function firstLine(error: unknown): string {
    return error instanceof Error ? error.message.split('\n')[0] : String(error);
  }

  /** A page that gives up waiting leaves the queue (one already rendering ends through its signal). */
  function leave(job: Waiting, reason: string): void {
    const index = queue.indexOf(job);
    if (index === -1) return;
    queue.splice(index, 1);
    clearTimeout(job.timer);
    job.resolve({ ok: false, reason });
  }
}
