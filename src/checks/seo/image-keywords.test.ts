import { describe, expect, it } from 'vitest';
import type { Image } from '../../parse/page-snapshot.ts';
import { makeContext } from '../../../test/support/check-context.ts';
import { imageKeywordsCheck } from './image-keywords.ts';

const img = (src: string, alt: string | null, role: string | null = null): Image => ({
  src, srcset: null, alt, width: null, height: null, loading: null, role, pictureSources: [],
});
const run = (...images: Image[]) => imageKeywordsCheck.run(makeContext({ snapshot: { images } }));

describe('image_keywords', () => {
  it('passes when every image has alt, an empty alt marking decoration (listed as info)', () => {
    expect(run(img('/a.jpg', 'A loaf of rye'), img('/divider.png', ''))).toEqual({
      passed: true,
      value: { images: 2, missing_alt: 0, empty_alt: 1, empty_alt_images: ['/divider.png'] },
      errors: null,
    });
  });

  it('fails images without an alt attribute, listing their src', () => {
    expect(run(img('/a.jpg', null), img('/b.jpg', 'B'))).toMatchObject({ passed: false, value: { missing_alt: 1 }, errors: { missing_alt: ['/a.jpg'] } });
  });

  it('accepts role=presentation or none instead of alt', () => {
    expect(run(img('/a.jpg', null, 'presentation'), img('/b.jpg', null, 'none')).passed).toBe(true);
  });

  it('does not apply without images', () => {
    expect(run().passed).toBeNull();
  });
});
