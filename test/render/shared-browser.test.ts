// One browser for rendering and printing: the pool's Chromium shows images (a PDF prints the brand's
// logo), yet a rendered page asks for none of its own, not even those of a frame of another site (a
// process of its own); a PDF's context reaches nothing at all and is counted against the pool's size;
// rendering and printing together start one browser.
import { createServer, type Server } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressPolicy } from '../../src/fetch/address-guard.ts';
import { createBrowserPool, type BrowserPool } from '../../src/render/browser-pool.ts';
import type { OfflineLimits, RenderLimits } from '../../src/render/render-page.ts';
import { CHROMIUM, chromiumInstalled, whenChromiumMissing } from '../support/chromium.ts';
import { html, startSite, text, type Site } from '../support/site-server.ts';

const TEST_MS = 60_000;

const LIMITS: RenderLimits = {
  policy: addressPolicy({ allowPrivate: true }),
  timeoutMs: 8_000,
  maxBytes: 1024 * 1024,
  maxRequests: 50,
  userAgent: 'pagegrade-test',
};
const OFFLINE: OfflineLimits = { timeoutMs: 8_000, deadlineReason: 'Not printed in time.', maxRequests: 50 };

/** A red 8x8 PNG. */
const RED_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAYAAADED76LAAAABHNCSVQICAgIfAhkiAAAAAFzUkdCAK7OHOkAAAAWSURBVBiVY/zPwPCfAQ9gwic5fBQAABJbAg7ns3KxAAAAAElFTkSuQmCC',
  'base64',
);

interface OtherSite {
  origin: string;
  requests: string[];
  server: Server;
}

/**
 * A site on another address: another site to Chromium, so its frame runs in a process of its own. Its
 * /frame has images and, given `inner`, a frame of that site in turn.
 */
async function startOtherSite(address: string, inner?: OtherSite): Promise<OtherSite> {
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? '');
    if (request.url?.startsWith('/frame')) {
      response.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Frame</title><img src="/frame-image.png">
<div style="width:9px;height:9px;background:url(/frame-background.png)"></div>${inner ? `<iframe src="${inner.origin}/frame"></iframe>` : ''}`);
    } else {
      response.writeHead(200, { 'content-type': 'image/png' }).end(RED_PNG);
    }
  });
  server.listen(0, address);
  await once(server, 'listening');
  return { origin: `http://${address}:${(server.address() as AddressInfo).port}`, requests, server };
}

whenChromiumMissing('one browser for rendering and printing');

describe.runIf(chromiumInstalled)('one browser for rendering and printing', () => {
  let site: Site;
  let other: OtherSite;
  let innermost: OtherSite;
  const pools: BrowserPool[] = [];
  const pool = (size = 1) => {
    const made = createBrowserPool({ chromiumPath: CHROMIUM, size });
    pools.push(made);
    return made;
  };

  beforeAll(async () => {
    innermost = await startOtherSite('127.0.0.3');
    other = await startOtherSite('127.0.0.2', innermost);
    site = await startSite({
      '/pictures': html(`<!doctype html><title>Pictures</title><h1>Pictures</h1>
<img src="/image.png" alt="An image" width="8" height="8"><picture><source srcset="/source.png"><img src="/fallback.png" alt=""></picture>
<div style="width:9px;height:9px;background:url(/background.png)"></div>
<iframe src="${other.origin}/frame"></iframe>
<script>const late = new Image(); late.src = '/scripted.png'; document.body.append(late);</script>`),
      '/image.png': text('x', 'image/png'),
      '/plain': html('<!doctype html><title>Plain</title><h1>Plain</h1>'),
    });
  });
  afterAll(async () => {
    await Promise.all(pools.map((made) => made.close()));
    await site?.close();
    other?.server.close();
    innermost?.server.close();
  });

  it('renders a page without asking for its images, nor those of frames of other sites', { timeout: TEST_MS }, async () => {
    const rendered = await pool().render(site.url('/pictures'), LIMITS);
    expect(rendered).toMatchObject({ ok: true });
    // The DOM keeps its images, the one the script added too.
    expect(rendered.ok && rendered.html).toContain('<img src="/scripted.png">');
    expect(site.requests.filter((path) => path.endsWith('.png'))).toEqual([]);
    // The frames were loaded (the rendering waits for them), their images were not.
    expect(other.requests).toEqual(['/frame']);
    expect(innermost.requests).toEqual(['/frame']);
  });

  it('prints in a context that reaches nothing, with the images the page carries', { timeout: TEST_MS }, async () => {
    const browsers = pool();
    const before = site.requests.length;
    const dataUrl = `data:image/png;base64,${RED_PNG.toString('base64')}`;
    const page = `<!doctype html><title>Offline</title><img id="carried" src="${dataUrl}" width="8" height="8"><img src="${site.url('/image.png')}">
<link rel="stylesheet" href="${site.url('/style.css')}"><iframe src="${site.url('/plain')}"></iframe>`;
    const drawn = await browsers.withOfflineContext(OFFLINE, async (context) => {
      const tab = await context.newPage();
      await tab.setContent(page, { waitUntil: 'load' });
      // Scripts are off in the page; Playwright's own evaluation still reads it.
      return tab.locator('#carried').evaluate((image: HTMLImageElement) => image.naturalWidth);
    });
    expect(drawn).toBe(8);
    expect(site.requests.slice(before)).toEqual([]);
  });

  it('starts one browser for renderings and PDFs, and counts both against its size', { timeout: TEST_MS }, async () => {
    const browsers = pool(1);
    let printing = 0;
    let overlapped = false;
    const print = () =>
      browsers.withOfflineContext(OFFLINE, async (context) => {
        printing += 1;
        const tab = await context.newPage();
        await tab.setContent('<p>Printed</p>');
        const pdf = await tab.pdf();
        if (printing > 1) overlapped = true;
        printing -= 1;
        return pdf.subarray(0, 5).toString('latin1');
      });
    const [first, rendered, second] = await Promise.all([print(), browsers.render(site.url('/plain'), LIMITS), print()]);
    expect([first, second]).toEqual(['%PDF-', '%PDF-']);
    expect(rendered).toMatchObject({ ok: true, finalUrl: site.url('/plain') });
    expect(overlapped).toBe(false);
    expect(browsers.stats()).toEqual({ launched: 1, replaced: 0 });
    await expect(browsers.withOfflineContext({ ...OFFLINE, timeoutMs: 500 }, () => new Promise<never>(() => {}))).rejects.toThrow('Not printed in time.');
  });
});
