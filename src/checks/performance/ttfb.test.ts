import { describe, it, expect } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import { ttfbCheck } from './ttfb.ts';

describe('ttfb', () => {
  it('passes within the threshold', () => {
    expect(ttfbCheck.run(makeContext({ page: { ttfbMs: 800 } }))).toMatchObject({ passed: true, value: { ttfb_ms: 800, max_ms: 800 } });
  });

  it('fails above the threshold', () => {
    expect(ttfbCheck.run(makeContext({ page: { ttfbMs: 950 } }))).toMatchObject({
      passed: false,
      errors: { too_slow: [{ ttfb_ms: 950, max_ms: 800 }] },
    });
  });

  it('uses the configured threshold', () => {
    expect(ttfbCheck.run(makeContext({ page: { ttfbMs: 950 }, thresholds: { max_ttfb_ms: 1000 } })).passed).toBe(true);
  });
});
