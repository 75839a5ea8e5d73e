// The X-Robots-Tag header through the whole pipeline: a noindex for all crawlers or for Googlebot
// fails the noindex check and caps the result below "good"; one scoped to another crawler does not.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearOriginFactsCache } from '../../src/fetch/origin-facts.ts';
import { analyzer, goldenPage, startGoldenSite, wellKeptSite, type GoldenSite } from './support/golden-site.ts';

const PATH = '/guides/mountain-coffee';
const analyze = analyzer();
let started: GoldenSite | null = null;

beforeEach(() => clearOriginFactsCache());
afterEach(async () => {
  await started?.close();
  started = null;
});

/** The "good" golden page on a well-kept site, sent with `xRobotsTag` (an array: one header per value). */
async function goodPageWith(xRobotsTag: string | string[]): Promise<GoldenSite> {
  started = await startGoldenSite(wellKeptSite(PATH, goldenPage('good'), { coding: 'gzip', headers: { 'x-robots-tag': xRobotsTag } }));
  return started;
}

describe('X-Robots-Tag', () => {
  it.each([
    { header: 'noindex', source: 'X-Robots-Tag header' },
    { header: 'none', source: 'X-Robots-Tag header' },
    { header: 'googlebot: noindex', source: 'X-Robots-Tag header for googlebot' },
  ])('$header fails noindex and keeps a 91-point page at decent', async ({ header, source }) => {
    const site = await goodPageWith(header);
    const analysis = await analyze(site.url(PATH));

    expect(analysis.results.noindex.passed).toBe(false);
    expect(analysis.results.noindex.value).toMatchObject({ blocked_by: source });
    // As the golden "good" page (209 of 219 points) minus noindex (high, 10):
    // score = round(100 * 199 / 219) = round(90.87) = 91, good by score, capped at decent.
    expect(analysis.score).toBe(91);
    expect(analysis.result).toBe('decent');
  });

  it('"otherbot: noindex" is not for Googlebot, so the page stays indexable and good', async () => {
    const site = await goodPageWith('otherbot: noindex, nofollow');
    const analysis = await analyze(site.url(PATH));

    expect(analysis.results.noindex.passed).toBe(true);
    expect(analysis.results.noindex.value).toMatchObject({ blocked_by: null });
    // The golden "good" page's score: round(100 * 209 / 219) = 95.
    expect(analysis.score).toBe(95);
    expect(analysis.result).toBe('good');
  });

  it('a second X-Robots-Tag header without a crawler name applies to all crawlers', async () => {
    // Each header line stands alone: "otherbot:" scopes only the line it starts.
    const site = await goodPageWith(['otherbot: nofollow', 'noindex']);
    const analysis = await analyze(site.url(PATH));

    expect(analysis.results.noindex.passed).toBe(false);
    expect(analysis.result).toBe('decent');
  });
});
