import { describe, expect, it } from 'vitest';
import { checksById } from '../checks/index.ts';
import { labAudit, labContext, labResources } from '../../test/support/lab-fixtures.ts';
import { METRIC_EDGES, PAGE_WEIGHT_EDGES, formatEdges, formatMetric, metricRows } from './lab-display.ts';
import type { LabMetrics } from './lab-types.ts';

const CHECK_OF: Record<string, string> = { lcp_ms: 'largest_contentful_paint', cls: 'cumulative_layout_shift', tbt_ms: 'total_blocking_time', fcp_ms: 'first_contentful_paint' };

/** Each edge, and just past it: where a band changes. */
function aroundEdges([good, poor]: readonly [number, number], step: number): number[] {
  return [0, good, good + step, poor, poor + step];
}

/** The band the metric's own check gives a value. */
function checkBand(id: string, audit: ReturnType<typeof labAudit>): unknown {
  const outcome = checksById.get(id)!.run(labContext(audit));
  return (outcome.value as { band?: unknown } | null)?.band;
}

describe('the bands shown', () => {
  it('are the banded metrics LCP, CLS, TBT and FCP', () => {
    expect(Object.keys(METRIC_EDGES).sort()).toEqual(Object.keys(CHECK_OF).sort());
  });

  it.each(Object.entries(CHECK_OF))('%s: the band its check (%s) gives, at each edge and past it', (key, id) => {
    const edges = METRIC_EDGES[key as keyof LabMetrics]!;
    for (const value of aroundEdges(edges, key === 'cls' ? 0.001 : 1)) {
      const metrics = { [key]: value } as Partial<LabMetrics>;
      const shown = metricRows({ ttfb_ms: 1, fcp_ms: 1, lcp_ms: 1, cls: 0, tbt_ms: 0, load_ms: 1, ...metrics }).find((row) => row.key === key)!.band;
      expect(shown, `${key} ${value}`).toBe(checkBand(id, labAudit({ metrics })));
    }
  });

  it('page weight: the band page_weight gives', () => {
    for (const bytes of aroundEdges(PAGE_WEIGHT_EDGES, 1)) {
      expect(checkBand('page_weight', labAudit({ resources: labResources({ image: [1, bytes] }) })), String(bytes)).toBe(
        bytes <= PAGE_WEIGHT_EDGES[0] ? 'good' : bytes <= PAGE_WEIGHT_EDGES[1] ? 'needs_improvement' : 'poor',
      );
    }
  });

  it('TTFB and load have none; a metric not measured has none and says why', () => {
    const rows = metricRows({ ttfb_ms: 571, fcp_ms: null, lcp_ms: null, cls: 0, tbt_ms: null, load_ms: null });
    expect(rows.map((row) => [row.key, row.band])).toEqual([
      ['lcp_ms', null], ['cls', 'good'], ['tbt_ms', null], ['fcp_ms', null], ['ttfb_ms', null], ['load_ms', null],
    ]);
    expect(rows.find((row) => row.key === 'load_ms')!.missing).toBe('not measured: the load event did not come within the audit');
  });

  it('writes values and edges with their units', () => {
    expect(formatMetric('lcp_ms', 4690)).toBe('4,690 ms');
    expect(formatMetric('cls', 0.012)).toBe('0.012');
    expect(formatEdges('lcp_ms', METRIC_EDGES.lcp_ms!)).toBe('good ≤ 2,500 ms, poor > 4,000 ms');
    expect(formatEdges('cls', METRIC_EDGES.cls!)).toBe('good ≤ 0.1, poor > 0.25');
  });
});
