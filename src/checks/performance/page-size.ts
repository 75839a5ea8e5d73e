import { defineCheck } from '../check.ts';
import { Int, Num, Obj } from '../value-schema.ts';

const PageSizeValue = Obj({ transferred_bytes: Int(), body_bytes: Int(), max_bytes: Num() });

export const pageSizeCheck = defineCheck<typeof PageSizeValue>({
  id: 'page_size',
  category: 'performance',
  importance: 'medium',
  title: 'The HTML is small',
  failureTitle: 'The HTML is large',
  description:
    'Every byte of HTML must arrive before the page is complete; a heavy document is slow on mobile networks and costs visitors data.',
  howToFix:
    'Compress the response, move inline scripts, styles and SVGs to cacheable files, and paginate or lazy-load long lists.',
  labels: {
    transferred_bytes: 'Bytes transferred', body_bytes: 'Bytes after decompression', max_bytes: 'Most bytes allowed',
    too_large: 'Too large',
  },
  value: PageSizeValue,
  run({ page, thresholds }) {
    const value = {
      transferred_bytes: page.transferredBytes,
      body_bytes: page.bodyBytes,
      max_bytes: thresholds.max_page_bytes,
    };
    if (page.transferredBytes <= thresholds.max_page_bytes) return { passed: true, value, errors: null };
    return {
      passed: false,
      value,
      errors: { too_large: [{ transferred_bytes: page.transferredBytes, max_bytes: thresholds.max_page_bytes }] },
    };
  },
});
