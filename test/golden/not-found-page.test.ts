// The 404 probe through the whole pipeline: a random path must answer 404 or 410. An origin where
// every path answers 200 (a soft 404), or that sends unknown paths to the home page, fails.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearOriginFactsCache } from '../../src/fetch/origin-facts.ts';
import { analyzer, htmlPage, notFound, redirect, startGoldenSite, type GoldenSite, type Handler } from './support/golden-site.ts';

const PAGE = '<!DOCTYPE html><html lang="en"><head><title>Not found golden page</title></head><body><h1>Home</h1></body></html>';

const analyze = analyzer();
let started: GoldenSite | null = null;

beforeEach(() => clearOriginFactsCache());
afterEach(async () => {
  await started?.close();
  started = null;
});

/** A site with a home page, no robots.txt, and `unknownPaths` answering every other path. */
async function siteWhereUnknownPaths(unknownPaths: Handler): Promise<GoldenSite> {
  started = await startGoldenSite({ '/': htmlPage(PAGE), '/robots.txt': notFound }, unknownPaths);
  return started;
}

function status(code: number): Handler {
  return (_request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(code, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!DOCTYPE html><title>${code}</title>`);
  };
}

describe('404_page', () => {
  it('passes when unknown paths answer 404', async () => {
    const site = await siteWhereUnknownPaths(notFound);
    const result = (await analyze(site.url('/'))).results['404_page'];

    expect(result.passed).toBe(true);
    expect(result.value).toMatchObject({ status_code: 404, redirected: false });
    expect((result.value as { url: string }).url.startsWith(`${site.origin}/`)).toBe(true);
  });

  it('passes when unknown paths answer 410', async () => {
    const site = await siteWhereUnknownPaths(status(410));
    expect((await analyze(site.url('/'))).results['404_page'].passed).toBe(true);
  });

  it('fails a soft-404 origin where every path answers 200', async () => {
    const site = await siteWhereUnknownPaths(htmlPage(PAGE));
    const result = (await analyze(site.url('/'))).results['404_page'];

    expect(result.passed).toBe(false);
    const probeUrl = (result.value as { url: string }).url;
    expect(result.value).toMatchObject({ status_code: 200, redirected: false, final_url: probeUrl });
    expect(result.errors).toEqual({ soft_404: [{ url: probeUrl, status_code: 200 }] });
  });

  it('fails an origin that redirects unknown paths to the home page', async () => {
    const site = await siteWhereUnknownPaths(redirect('/', 302));
    const result = (await analyze(site.url('/'))).results['404_page'];

    expect(result.passed).toBe(false);
    expect(result.value).toMatchObject({ status_code: 200, redirected: true, final_url: site.url('/') });
    expect(result.errors).toEqual({ redirect: [{ to: site.url('/'), status_code: 200 }] });
  });

  it('fails an origin that answers unknown paths with a server error', async () => {
    const site = await siteWhereUnknownPaths(status(500));
    const result = (await analyze(site.url('/'))).results['404_page'];

    expect(result.passed).toBe(false);
    expect(result.value).toMatchObject({ status_code: 500 });
  });
});
