import { defineCheck, notApplicable } from '../check.ts';
import { firstDistinctLocated } from '../locate.ts';
import type { Image } from '../../parse/page-snapshot.ts';
import { parseSrcset } from '../../parse/srcset.ts';
import { displayUrl } from './display-url.ts';
import { Int, Obj } from '../value-schema.ts';

const ImageDimensionsValue = Obj({ images: Int(), missing_dimensions: Int() });

export const imageDimensionsCheck = defineCheck<typeof ImageDimensionsValue>({
  id: 'image_dimensions',
  category: 'performance',
  importance: 'low',
  title: 'Images have explicit width and height',
  failureTitle: 'Images lack width or height',
  description:
    'With `width` and `height` attributes the browser reserves the right space before an image loads, so the layout does not jump (Cumulative Layout Shift, a Core Web Vital).',
  howToFix:
    'Add `width` and `height` attributes with the image\'s intrinsic size in pixels to every `<img>`; CSS can still scale it (`height: auto`).',
  labels: {
    images: 'Images', missing_dimensions: 'Images without width and height', src: 'Image',
  },
  value: ImageDimensionsValue,
  run({ page, snapshot }) {
    if (snapshot.images.length === 0) return notApplicable('the page has no images');
    const missing = snapshot.images.filter((img) => !hasDimension(img.width) || !hasDimension(img.height));
    const value = { images: snapshot.images.length, missing_dimensions: missing.length };
    if (missing.length === 0) return { passed: true, value, errors: null };
    const listed = firstDistinctLocated(missing, (img) => describeImage(img, snapshot.baseUrl), (img) => img, 'src', page);
    return { passed: false, value, errors: { missing_dimensions: listed } };
  },
});

/** Browsers ignore a dimension that does not start with a digit ("auto", ""), per the HTML dimension parsing rules. */
function hasDimension(attribute: string | null): boolean {
  return attribute !== null && /^\s*\d/.test(attribute);
}

function describeImage(img: Image, baseUrl: string): string {
  const src = img.src?.trim() || parseSrcset(img.srcset ?? '')[0]?.url;
  return src ? displayUrl(src, baseUrl) : '(img without src)';
}
