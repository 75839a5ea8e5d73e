// The same golden page sent gzip, br, deflate and uncompressed: the decoded page is the same, so
// every verdict is the same except text_compression.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearOriginFactsCache } from '../../src/fetch/origin-facts.ts';
import { analyzer, goldenPage, htmlPage, startGoldenSite, verdicts, type Coding, type GoldenSite } from './support/golden-site.ts';

const analyze = analyzer();
/** About 400 kB of HTML: over page_size's 330,000 bytes when sent as is, far under once gzipped. */
const HEAVY_PAGE = `<!DOCTYPE html><html lang="en"><title>A heavy page of coffee notes</title><body>${'<p>Notes on coffee.</p>'.repeat(18_000)}</body></html>`;
let started: GoldenSite;

beforeEach(async () => {
  clearOriginFactsCache();
  const page = goldenPage('good');
  started = await startGoldenSite({
    '/plain': htmlPage(page),
    '/gzip': htmlPage(page, { coding: 'gzip' }),
    '/br': htmlPage(page, { coding: 'br' }),
    '/deflate': htmlPage(page, { coding: 'deflate' }),
    '/heavy': htmlPage(HEAVY_PAGE),
    '/heavy-gzip': htmlPage(HEAVY_PAGE, { coding: 'gzip' }),
  });
});
afterEach(() => started.close());

describe('compressed and uncompressed bodies', () => {
  it.each<Coding>(['gzip', 'br', 'deflate'])('%s gives the verdicts of the uncompressed page, except text_compression', async (coding) => {
    const plain = await analyze(started.url('/plain'));
    const compressed = await analyze(started.url(`/${coding}`));

    expect(plain.results.text_compression.passed).toBe(false);
    expect(compressed.results.text_compression.passed).toBe(true);
    expect(compressed.results.text_compression.value).toMatchObject({ content_encoding: coding });
    const { text_compression: _plain, ...plainRest } = verdicts(plain);
    const { text_compression: _compressed, ...compressedRest } = verdicts(compressed);
    expect(compressedRest).toEqual(plainRest);

    // The decoded page is identical; only the wire size differs.
    expect(compressed.results.title.value).toEqual(plain.results.title.value);
    expect(compressed.results.content_length.value).toEqual(plain.results.content_length.value);
    const plainSize = plain.results.page_size.value as { transferred_bytes: number; body_bytes: number };
    const compressedSize = compressed.results.page_size.value as { transferred_bytes: number; body_bytes: number };
    expect(compressedSize.body_bytes).toBe(plainSize.body_bytes);
    expect(plainSize.transferred_bytes).toBe(plainSize.body_bytes);
    expect(compressedSize.transferred_bytes).toBeLessThan(compressedSize.body_bytes);
  });

  it('judges page_size by the bytes transferred, so compression can make a heavy page pass', async () => {
    const plain = await analyze(started.url('/heavy'));
    const compressed = await analyze(started.url('/heavy-gzip'));

    expect(HEAVY_PAGE.length).toBeGreaterThan(330_000);
    expect(plain.results.page_size.passed).toBe(false);
    expect(plain.results.page_size.value).toMatchObject({ transferred_bytes: HEAVY_PAGE.length, body_bytes: HEAVY_PAGE.length });
    expect(compressed.results.page_size.passed).toBe(true);
    expect(compressed.results.page_size.value).toMatchObject({ body_bytes: HEAVY_PAGE.length });
  });
});
