import { defineCheck } from '../check.ts';
import { Int, Num, Obj } from '../value-schema.ts';

const LoadTimeValue = Obj({ total_ms: Num(), redirects: Int(), max_ms: Num() });

export const loadTimeCheck = defineCheck<typeof LoadTimeValue>({
  id: 'load_time',
  category: 'performance',
  importance: 'medium',
  title: 'The document loads quickly',
  failureTitle: 'The document loads slowly',
  description:
    'A slow HTML download delays everything else on the page; visitors leave slow pages and search engines crawl them less.',
  howToFix:
    'Remove unneeded redirects, cache the generated HTML (or serve it from a CDN), speed up slow database queries and shrink the HTML.',
  labels: {
    total_ms: 'Load time (ms)', redirects: 'Redirects', max_ms: 'Most allowed (ms)', too_slow: 'Too slow',
  },
  value: LoadTimeValue,
  run({ page, thresholds }) {
    const value = { total_ms: page.totalMs, redirects: page.redirects.length, max_ms: thresholds.max_load_time_ms };
    if (page.totalMs <= thresholds.max_load_time_ms) return { passed: true, value, errors: null };
    return { passed: false, value, errors: { too_slow: [{ total_ms: page.totalMs, max_ms: thresholds.max_load_time_ms }] } };
  },
});
