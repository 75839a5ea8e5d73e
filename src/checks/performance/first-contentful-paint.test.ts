import { describe, expect, it } from 'vitest';
import { firstContentfulPaintCheck } from './first-contentful-paint.ts';
import { labContext, labAudit } from '../../../test/support/lab-fixtures.ts';

const run = (fcp_ms: number | null, thresholds = {}) =>
  firstContentfulPaintCheck.run(labContext(labAudit({ metrics: { fcp_ms } }), { thresholds }));

describe('first_contentful_paint', () => {
  it('passes up to and including 1800 ms', () => {
    expect(run(1800)).toEqual({ passed: true, value: { value: 1800, band: 'good' }, errors: null });
  });

  it('fails above, saying by how much', () => {
    expect(run(1801)).toEqual({ passed: false, value: { value: 1801, band: 'needs_improvement' }, errors: { too_slow: [{ fcp_ms: 1801, max_ms: 1800 }] } });
    expect(run(3000)).toMatchObject({ value: { band: 'needs_improvement' } });
    expect(run(3001)).toMatchObject({ value: { band: 'poor' } });
  });

  it('passes up to max_fcp_ms, and names it when failing', () => {
    expect(run(2500, { max_fcp_ms: 2500 })).toMatchObject({ passed: true, value: { band: 'needs_improvement' } });
    expect(run(1200, { max_fcp_ms: 1000 })).toEqual({ passed: false, value: { value: 1200, band: 'good' }, errors: { too_slow: [{ fcp_ms: 1200, max_ms: 1000 }] } });
  });

  it('does not apply when nothing contentful was painted', () => {
    expect(run(null)).toEqual({ passed: null, reason: 'Nothing contentful was painted during the lab audit.' });
  });
});
