// Tells from an image URL alone whether it serves a modern format (AVIF, WebP, SVG), a legacy one
// (JPEG, PNG, GIF, ...) or cannot be told (an extension-less CDN URL).
import { resolveUrl } from '../../parse/url.ts';

export type ImageUrlFormat = 'modern' | 'legacy' | 'unknown';

const MODERN_EXTENSIONS = new Set(['avif', 'webp', 'svg', 'svgz']);
const LEGACY_EXTENSIONS = new Set(['jpg', 'jpeg', 'jpe', 'jfif', 'pjpeg', 'pjp', 'png', 'apng', 'gif', 'bmp', 'ico', 'cur', 'tif', 'tiff']);
/** Query parameters image CDNs read the output format from (`format=` generic, `fm=` imgix). */
const FORMAT_PARAMS = ['format', 'fm'];
const LEGACY_FORMAT_VALUES = new Set(['jpg', 'jpeg', 'pjpg', 'png', 'png8', 'png32', 'gif']);

export function classifyImageUrl(raw: string, baseUrl: string): ImageUrlFormat {
  const trimmed = raw.trim();
  if (/^data:/i.test(trimmed)) {
    if (/^data:image\/(avif|webp|svg\+xml)[;,]/i.test(trimmed)) return 'modern';
    return /^data:image\//i.test(trimmed) ? 'legacy' : 'unknown';
  }
  const url = resolveUrl(trimmed, baseUrl);
  if (!url) return 'unknown';

  for (const param of FORMAT_PARAMS) {
    const value = queryParam(url, param)?.trim().toLowerCase();
    if (value === 'webp' || value === 'avif') return 'modern';
  }
  if (servesNegotiatedFormat(url)) return 'modern';

  const extension = /\.([a-z0-9]+)$/i.exec(url.pathname)?.[1]?.toLowerCase();
  if (extension && MODERN_EXTENSIONS.has(extension)) return 'modern';
  if (extension && LEGACY_EXTENSIONS.has(extension)) return 'legacy';

  for (const param of FORMAT_PARAMS) {
    const value = queryParam(url, param)?.trim().toLowerCase();
    if (value && LEGACY_FORMAT_VALUES.has(value)) return 'legacy';
  }
  return 'unknown';
}

/**
 * `url.searchParams.get(name)`, without building the URL's search params (a parse of the whole query)
 * when the query cannot hold the name: names are matched percent-decoded (and with "+" as a space), so
 * without a "%" in the query a parameter `name` has to appear in it as written.
 */
function queryParam(url: URL, name: string): string | null {
  const search = url.search;
  if (search === '' || (!search.includes('%') && !search.includes(name))) return null;
  return url.searchParams.get(name);
}

/**
 * CDN settings that pick AVIF/WebP per browser from its Accept header, whatever the extension says:
 * imgix `auto=format` and Cloudinary `f_auto` transformations.
 */
function servesNegotiatedFormat(url: URL): boolean {
  const auto = queryParam(url, 'auto');
  if (auto && auto.toLowerCase().split(',').some((option) => option.trim() === 'format')) return true;
  if (!/f_/i.test(url.pathname)) return false;
  return url.pathname
    .split('/')
    .some((segment) => segment.split(',').some((transformation) => /^f_(auto|webp|avif)$/i.test(transformation)));
}
