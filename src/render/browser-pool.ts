// A bounded pool for Chromium: the server's one browser, PAGEGRADE_RENDER_CONCURRENCY uses at once in
// it (renderings and PDFs alike), each in a fresh context of its own (render-page.ts). Uses wait their
// turn in order. The browser is started on first use and replaced when it crashes, when a context would
// not let go of it, when it has grown too large, or after many pages; it is closed after a while with
// nothing to do.
//
// Why one browser and not one per page at once: each browser's own processes (browser, GPU, network
// service) work for every page, and two browsers each rendering one page took up to 15% more CPU a page
// than one rendering two (docs/performance.md). The price is crash isolation: a crash of the browser
// process fails the pages it had at that moment. A page that hangs only fails itself: the browser it
// hung is retired, and closed once its other pages are done, while new pages go to a new one.
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchChromium } from './chromium.ts';
import { findProcessWithArgument, processTreeMb } from './process-memory.ts';
import {
  renderIn,
  RenderFailure,
  runGuarded,
  runOffline,
  type GuardedContext,
  type GuardedRun,
  type OfflineLimits,
  type RenderLimits,
  type RenderOutcome,
} from './render-page.ts';

export interface BrowserPoolOptions {
  chromiumPath: string;
  /** Pages (contexts) at most at once. */
  size: number;
  /** A browser is replaced after this many pages, whatever its size: leaks show late. */
  maxPagesPerBrowser?: number;
  /** A page that waited this long for its turn fails. */
  maxWaitMs?: number;
}

export interface BrowserPool {
  /** Never throws: a page that cannot be rendered is an outcome with a reason. */
  render(url: string, limits: RenderLimits, signal?: AbortSignal): Promise<RenderOutcome>;
  /**
   * Runs `use` with a fresh context on the pool's browser, behind its own guarded proxy, under the
   * limits (one deadline from when its turn comes, the request and byte caps), counted against the
   * pool's size like a rendering; the context is closed after. Open one page in it: any later page (a
   * popup) is closed at once. Rejects with `use`'s own error, or a RenderFailure saying why (the
   * deadline, a cap, a crash, cancelled, waited too long, shutting down).
   */
  withContext<T>(limits: RenderLimits, use: (context: BrowserContext) => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** As withContext, with the context's proxy too (its refusals): a lab audit (lab/lab-audit.ts). */
  withGuardedContext<T>(limits: RenderLimits, use: (guarded: GuardedContext) => Promise<T>, signal?: AbortSignal): Promise<T>;
  /**
   * As withContext, in a context that reaches nothing at all (no proxy but a closed port, JavaScript
   * off): for printing a page of this server that carries everything it shows (a PDF).
   */
  withOfflineContext<T>(limits: OfflineLimits, use: (context: BrowserContext) => Promise<T>, signal?: AbortSignal): Promise<T>;
  /** Browsers started so far, and how many were replaced because they crashed, hung, grew or aged. */
  stats(): { launched: number; replaced: number };
  close(): Promise<void>;
}

/**
 * A page's renderer takes 100-300 MB; a browser past this many megabytes (every process of it) for
 * each page it may hold at once is keeping what pages left, and is replaced.
 */
const MAX_MB_PER_PAGE = 1024;
const MAX_PAGES_PER_BROWSER = 500;
/** A browser's memory is read every this many pages: it grows over pages, not in one. */
const MEMORY_CHECK_EVERY = 10;
const MAX_WAIT_MS = 60_000;
/** A browser with nothing to do for this long is closed. */
const IDLE_CLOSE_MS = 5 * 60_000;
/** A browser that does not close this fast is killed. */
const CLOSE_MS = 5_000;

interface Browsing {
  browser: Browser;
  /** The browser's process, found by the marker it was started with; null where /proc cannot tell. */
  pid: number | null;
  /** Pages given to it so far, those it has now, and those done. */
  pages: number;
  active: number;
  done: number;
  /** Takes no more pages; closed once those it has are done. */
  retiring: boolean;
  closing?: Promise<void>;
}

interface Waiting {
  timer: NodeJS.Timeout;
  fail(reason: string): void;
  /** Runs the job on the browser; resolves once its context is closed, saying whether it closed. */
  start(browser: Browser): Promise<boolean>;
}

export function createBrowserPool(options: BrowserPoolOptions): BrowserPool {
  const maxPages = options.maxPagesPerBrowser ?? MAX_PAGES_PER_BROWSER;
  const maxWaitMs = options.maxWaitMs ?? MAX_WAIT_MS;
  const queue: Waiting[] = [];
  const browsings = new Set<Browsing>();
  /** The browser new pages go to (launched, or launching); null until one is needed. */
  let current: Promise<Browsing> | null = null;
  let latest: Browsing | null = null;
  let active = 0;
  let launched = 0;
  let replaced = 0;
  let closed = false;
  let idleTimer: NodeJS.Timeout | undefined;

  async function launch(): Promise<Browsing> {
    // An argument Chromium ignores, by which its process is found in /proc.
    const marker = `--pagegrade-browser=${randomUUID()}`;
    // Images on: a PDF shows the brand's logo; a rendering refuses its page's images itself.
    const browser = await launchChromium(options.chromiumPath, [marker], { images: true });
    launched += 1;
    const browsing: Browsing = { browser, pid: await findProcessWithArgument(marker), pages: 0, active: 0, done: 0, retiring: false };
    browsings.add(browsing);
    latest = browsing;
    browser.once('disconnected', () => retire(browsing, true));
    return browsing;
  }

  function browserForNextPage(): Promise<Browsing> {
    if (current === null) {
      const launching = launch();
      current = launching;
      launching.catch(() => {
        if (current === launching) current = null;
      });
    }
    return current;
  }

  /** New pages go elsewhere from now on; the browser closes once its pages are done. */
  function retire(browsing: Browsing, replacing: boolean): void {
    if (browsing.retiring) return;
    browsing.retiring = true;
    if (replacing) replaced += 1;
    if (latest === browsing) {
      latest = null;
      current = null;
    }
    if (browsing.active === 0) void closeBrowser(browsing);
  }

  /** Closes the browser, killing it when it will not close. */
  function closeBrowser(browsing: Browsing): Promise<void> {
    browsing.closing ??= (async () => {
      let timer: NodeJS.Timeout | undefined;
      const closedInTime = await Promise.race([
        browsing.browser.close().then(() => true, () => true),
        new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CLOSE_MS))),
      ]);
      clearTimeout(timer);
      if (!closedInTime && browsing.pid !== null) {
        try {
          process.kill(browsing.pid, 'SIGKILL');
        } catch {
          // gone meanwhile
        }
      }
      browsings.delete(browsing);
    })();
    return browsing.closing;
  }

  async function tooLarge(browsing: Browsing): Promise<boolean> {
    if (browsing.pid === null || browsing.done % MEMORY_CHECK_EVERY !== 0) return false;
    const mb = await processTreeMb(browsing.pid);
    return mb !== null && mb > MAX_MB_PER_PAGE * options.size;
  }

  async function run(job: Waiting): Promise<void> {
    let browsing: Browsing;
    try {
      browsing = await browserForNextPage();
    } catch (error) {
      return job.fail(`The browser could not be started: ${firstLine(error)}`);
    }
    browsing.pages += 1;
    browsing.active += 1;
    // Its last page: the next goes to a new browser.
    if (browsing.pages >= maxPages) retire(browsing, true);
    const clean = await job.start(browsing.browser);
    browsing.done += 1;
    if (!clean) retire(browsing, true);
    else if (!browsing.retiring && (await tooLarge(browsing))) retire(browsing, true);
    browsing.active -= 1;
    if (browsing.retiring && browsing.active === 0) await closeBrowser(browsing);
  }

  function dispatch(): void {
    while (active < options.size && queue.length > 0) {
      const job = queue.shift()!;
      clearTimeout(job.timer);
      active += 1;
      void run(job).finally(() => {
        active -= 1;
        dispatch();
      });
    }
    scheduleIdleClose();
  }

  function scheduleIdleClose(): void {
    clearTimeout(idleTimer);
    if (queue.length > 0 || active > 0) return;
    idleTimer = setTimeout(() => latest && retire(latest, false), IDLE_CLOSE_MS);
    idleTimer.unref();
  }

  /** A job that gives up waiting leaves the queue (one already running ends through its signal). */
  function leave(job: Waiting, reason: string): void {
    const index = queue.indexOf(job);
    if (index === -1) return;
    queue.splice(index, 1);
    clearTimeout(job.timer);
    job.fail(reason);
  }

  /** `runIn` makes the use's context on the browser it is given and runs the use in it (render-page.ts). */
  function enqueue<T>(runIn: (browser: Browser) => Promise<GuardedRun<T>>, signal?: AbortSignal): Promise<T> {
    if (closed) return Promise.reject(new RenderFailure('The server is shutting down.'));
    return new Promise<T>((resolve, reject) => {
      const job: Waiting = {
        timer: setTimeout(() => leave(job, `The browser was busy with other pages for ${Math.round(maxWaitMs / 1000)} s; the page was not rendered.`), maxWaitMs),
        fail: (reason) => reject(new RenderFailure(reason)),
        async start(browser) {
          const { result, teardown } = await runIn(browser);
          // The caller has its answer while the context closes.
          if (result.ok) resolve(result.value);
          else reject(result.error);
          return teardown;
        },
      };
      signal?.addEventListener('abort', () => leave(job, 'The rendering was cancelled.'), { once: true });
      queue.push(job);
      dispatch();
    });
  }

  return {
    render(url, limits, signal) {
      return enqueue((browser) => runGuarded(browser, limits, (guarded) => renderIn(guarded, url, limits), signal), signal).catch(
        (error: unknown): RenderOutcome => ({ ok: false, reason: error instanceof RenderFailure ? error.message : `The page could not be rendered: ${firstLine(error)}` }),
      );
    },
    withContext: (limits, use, signal) => enqueue((browser) => runGuarded(browser, limits, ({ context }) => use(context), signal), signal),
    withGuardedContext: (limits, use, signal) => enqueue((browser) => runGuarded(browser, limits, use, signal), signal),
    withOfflineContext: (limits, use, signal) => enqueue((browser) => runOffline(browser, limits, use, signal), signal),
    stats: () => ({ launched, replaced }),
    async close() {
      closed = true;
      clearTimeout(idleTimer);
      for (const job of queue.splice(0)) {
        clearTimeout(job.timer);
        job.fail('The server is shutting down.');
      }
      // A browser still launching is closed once it is up.
      await current?.catch(() => null);
      for (const browsing of browsings) retire(browsing, false);
      await Promise.all([...browsings].map(closeBrowser));
    },
  };
}

function firstLine(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0] : String(error);
}
