import { RESOURCE_TYPES } from '../../lab/lab-types.ts';
import { BAND_EDGES, defineLabMetricCheck } from './lab-metric.ts';

const kib = new Intl.NumberFormat('en');

export const pageWeightCheck = defineLabMetricCheck({
  id: 'page_weight',
  importance: 'low',
  title: 'The page is light to download',
  failureTitle: 'The page is heavy to download',
  description:
    'Every byte the page downloads (its document, scripts, stylesheets, images, fonts and the rest) costs visitors time on slow networks and money on metered ones. Counted as received over the network, compressed where it was.',
  howToFix:
    'Start with the heaviest types listed: compress and resize images (AVIF or WebP, no larger than shown), lazy-load those below the fold, compress text with Brotli or gzip, and drop unused JavaScript, CSS and font files.',
  labels: { value: 'Bytes downloaded', by_type: 'Bytes by type of resource', type: 'Type', requests: 'Requests', bytes: 'Bytes' },
  edges: BAND_EDGES.page_weight_bytes,
  unit: (edge) => `${kib.format(edge / 1024)} KiB`,
  limit: 'max_page_weight_bytes',
  measure: ({ resources }) => resources.bytes,
  // The types with bytes, heaviest first (ties in the order of `by_type`).
  errors: ({ resources }) => ({
    by_type: RESOURCE_TYPES.map((type) => ({ type, ...resources.by_type[type] }))
      .filter(({ bytes }) => bytes > 0)
      .sort((a, b) => b.bytes - a.bytes)
      .map(({ type, requests, bytes }) => ({ type, requests, bytes })),
  }),
});
