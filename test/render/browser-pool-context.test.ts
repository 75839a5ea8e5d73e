// The pool's generic method, withContext (what a PDF printer or any other use of the browser runs on),
// and what sharing one browser between pages must not cost: each use gets a fresh context behind the
// guard, counted against the pool's size, under one deadline; a later page in the context (a popup) is
// closed; a use that hangs fails alone while the browser's other page finishes, and the pool goes on.
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressPolicy } from '../../src/fetch/address-guard.ts';
import { createBrowserPool, type BrowserPool } from '../../src/render/browser-pool.ts';
import { RenderFailure, type RenderLimits } from '../../src/render/render-page.ts';
import { CHROMIUM, chromiumInstalled, whenChromiumMissing } from '../support/chromium.ts';
import { html, startSite, type Site } from '../support/site-server.ts';

const TEST_MS = 60_000;

const LIMITS: RenderLimits = {
  policy: addressPolicy({ allowPrivate: true }),
  // Well past /slow's 1.5 s plus a browser's start: on a loaded 2-core CI machine a start beside the
  // suite took over 1.5 s, and a use that should finish hit a 3 s deadline.
  timeoutMs: 8_000,
  maxBytes: 1024 * 1024,
  maxRequests: 20,
  userAgent: 'pagegrade-test',
};

whenChromiumMissing('the browser pool, withContext');

describe.runIf(chromiumInstalled)('the browser pool, withContext', () => {
  let site: Site;
  const pools: BrowserPool[] = [];
  const pool = (size: number) => {
    const made = createBrowserPool({ chromiumPath: CHROMIUM, size });
    pools.push(made);
    return made;
  };

  beforeAll(async () => {
    site = await startSite({
      '/plain': html('<!doctype html><title>Plain</title><h1>Plain</h1>'),
      '/slow': (_request, response) => void setTimeout(() => response.writeHead(200, { 'content-type': 'text/html' }).end('<title>Slow</title>'), 1500),
      '/loop': html('<!doctype html><title>Forever</title><script>for (;;) {}</script>'),
    });
  });
  afterAll(async () => {
    await Promise.all(pools.map((made) => made.close()));
    await site?.close();
  });

  /** Opens the site's page in the context and gives what `read` reads from it. */
  const visit = (path: string, read: (context: BrowserContext) => Promise<unknown> = async () => null) => async (context: BrowserContext) => {
    const page = await context.newPage();
    await page.goto(site.url(path));
    return { title: await page.title(), read: await read(context) };
  };

  it('gives each use a fresh context, and what the use returns or throws', { timeout: TEST_MS }, async () => {
    const browsers = pool(1);
    const first = await browsers.withContext(
      LIMITS,
      visit('/plain', async (context) => {
        await context.addCookies([{ name: 'kept', value: '1', url: site.origin }]);
        return (await context.pages()[0].evaluate(() => (localStorage.setItem('kept', '1'), localStorage.length))) as number;
      }),
    );
    expect(first).toEqual({ title: 'Plain', read: 1 });
    const second = await browsers.withContext(
      LIMITS,
      visit('/plain', async (context) => ({ cookies: (await context.cookies()).length, storage: await context.pages()[0].evaluate(() => localStorage.length) })),
    );
    expect(second).toEqual({ title: 'Plain', read: { cookies: 0, storage: 0 } });
    await expect(browsers.withContext(LIMITS, async () => Promise.reject(new Error('the use failed')))).rejects.toThrow('the use failed');
    expect(browsers.stats()).toEqual({ launched: 1, replaced: 0 });
  });

  it('sends every request through the guard', { timeout: TEST_MS }, async () => {
    const browsers = pool(1);
    const guarded = { ...LIMITS, policy: addressPolicy({ allowPrivate: false }) };
    const requestsBefore = site.requests.length;
    const status = await browsers.withContext(guarded, async (context) => {
      const page = await context.newPage();
      return (await page.goto(site.url('/plain')))?.status();
    });
    // The proxy answered for the loopback site, which never saw the request.
    expect(status).toBe(403);
    expect(site.requests.length).toBe(requestsBefore);
  });

  it('counts uses against its size, and fails one past its deadline with the deadline as the reason', { timeout: TEST_MS }, async () => {
    const browsers = pool(2);
    let running = 0;
    let most = 0;
    const counted = async (context: BrowserContext) => {
      running += 1;
      most = Math.max(most, running);
      try {
        return await visit('/slow')(context);
      } finally {
        running -= 1;
      }
    };
    const results = await Promise.all([1, 2, 3, 4].map(() => browsers.withContext(LIMITS, counted)));
    expect(results.map((result) => result.title)).toEqual(['Slow', 'Slow', 'Slow', 'Slow']);
    expect(most).toBe(2);

    const never = browsers.withContext(LIMITS, () => new Promise<never>(() => {}));
    await expect(never).rejects.toThrow(new RenderFailure(`The page did not finish loading in the browser within ${LIMITS.timeoutMs} ms.`));
  });

  it('closes any later page of the context (a popup) at once', { timeout: TEST_MS }, async () => {
    const browsers = pool(1);
    const pagesLeft = await browsers.withContext(LIMITS, async (context) => {
      const page = await context.newPage();
      await page.goto(site.url('/plain'));
      await page.evaluate(() => void window.open('/plain', '_blank'));
      await new Promise((resolve) => setTimeout(resolve, 500));
      return context.pages().length;
    });
    expect(pagesLeft).toBe(1);
  });

  it('fails a page that hangs alone: the page beside it in the same browser finishes, the next ones render', { timeout: TEST_MS }, async () => {
    const browsers = pool(2);
    const [looping, beside] = await Promise.all([browsers.render(site.url('/loop'), LIMITS), browsers.render(site.url('/slow'), LIMITS)]);
    expect(looping).toEqual({ ok: false, reason: `The page did not finish loading in the browser within ${LIMITS.timeoutMs} ms.` });
    expect(beside).toMatchObject({ ok: true, finalUrl: site.url('/slow') });
    const after = await Promise.all([browsers.render(site.url('/plain'), LIMITS), browsers.render(site.url('/plain'), LIMITS)]);
    expect(after).toEqual([expect.objectContaining({ ok: true }), expect.objectContaining({ ok: true })]);
  });
});
