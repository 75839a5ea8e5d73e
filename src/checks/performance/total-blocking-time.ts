import { BAND_EDGES, defineLabMetricCheck, milliseconds, NOTHING_PAINTED } from './lab-metric.ts';

export const totalBlockingTimeCheck = defineLabMetricCheck({
  id: 'total_blocking_time',
  importance: 'medium',
  title: 'The main thread stays free to answer',
  failureTitle: 'Long tasks block the main thread',
  description:
    'Total blocking time adds up, for every main-thread task over 50 ms after the first contentful paint, the part beyond 50 ms: while such a task runs the page cannot answer a tap, a click or a key. It is the lab\'s stand-in for Interaction to Next Paint.',
  howToFix:
    'Ship less JavaScript (split bundles, drop unused code and heavy third-party tags), defer what the first screen does not need, and break long tasks into smaller ones that yield to the browser.',
  labels: {
    value: 'Total blocking time (ms)', long_tasks: 'The longest main-thread tasks', start_ms: 'Started at (ms)', duration_ms: 'Lasted (ms)',
  },
  edges: BAND_EDGES.tbt_ms,
  unit: milliseconds,
  limit: 'max_tbt_ms',
  measure: ({ metrics }) =>
    metrics.fcp_ms === null || metrics.tbt_ms === null
      ? { missing: `${NOTHING_PAINTED}, and blocking time is counted from the first contentful paint.` }
      : metrics.tbt_ms,
  errors: ({ long_tasks: tasks }) => ({ long_tasks: tasks.map(({ start_ms, duration_ms }) => ({ start_ms, duration_ms })) }),
});
