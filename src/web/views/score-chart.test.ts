import { describe, expect, it } from 'vitest';
import type { RunSummary } from '../../services/types.ts';
import { CHART_RUNS, scoreChart } from './score-chart.ts';

function runs(count: number): RunSummary[] {
  return Array.from({ length: count }, (_, index) => ({
    id: 100 + index,
    number: index + 1,
    score: (index * 37) % 101,
    result: index % 2 === 0 ? 'good' : 'bad',
    issues: { high: 0, medium: 0, low: 0 },
    trigger: 'schedule',
    generated_at: new Date(Date.UTC(2026, 0, 1 + index)).toISOString(),
  }));
}

describe('scoreChart', () => {
  it('draws the newest CHART_RUNS runs, oldest first, each point linking to its run', () => {
    const markup = scoreChart({ reportId: 7, runs: runs(45) }).toString();
    const linked = [...markup.matchAll(/href="\/reports\/7\/runs\/(\d+)"/g)].map((match) => Number(match[1]));
    expect(linked).toHaveLength(CHART_RUNS);
    expect(linked[0]).toBe(100 + 45 - CHART_RUNS);
    expect(linked.at(-1)).toBe(144);
    expect(markup).toContain(`Score of the last ${CHART_RUNS} runs`);
  });

  it('labels at most 8 runs under the axis, always the first and the last', () => {
    for (const count of [2, 3, 9, 17, 30]) {
      const markup = scoreChart({ reportId: 1, runs: runs(count) }).toString();
      const labels = [...markup.matchAll(/text-anchor="middle">(\d+)<\/text>/g)].map((match) => Number(match[1]));
      expect(labels.length, String(count)).toBeLessThanOrEqual(8);
      expect(labels[0], String(count)).toBe(1);
      expect(labels.at(-1), String(count)).toBe(count);
    }
  });

  it('keeps every point inside the drawing, and draws no line for a single run', () => {
    const markup = scoreChart({ reportId: 1, runs: runs(1) }).toString();
    expect(markup).not.toContain('<polyline');
    for (const match of scoreChart({ reportId: 1, runs: runs(30) }).toString().matchAll(/cx="([\d.]+)" cy="([\d.]+)"/g)) {
      expect(Number(match[1])).toBeLessThanOrEqual(640);
      expect(Number(match[2])).toBeLessThanOrEqual(220);
    }
    expect(markup).not.toMatch(/\sstyle=/);
  });
});
