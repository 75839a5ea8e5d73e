// Redirects through the whole pipeline: the chain is recorded and judged (at most one hop passes),
// the final page is the one analysed, and loops or chains over 10 hops stop the analysis.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FetchError } from '../../src/fetch/fetch-error.ts';
import { clearOriginFactsCache } from '../../src/fetch/origin-facts.ts';
import { analyzer, goldenPage, htmlPage, redirect, respond, startGoldenSite, type GoldenSite, type Handler } from './support/golden-site.ts';

const analyze = analyzer();
const sites: GoldenSite[] = [];

async function site(routes: Record<string, Handler>): Promise<GoldenSite> {
  const started = await startGoldenSite(routes);
  sites.push(started);
  return started;
}

beforeEach(() => clearOriginFactsCache());
afterEach(async () => {
  await Promise.all(sites.splice(0).map((started) => started.close()));
});

/** `/hop/1` -> `/hop/2` -> ... -> `/hop/<hops>` -> `/final`. */
function chainRoutes(hops: number): Record<string, Handler> {
  const routes: Record<string, Handler> = { '/final': htmlPage(goldenPage('good')) };
  for (let hop = 1; hop <= hops; hop++) routes[`/hop/${hop}`] = redirect(hop === hops ? '/final' : `/hop/${hop + 1}`, 302);
  return routes;
}

describe('redirects', () => {
  it('fails a two-hop chain, lists it, and analyses the final page', async () => {
    const started = await site({
      '/old': redirect('/newer', 301),
      '/newer': redirect('/guides/mountain-coffee', 302),
      '/guides/mountain-coffee': htmlPage(goldenPage('good')),
    });
    const analysis = await analyze(started.url('/old'));

    expect(analysis.results.redirects.passed).toBe(false);
    expect(analysis.results.redirects.value).toEqual({
      count: 2,
      chain: [
        { url: started.url('/old'), status_code: 301, location: started.url('/newer') },
        { url: started.url('/newer'), status_code: 302, location: started.url('/guides/mountain-coffee') },
      ],
      final_url: started.url('/guides/mountain-coffee'),
    });
    expect(analysis.results.redirects.errors).toEqual({
      too_many: [started.url('/old'), started.url('/newer'), started.url('/guides/mountain-coffee')],
    });
    expect(analysis.url).toBe(started.url('/old'));
    expect(analysis.page.final_url).toBe(started.url('/guides/mountain-coffee'));
    expect(analysis.results.title.value).toMatchObject({ title: 'Mountain Coffee Guide: Growing, Roasting and Brewing' });
    expect(analysis.results.http_status.passed).toBe(true);
  });

  it('passes a single hop', async () => {
    const started = await site({ '/': redirect('/guides/mountain-coffee', 308), '/guides/mountain-coffee': htmlPage(goldenPage('good')) });
    const analysis = await analyze(started.url('/'));

    expect(analysis.results.redirects.passed).toBe(true);
    expect(analysis.results.redirects.value).toMatchObject({ count: 1, final_url: started.url('/guides/mountain-coffee') });
    expect(analysis.page.redirects).toEqual([{ url: started.url('/'), status_code: 308 }]);
  });

  it('passes a page reached without redirects', async () => {
    const started = await site({ '/guides/mountain-coffee': htmlPage(goldenPage('good')) });
    const analysis = await analyze(started.url('/guides/mountain-coffee'));

    expect(analysis.results.redirects.passed).toBe(true);
    expect(analysis.results.redirects.value).toMatchObject({ count: 0, chain: [] });
  });

  it('stops at a redirect loop with FetchError redirect_loop', async () => {
    const started = await site({ '/a': redirect('/b'), '/b': redirect('/c'), '/c': redirect('/a') });
    const failure = await analyze(started.url('/a')).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(FetchError);
    expect(failure).toMatchObject({ code: 'redirect_loop' });
    expect((failure as FetchError).reason).toContain(started.url('/a'));
  });

  it('follows exactly 10 hops, and fails the redirects check', async () => {
    const started = await site(chainRoutes(10));
    const analysis = await analyze(started.url('/hop/1'));

    expect(analysis.page.final_url).toBe(started.url('/final'));
    expect(analysis.page.redirects).toHaveLength(10);
    expect(analysis.results.redirects.passed).toBe(false);
  });

  it('gives up after more than 10 hops with FetchError too_many_redirects', async () => {
    const started = await site(chainRoutes(11));

    await expect(analyze(started.url('/hop/1'))).rejects.toSatisfy(
      (error) => error instanceof FetchError && error.code === 'too_many_redirects',
    );
  });

  it('judges the final origin by its own robots.txt and 404 behaviour after a cross-origin redirect', async () => {
    // Two ports are two origins. The first is well kept; the second blocks the page and answers
    // 200 to every unknown path.
    const second = await startGoldenSite(
      { '/robots.txt': respond('User-agent: *\nDisallow: /landing\n', 'text/plain') },
      htmlPage(goldenPage('good')),
    );
    sites.push(second);
    const first = await site({ '/go': redirect(second.url('/landing')), '/robots.txt': respond('User-agent: *\nAllow: /\n', 'text/plain') });
    const analysis = await analyze(first.url('/go'));

    expect(analysis.page.final_url).toBe(second.url('/landing'));
    expect(analysis.results.robots.passed).toBe(false);
    expect(analysis.results.robots.value).toMatchObject({ robots_txt: second.url('/robots.txt') });
    expect(analysis.results['404_page'].passed).toBe(false);
    expect((analysis.results['404_page'].value as { url: string }).url.startsWith(`${second.origin}/`)).toBe(true);
  });
});
