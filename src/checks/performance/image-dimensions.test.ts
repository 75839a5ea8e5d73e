import { describe, it, expect } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import type { Image } from '../../parse/page-snapshot.ts';
import { imageDimensionsCheck } from './image-dimensions.ts';

const img = (extra: Partial<Image>): Image => ({
  src: 'a.jpg', srcset: null, alt: '', width: '100', height: '50', loading: null, role: null, pictureSources: [], hidden: false, tagStart: 0, tagEnd: 0, ...extra,
});
const run = (images: Image[]) => imageDimensionsCheck.run(makeContext({ snapshot: { images } }));

describe('image_dimensions', () => {
  it('does not apply without images', () => {
    expect(run([]).passed).toBeNull();
  });

  it('passes when every image has width and height', () => {
    expect(run([img({}), img({ width: ' 640', height: '480px' })])).toMatchObject({ passed: true, value: { images: 2, missing_dimensions: 0 } });
  });

  it('fails images missing either attribute, or with one browsers ignore', () => {
    const outcome = run([
      img({}),
      img({ src: '/b.png', width: null }),
      img({ src: null, srcset: 'c.png 1x', height: '' }),
      img({ src: null, width: 'auto' }),
    ]);
    expect(outcome).toMatchObject({
      passed: false,
      value: { images: 4, missing_dimensions: 3 },
      errors: { missing_dimensions: [{ src: 'https://example.com/b.png' }, { src: 'https://example.com/c.png' }, { src: '(img without src)' }] },
    });
  });

  it('names a srcset-only image by its first candidate URL, as the srcset parser reads it', () => {
    const outcome = run([img({ src: null, srcset: 'd.png, e.png 2x', width: null })]);
    expect(outcome).toMatchObject({ errors: { missing_dimensions: [expect.objectContaining({ src: 'https://example.com/d.png' })] } });
  });

  it('counts every image without dimensions but lists the first 25 distinct ones', () => {
    const images = Array.from({ length: 40 }, (_, i) => img({ src: `/i${i % 30}.png`, width: null }));
    const outcome = run(images);
    expect(outcome).toMatchObject({ passed: false, value: { images: 40, missing_dimensions: 40 } });
    expect(outcome.passed === false && outcome.errors?.missing_dimensions).toMatchObject(
      Array.from({ length: 25 }, (_, i) => ({ src: `https://example.com/i${i}.png` })),
    );
  });
});
