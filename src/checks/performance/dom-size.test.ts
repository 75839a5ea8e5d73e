import { describe, it, expect } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import { domSizeCheck } from './dom-size.ts';

describe('dom_size', () => {
  it('passes at the threshold and reports the depth', () => {
    const outcome = domSizeCheck.run(makeContext({ snapshot: { elementCount: 1500, maxDepth: 14 } }));
    expect(outcome).toMatchObject({ passed: true, value: { elements: 1500, max_depth: 14, max_elements: 1500 } });
  });

  it('fails above the threshold', () => {
    const outcome = domSizeCheck.run(makeContext({ snapshot: { elementCount: 1501 } }));
    expect(outcome).toMatchObject({ passed: false, errors: { too_many_elements: [{ elements: 1501, max: 1500 }] } });
  });
});
