// The browser pool on its own, with small limits: a page past its request or byte cap fails with the
// limit as its reason; a browser that crashes or has rendered its share of pages is replaced and the
// pool goes on; a page that waits too long for a browser gives up; a closed pool renders nothing.
import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressPolicy } from '../../src/fetch/address-guard.ts';
import { createBrowserPool, type BrowserPool } from '../../src/render/browser-pool.ts';
import type { RenderLimits } from '../../src/render/render-page.ts';
import { processTreeMb } from '../../src/render/process-memory.ts';
import { CHROMIUM, chromiumInstalled, whenChromiumMissing } from '../support/chromium.ts';
import { html, startSite, text, type Site } from '../support/site-server.ts';

const POOL_TEST_MS = 60_000;

const LIMITS: RenderLimits = {
  policy: addressPolicy({ allowPrivate: true }),
  timeoutMs: 5_000,
  maxBytes: 1024 * 1024,
  maxRequests: 20,
  userAgent: 'pagegrade-test',
};

/** The pool's browsers: processes started with its marker argument, children of this process. */
function poolBrowserPids(): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        const args = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
        const parent = Number(readFileSync(`/proc/${name}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
        return args.some((arg) => arg.startsWith('--pagegrade-browser=')) && parent === process.pid ? [Number(name)] : [];
      } catch {
        return [];
      }
    });
}

whenChromiumMissing('the browser pool');

describe.runIf(chromiumInstalled)('the browser pool', () => {
  let site: Site;
  const pools: BrowserPool[] = [];
  const pool = (options: Partial<Parameters<typeof createBrowserPool>[0]> = {}) => {
    const made = createBrowserPool({ chromiumPath: CHROMIUM, size: 1, ...options });
    pools.push(made);
    return made;
  };

  beforeAll(async () => {
    site = await startSite({
      '/plain': html('<!doctype html><title>Plain</title><h1>Plain</h1>'),
      '/chatty': html('<!doctype html><title>Chatty</title><script>for (let i = 0; i < 60; i++) fetch("/ping?" + i);</script>'),
      '/ping': text('pong'),
      '/heavy': html('<!doctype html><title>Heavy</title><script src="/big.js"></script>'),
      '/big.js': text(`// ${'x'.repeat(2 * 1024 * 1024)}\n`, 'text/javascript'),
      '/slow': (_request, response) => void setTimeout(() => response.writeHead(200, { 'content-type': 'text/html' }).end('<title>Slow</title>'), 1500),
    });
  });
  afterAll(async () => {
    await Promise.all(pools.map((made) => made.close()));
    await site?.close();
  });

  it('fails a page past its request cap or its byte cap, saying which', { timeout: POOL_TEST_MS }, async () => {
    const browsers = pool();
    expect(await browsers.render(site.url('/chatty'), LIMITS)).toEqual({
      ok: false,
      reason: 'The page made more than 20 requests in the browser (the limit per page).',
    });
    expect(await browsers.render(site.url('/heavy'), LIMITS)).toEqual({ ok: false, reason: 'The page loaded more than 1 MiB in the browser (the limit per page).' });
    expect(await browsers.render(site.url('/plain'), LIMITS)).toMatchObject({ ok: true, finalUrl: site.url('/plain') });
  });

  it('replaces a browser that crashed, and one that has rendered its share of pages', { timeout: POOL_TEST_MS }, async () => {
    const before = new Set(poolBrowserPids());
    const browsers = pool({ maxPagesPerBrowser: 2 });
    expect(await browsers.render(site.url('/plain'), LIMITS)).toMatchObject({ ok: true });
    const [pid] = poolBrowserPids().filter((candidate) => !before.has(candidate));
    expect(await processTreeMb(pid)).toBeGreaterThan(10);
    process.kill(pid, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await browsers.render(site.url('/plain'), LIMITS)).toMatchObject({ ok: true });
    expect(browsers.stats()).toEqual({ launched: 2, replaced: 1 });
    // The second browser's second page is its last: the third page gets a third browser.
    expect(await browsers.render(site.url('/plain'), LIMITS)).toMatchObject({ ok: true });
    expect(await browsers.render(site.url('/plain'), LIMITS)).toMatchObject({ ok: true });
    expect(browsers.stats()).toEqual({ launched: 3, replaced: 2 });
  });

  it('renders as many pages at once as its size; a page that waits too long gives up', { timeout: POOL_TEST_MS }, async () => {
    const browsers = pool({ size: 2, maxWaitMs: 1_000 });
    const outcomes = await Promise.all([
      browsers.render(site.url('/slow'), LIMITS),
      browsers.render(site.url('/slow'), LIMITS),
      browsers.render(site.url('/plain'), LIMITS),
    ]);
    expect(outcomes.slice(0, 2)).toEqual([expect.objectContaining({ ok: true }), expect.objectContaining({ ok: true })]);
    expect(outcomes[2]).toEqual({ ok: false, reason: 'The browser was busy with other pages for 1 s; the page was not rendered.' });
  });

  it('renders nothing once closed, and leaves no browser behind', { timeout: POOL_TEST_MS }, async () => {
    const before = new Set(poolBrowserPids());
    const browsers = pool();
    expect(await browsers.render(site.url('/plain'), LIMITS)).toMatchObject({ ok: true });
    expect(poolBrowserPids().filter((pid) => !before.has(pid))).toHaveLength(1);
    await browsers.close();
    expect(poolBrowserPids().filter((pid) => !before.has(pid))).toEqual([]);
    expect(await browsers.render(site.url('/plain'), LIMITS)).toEqual({ ok: false, reason: 'The server is shutting down.' });
  });
});
