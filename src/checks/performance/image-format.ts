import { defineCheck, firstDistinct, notApplicable } from '../check.ts';
import { firstDistinctLocated } from '../locate.ts';
import type { Image, PictureSource } from '../../parse/page-snapshot.ts';
import { classifyImageUrl, type ImageUrlFormat } from './image-url-format.ts';
import { imageCandidateUrls, parseSrcset } from '../../parse/srcset.ts';
import { displayUrl } from './display-url.ts';
import { Int, List, Obj, Str } from '../value-schema.ts';

const MODERN_SOURCE_TYPES = new Set(['image/avif', 'image/webp']);
/**
 * Inline data: images shorter than this are lazy-loading placeholders and tiny icons (a 1x1 GIF is
 * about 70 characters): their format costs nothing worth reporting, and their bytes count in page_size.
 */
const PLACEHOLDER_MAX_CHARS = 1000;

const ImageFormatValue = Obj({
  images: Int(),
  modern: Int(),
  legacy: Int(),
  unknown: Int(),
  unknown_urls: List(Str()),
  without_source: Int(),
  inline_placeholders: Int(),
});

export const imageFormatCheck = defineCheck<typeof ImageFormatValue>({
  id: 'image_format',
  category: 'performance',
  importance: 'medium',
  title: 'Images use modern formats',
  failureTitle: 'Images use older, heavier formats',
  description:
    'AVIF and WebP images are typically 25–50% smaller than JPEG or PNG at the same quality, so pages load faster and use less data. SVG suits logos and icons.',
  howToFix:
    'Serve photos as AVIF or WebP (with `<picture><source type="image/avif">` and a JPEG fallback if needed) and icons as SVG; most image CDNs can convert automatically.',
  labels: {
    images: 'Images judged', modern: 'In a modern format', legacy: 'In a legacy format', unknown: 'Format unknown (no extension)',
    unknown_urls: 'Images of unknown format', without_source: 'Images without a source',
    inline_placeholders: 'Inline placeholders (not judged)', legacy_format: 'Images in a legacy format', url: 'Image',
  },
  value: ImageFormatValue,
  run({ page, snapshot }) {
    if (snapshot.images.length === 0) return notApplicable('the page has no images');
    // URLs as written; only the first few distinct ones are shown (firstDistinct), so only those are resolved
    const legacy: { url: string; img: Image }[] = [];
    const unknown: string[] = [];
    let modern = 0;
    let withoutSource = 0;
    let placeholders = 0;
    for (const img of snapshot.images) {
      const all = imageCandidateUrls(img.src, img.srcset);
      const candidates = all.filter((url) => !isPlaceholder(url));
      if (candidates.length === 0) {
        if (all.length === 0) withoutSource++;
        else placeholders++;
        continue;
      }
      const verdict = imageVerdict(img, candidates, snapshot.baseUrl);
      if (verdict.format === 'modern') modern++;
      else if (verdict.format === 'legacy') legacy.push({ url: verdict.url, img });
      else unknown.push(verdict.url);
    }
    const judged = modern + legacy.length + unknown.length;
    if (judged === 0) return notApplicable('no image has a src or srcset other than an inline placeholder');
    const value = {
      images: judged,
      modern,
      legacy: legacy.length,
      // Extension-less URLs (CDNs, image endpoints) cannot be judged without downloading them.
      unknown: unknown.length,
      unknown_urls: firstDistinct(unknown, (url) => displayUrl(url, snapshot.baseUrl)),
      without_source: withoutSource,
      inline_placeholders: placeholders,
    };
    if (legacy.length === 0) return { passed: true, value, errors: null };
    const listed = firstDistinctLocated(legacy, ({ url }) => displayUrl(url, snapshot.baseUrl), ({ img }) => img, 'url', page);
    return { passed: false, value, errors: { legacy_format: listed } };
  },
});

/** An img is modern when its picture offers an AVIF/WebP source, or when every URL it may fetch is modern. */
function imageVerdict(img: Image, candidates: string[], baseUrl: string): { format: ImageUrlFormat; url: string } {
  if (img.pictureSources.some((source) => isModernSource(source, baseUrl))) return { format: 'modern', url: candidates[0] };
  const formats = candidates.map((url) => ({ url, format: classifyImageUrl(url, baseUrl) }));
  return (
    formats.find(({ format }) => format === 'legacy') ??
    formats.find(({ format }) => format === 'unknown') ?? { format: 'modern', url: candidates[0] }
  );
}

function isPlaceholder(url: string): boolean {
  const trimmed = url.trim();
  return trimmed.length < PLACEHOLDER_MAX_CHARS && /^data:/i.test(trimmed);
}

function isModernSource(source: PictureSource, baseUrl: string): boolean {
  const type = source.type?.split(';')[0].trim().toLowerCase();
  if (type && MODERN_SOURCE_TYPES.has(type)) return true;
  return parseSrcset(source.srcset ?? '').some(({ url }) => classifyImageUrl(url, baseUrl) === 'modern');
}
