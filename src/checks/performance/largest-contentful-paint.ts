import { BAND_EDGES, defineLabMetricCheck, milliseconds, NOTHING_PAINTED } from './lab-metric.ts';

export const largestContentfulPaintCheck = defineLabMetricCheck({
  id: 'largest_contentful_paint',
  importance: 'high',
  title: 'The main content appears quickly',
  failureTitle: 'The main content appears slowly',
  description:
    'Largest contentful paint is when the largest image or block of text in the viewport was painted: the moment a visitor sees the page\'s main content. It is one of Google\'s Core Web Vitals.',
  howToFix:
    'Make the element listed arrive early: answer the document quickly, do not lazy-load it, preload its image or give it `fetchpriority="high"`, serve that image compressed and no larger than shown, and keep render-blocking scripts and stylesheets out of its way.',
  labels: {
    value: 'Largest contentful paint (ms)', lcp_element: 'The largest element painted', selector: 'Element', snippet: 'HTML',
  },
  edges: BAND_EDGES.lcp_ms,
  unit: milliseconds,
  limit: 'max_lcp_ms',
  measure: ({ metrics }) => metrics.lcp_ms ?? { missing: `${NOTHING_PAINTED}, so there is no largest contentful paint.` },
  // An empty list when the element is gone from the DOM.
  errors: ({ lcp_element: element }) => ({ lcp_element: element ? [{ selector: element.selector, snippet: element.snippet }] : [] }),
});
