import { describe, expect, it } from 'vitest';
import { nearestRankP75, summariseLabPages, type AuditedLabPage } from './crawl-lab-summary.ts';

describe('nearestRankP75', () => {
  it('is the value at rank ceil(0.75 × n) of the values sorted ascending, nulls left out', () => {
    expect(nearestRankP75([5])).toBe(5);
    expect(nearestRankP75([4, 1, 3, 2])).toBe(3);
    expect(nearestRankP75([10, 20, 30, 40, 50])).toBe(40);
    expect(nearestRankP75([null, 7, null, 1])).toBe(7);
    expect(nearestRankP75([0.02, 0.001, 0.3])).toBe(0.3);
    expect(nearestRankP75([null, null])).toBeNull();
    expect(nearestRankP75([])).toBeNull();
  });
});

describe('summariseLabPages', () => {
  const page = (template: string, rank: number, lcp: number | null, cls: number | null, tbt: number | null, a11y: number | null): AuditedLabPage => ({
    template, template_rank: rank, lcp_ms: lcp, cls, tbt_ms: tbt, accessibility_score: a11y,
  });

  it('summarises each template in its rank\'s order: p75s, the mean accessibility score rounded, its pages', () => {
    const summary = summariseLabPages([
      page('/product/{n}', 1, 1830, 0.02, 0, 94),
      page('/', 0, 900, 0, null, null),
      page('/product/{n}', 1, 2100, 0.1, 120, 91),
      page('/product/{n}', 1, null, 0.05, null, 90),
    ]);
    expect(summary).toEqual({
      pages: 4,
      templates: [
        { pattern: '/', pages: 1, lcp_ms_p75: 900, cls_p75: 0, tbt_ms_p75: null, accessibility_score: null },
        { pattern: '/product/{n}', pages: 3, lcp_ms_p75: 2100, cls_p75: 0.1, tbt_ms_p75: 120, accessibility_score: 92 },
      ],
    });
  });

  it('has no template without a successful audit', () => {
    expect(summariseLabPages([])).toEqual({ pages: 0, templates: [] });
  });
});
