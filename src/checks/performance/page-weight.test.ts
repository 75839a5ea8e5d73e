import { describe, expect, it } from 'vitest';
import { pageWeightCheck } from './page-weight.ts';
import { labAudit, labContext, labResources } from '../../../test/support/lab-fixtures.ts';

const KIB = 1024;
const run = (byType: Parameters<typeof labResources>[0], thresholds = {}) =>
  pageWeightCheck.run(labContext(labAudit({ resources: labResources(byType) }), { thresholds }));

describe('page_weight', () => {
  it('passes up to and including 1,600 KiB', () => {
    expect(run({ document: [1, 600 * KIB], image: [4, 1000 * KIB] })).toEqual({
      passed: true,
      value: { value: 1_638_400, band: 'good' },
      errors: null,
    });
  });

  it('fails above, listing the types with bytes, heaviest first', () => {
    const outcome = run({ document: [1, 20 * KIB], script: [9, 900 * KIB], image: [12, 680 * KIB + 1] });
    expect(outcome).toEqual({
      passed: false,
      value: { value: 1_638_401, band: 'needs_improvement' },
      errors: {
        by_type: [
          { type: 'script', requests: 9, bytes: 900 * KIB },
          { type: 'image', requests: 12, bytes: 680 * KIB + 1 },
          { type: 'document', requests: 1, bytes: 20 * KIB },
        ],
      },
    });
  });

  it('bands at 4,000 KiB', () => {
    expect(run({ image: [1, 4000 * KIB] })).toMatchObject({ value: { band: 'needs_improvement' } });
    expect(run({ image: [1, 4000 * KIB + 1] })).toMatchObject({ value: { band: 'poor' } });
  });

  it('passes up to max_page_weight_bytes', () => {
    expect(run({ image: [1, 3000 * KIB] }, { max_page_weight_bytes: 3000 * KIB })).toMatchObject({ passed: true, value: { band: 'needs_improvement' } });
    expect(run({ document: [1, 101] }, { max_page_weight_bytes: 100 })).toEqual({
      passed: false,
      value: { value: 101, band: 'good' },
      errors: { by_type: [{ type: 'document', requests: 1, bytes: 101 }] },
    });
  });
});
