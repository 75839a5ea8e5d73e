import { BAND_EDGES, defineLabMetricCheck } from './lab-metric.ts';

export const cumulativeLayoutShiftCheck = defineLabMetricCheck({
  id: 'cumulative_layout_shift',
  importance: 'high',
  title: 'The layout stays put while the page loads',
  failureTitle: 'The layout shifts while the page loads',
  description:
    'Cumulative layout shift scores how far visible content moved unexpectedly during the load (the worst burst of shifts, as web-vitals counts it): text that jumps loses the reader\'s place, and a button that moves takes the wrong tap. It is one of Google\'s Core Web Vitals.',
  howToFix:
    'Give images, videos, iframes and ad slots a width and height (or an `aspect-ratio`), reserve space for anything inserted later (banners, embeds), and load web fonts so the fallback takes the same room (`size-adjust`, `font-display: optional`).',
  labels: { value: 'Layout shift score', layout_shifts: 'The largest layout shifts', selector: 'Element moved' },
  edges: BAND_EDGES.cls,
  unit: (edge) => String(edge),
  limit: 'max_cls',
  measure: ({ metrics }) => metrics.cls,
  errors: ({ layout_shifts: shifts }) => ({ layout_shifts: shifts.map(({ value, selector }) => ({ value, selector })) }),
});
