import { describe, expect, it } from 'vitest';
import { largestContentfulPaintCheck } from './largest-contentful-paint.ts';
import { labContext, labAudit } from '../../../test/support/lab-fixtures.ts';

const run = (lcp_ms: number | null, thresholds = {}, lcp_element: { selector: string; snippet: string } | null = { selector: 'img#hero', snippet: '<img id="hero" src="/hero.png">' }) =>
  largestContentfulPaintCheck.run(labContext(labAudit({ metrics: { lcp_ms }, lcp_element }), { thresholds }));

describe('largest_contentful_paint', () => {
  it('passes up to and including 2500 ms, in the good band', () => {
    expect(run(2500)).toEqual({ passed: true, value: { value: 2500, band: 'good' }, errors: null });
  });

  it('fails above it, naming the LCP element, banded by the fixed edges', () => {
    expect(run(2501)).toEqual({
      passed: false,
      value: { value: 2501, band: 'needs_improvement' },
      errors: { lcp_element: [{ selector: 'img#hero', snippet: '<img id="hero" src="/hero.png">' }] },
    });
    expect(run(4000)).toMatchObject({ value: { band: 'needs_improvement' } });
    expect(run(4001)).toMatchObject({ passed: false, value: { band: 'poor' } });
  });

  it('lists no element when it is gone from the DOM', () => {
    expect(run(5000, {}, null)).toMatchObject({ passed: false, errors: { lcp_element: [] } });
  });

  it('passes up to max_lcp_ms; the band edges stay', () => {
    expect(run(3000, { max_lcp_ms: 3000 })).toEqual({ passed: true, value: { value: 3000, band: 'needs_improvement' }, errors: null });
    expect(run(2000, { max_lcp_ms: 1500 })).toMatchObject({ passed: false, value: { band: 'good' } });
  });

  it('does not apply when nothing contentful was painted', () => {
    expect(run(null)).toEqual({ passed: null, reason: 'Nothing contentful was painted during the lab audit, so there is no largest contentful paint.' });
  });
});
