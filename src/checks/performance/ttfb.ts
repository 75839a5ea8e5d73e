import { defineCheck } from '../check.ts';
import { Num, Obj } from '../value-schema.ts';

const TtfbValue = Obj({ ttfb_ms: Num(), max_ms: Num() });

export const ttfbCheck = defineCheck<typeof TtfbValue>({
  id: 'ttfb',
  category: 'performance',
  importance: 'medium',
  title: 'The server answers quickly',
  failureTitle: 'The server is slow to answer',
  description:
    'Time to first byte is how long the server takes to start sending the page; nothing can render before it, so a slow server delays every other metric.',
  howToFix:
    'Cache generated pages, serve them from a CDN close to visitors, avoid redirect chains, and profile slow server-side code and database queries.',
  labels: {
    ttfb_ms: 'Time to first byte (ms)', max_ms: 'Most allowed (ms)', too_slow: 'Too slow',
  },
  value: TtfbValue,
  run({ page, thresholds }) {
    const value = { ttfb_ms: page.ttfbMs, max_ms: thresholds.max_ttfb_ms };
    if (page.ttfbMs <= thresholds.max_ttfb_ms) return { passed: true, value, errors: null };
    return { passed: false, value, errors: { too_slow: [{ ttfb_ms: page.ttfbMs, max_ms: thresholds.max_ttfb_ms }] } };
  },
});
