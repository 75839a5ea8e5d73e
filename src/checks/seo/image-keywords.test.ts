import { describe, expect, it } from 'vitest';
import type { Image } from '../../parse/page-snapshot.ts';
import { makeContext } from '../../../test/support/check-context.ts';
import { imageKeywordsCheck } from './image-keywords.ts';

const img = (src: string, alt: string | null, role: string | null = null, hidden = false): Image => ({
  src, srcset: null, alt, width: null, height: null, loading: null, role, pictureSources: [], hidden, tagStart: 0, tagEnd: 0,
});
const run = (...images: Image[]) => imageKeywordsCheck.run(makeContext({ snapshot: { images } }));

describe('image_keywords', () => {
  it('passes when every image has alt, an empty alt marking decoration (listed as info)', () => {
    expect(run(img('/a.jpg', 'A loaf of rye'), img('/divider.png', ''))).toEqual({
      passed: true,
      value: { images: 2, hidden: 0, missing_alt: 0, blank_alt: 0, empty_alt: 1, empty_alt_images: ['/divider.png'] },
      errors: null,
    });
  });

  it('fails images without an alt attribute, listing their src', () => {
    expect(run(img('/a.jpg', null), img('/b.jpg', 'B'))).toMatchObject({ passed: false, value: { missing_alt: 1 }, errors: { missing_alt: [{ src: '/a.jpg' }] } });
  });

  it('accepts role=presentation or none instead of alt', () => {
    expect(run(img('/a.jpg', null, 'presentation'), img('/b.jpg', null, 'none')).passed).toBe(true);
  });

  it('fails an alt of only spaces or no-break spaces (blank_alt): only alt="" marks decoration', () => {
    const outcome = run(img('/logo.png', ' '), img('/nbsp.png', '\u00a0'), img('/mixed.png', ' \u00a0\t'), img('/ok.png', ''));
    expect(outcome).toMatchObject({
      passed: false,
      value: { missing_alt: 0, blank_alt: 3, empty_alt: 1 },
      errors: { blank_alt: [{ src: '/logo.png' }, { src: '/nbsp.png' }, { src: '/mixed.png' }] },
    });
    expect(outcome.passed === false && outcome.errors).not.toHaveProperty('missing_alt');
  });

  it('does not judge hidden images (hidden attribute or display:none on them or an ancestor)', () => {
    expect(run(img('/pixel.gif', null, null, true), img('/a.jpg', 'A'))).toEqual({
      passed: true,
      value: { images: 2, hidden: 1, missing_alt: 0, blank_alt: 0, empty_alt: 0, empty_alt_images: [] },
      errors: null,
    });
    expect(run(img('/pixel.gif', null, null, true))).toMatchObject({ passed: null, reason: expect.stringContaining('hidden') });
  });

  it('does not apply without images', () => {
    expect(run().passed).toBeNull();
  });
});
