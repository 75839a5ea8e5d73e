import type { Static } from '@sinclair/typebox';
import { defineCheck, type CheckOutcome } from '../check.ts';
import { Int, Nullable, Obj, Str } from '../value-schema.ts';

/** Codings browsers decode. `x-gzip` is the legacy alias of gzip (RFC 9110 §8.4.1.3). */
const COMPRESSING_CODINGS = new Set(['gzip', 'x-gzip', 'br', 'zstd', 'deflate']);

const TextCompressionValue = Obj({ content_encoding: Nullable(Str()), transferred_bytes: Int(), body_bytes: Int() });

export const textCompressionCheck = defineCheck<typeof TextCompressionValue>({
  id: 'text_compression',
  category: 'performance',
  importance: 'medium',
  title: 'The HTML is sent compressed',
  failureTitle: 'The HTML is sent uncompressed',
  description:
    'Compressing HTML with gzip, Brotli or Zstandard typically shrinks it by 70% or more, so the page arrives sooner, especially on mobile connections.',
  howToFix:
    'Turn on gzip or Brotli (br) compression for text/html responses in the web server, CDN or application (e.g. `gzip on;` or the brotli module in nginx, mod_deflate in Apache).',
  labels: {
    content_encoding: 'Content-Encoding', transferred_bytes: 'Bytes transferred', body_bytes: 'Bytes after decompression',
    uncompressed: 'Sent uncompressed', unsupported_encoding: 'Unsupported encodings',
  },
  value: TextCompressionValue,
  run({ page }): CheckOutcome<Static<typeof TextCompressionValue>> {
    const codings = (page.contentEncoding ?? '')
      .split(',')
      .map((coding) => coding.trim().toLowerCase())
      .filter((coding) => coding !== '' && coding !== 'identity');
    const value = {
      content_encoding: page.contentEncoding,
      transferred_bytes: page.transferredBytes,
      body_bytes: page.bodyBytes,
    };
    if (codings.some((coding) => COMPRESSING_CODINGS.has(coding))) return { passed: true, value, errors: null };
    return {
      passed: false,
      value,
      errors: codings.length === 0 ? { uncompressed: [page.finalUrl] } : { unsupported_encoding: codings },
    };
  },
});
