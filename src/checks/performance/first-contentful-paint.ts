import { BAND_EDGES, defineLabMetricCheck, milliseconds, NOTHING_PAINTED } from './lab-metric.ts';

export const firstContentfulPaintCheck = defineLabMetricCheck({
  id: 'first_contentful_paint',
  importance: 'medium',
  title: 'The first content appears quickly',
  failureTitle: 'The first content appears slowly',
  description:
    'First contentful paint is when the first text or image was painted: until then a visitor looks at a blank screen, and many leave.',
  howToFix:
    'Answer the document quickly, inline the CSS the first screen needs and load the rest later, move scripts out of the head or `defer` them, and preload the web fonts the first text uses (with `font-display: swap`).',
  labels: { value: 'First contentful paint (ms)', too_slow: 'Too slow', fcp_ms: 'First contentful paint (ms)', max_ms: 'Most allowed (ms)' },
  edges: BAND_EDGES.fcp_ms,
  unit: milliseconds,
  limit: 'max_fcp_ms',
  measure: ({ metrics }) => metrics.fcp_ms ?? { missing: `${NOTHING_PAINTED}.` },
  errors: (_measurement, value, limit) => ({ too_slow: [{ fcp_ms: value, max_ms: limit }] }),
});
