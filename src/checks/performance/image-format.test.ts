import { describe, it, expect } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import type { Image } from '../../parse/page-snapshot.ts';
import { imageFormatCheck } from './image-format.ts';

const img = (extra: Partial<Image>): Image => ({
  src: null, srcset: null, alt: '', width: '1', height: '1', loading: null, role: null, pictureSources: [], hidden: false, tagStart: 0, tagEnd: 0, ...extra,
});
const run = (images: Image[]) => imageFormatCheck.run(makeContext({ snapshot: { images } }));

describe('image_format', () => {
  it('does not apply without images', () => {
    expect(run([])).toMatchObject({ passed: null, reason: 'the page has no images' });
  });

  it('does not apply when no image has a source', () => {
    expect(run([img({ src: '' })]).passed).toBeNull();
  });

  it('leaves out small inline placeholders (lazy-loading 1x1 GIFs) but judges large inline images', () => {
    const placeholder = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';
    expect(run([img({ src: placeholder })])).toMatchObject({ passed: null });
    const outcome = run([img({ src: placeholder }), img({ src: `data:image/png;base64,${'A'.repeat(2000)}` })]);
    expect(outcome).toMatchObject({ passed: false, value: { images: 1, legacy: 1, inline_placeholders: 1 } });
  });

  it('passes modern images, pictures with a modern source, and srcsets that replace a legacy src', () => {
    const outcome = run([
      img({ src: 'a.webp' }),
      img({ src: 'b.jpg', pictureSources: [{ type: 'image/AVIF', srcset: 'b.avif' }] }),
      img({ src: 'c.jpg', pictureSources: [{ type: null, srcset: 'c.webp 1x, c2.webp 2x' }] }),
      img({ src: 'd.jpg', srcset: 'd.webp 1x, d2.webp 2x' }),
      img({ src: null, alt: 'no source at all' }),
    ]);
    expect(outcome).toMatchObject({ passed: true, value: { images: 4, modern: 4, legacy: 0, without_source: 1 }, errors: null });
  });

  it('fails legacy images and lists their absolute URLs', () => {
    const outcome = run([
      img({ src: 'a.webp' }),
      img({ src: '/photos/b.jpg?w=300' }),
      img({ src: 'c.webp', srcset: 'c-2x.png 2x' }),
      img({ src: 'd.jpg', pictureSources: [{ type: 'image/jpeg', srcset: 'd-large.jpg' }] }),
    ]);
    expect(outcome).toMatchObject({
      passed: false,
      value: { images: 4, modern: 1, legacy: 3 },
      errors: { legacy_format: [{ url: 'https://example.com/photos/b.jpg?w=300' }, { url: 'https://example.com/c-2x.png' }, { url: 'https://example.com/d.jpg' }] },
    });
  });

  it('does not fail extension-less URLs but lists them as unknown', () => {
    const avatar = img({ src: 'https://cdn.example.com/image?id=3' });
    const outcome = run([avatar, avatar, img({ src: 'x.svg' })]);
    expect(outcome).toMatchObject({
      passed: true,
      value: { modern: 1, unknown: 2, unknown_urls: ['https://cdn.example.com/image?id=3'] },
    });
  });

  it('counts every legacy and unknown image but lists the first 25 distinct URLs of each', () => {
    const images = [
      ...Array.from({ length: 40 }, (_, i) => img({ src: `/p${i % 30}.png` })),
      ...Array.from({ length: 30 }, (_, i) => img({ src: `/cdn/u${i % 27}` })),
    ];
    const outcome = run(images);
    expect(outcome).toMatchObject({ passed: false, value: { images: 70, legacy: 40, unknown: 30 } });
    if (outcome.passed !== false) throw new Error('expected a failure');
    expect(outcome.errors?.legacy_format).toMatchObject(Array.from({ length: 25 }, (_, i) => ({ url: `https://example.com/p${i}.png` })));
    expect((outcome.value as { unknown_urls: string[] }).unknown_urls).toEqual(Array.from({ length: 25 }, (_, i) => `https://example.com/cdn/u${i}`));
  });
});
