// The same golden page sent gzip, br, deflate and uncompressed: the decoded page is the same, so
// every verdict is the same except text_compression.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clearOriginFactsCache } from '../../src/fetch/origin-facts.ts';
import { analyzer, goldenPage, htmlPage, startGoldenSite, verdicts, type Coding, type GoldenSite } from './support/golden-site.ts';

const analyze = analyzer();
let started: GoldenSite;

beforeEach(async () => {
  clearOriginFactsCache();
  const page = goldenPage('good');
  started = await startGoldenSite({
    '/plain': htmlPage(page),
    '/gzip': htmlPage(page, { coding: 'gzip' }),
    '/br': htmlPage(page, { coding: 'br' }),
    '/deflate': htmlPage(page, { coding: 'deflate' }),
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
});
