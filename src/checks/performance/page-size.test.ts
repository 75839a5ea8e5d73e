import { describe, it, expect } from 'vitest';
import { makeContext } from '../../../test/support/check-context.ts';
import { pageSizeCheck } from './page-size.ts';

describe('page_size', () => {
  it('judges the transferred (compressed) bytes, not the decoded ones', () => {
    const outcome = pageSizeCheck.run(makeContext({ page: { transferredBytes: 100_000, bodyBytes: 900_000 } }));
    expect(outcome).toMatchObject({ passed: true, value: { transferred_bytes: 100_000, body_bytes: 900_000 } });
  });

  it('fails above the threshold', () => {
    const outcome = pageSizeCheck.run(makeContext({ page: { transferredBytes: 330_001 } }));
    expect(outcome).toMatchObject({ passed: false, errors: { too_large: [{ transferred_bytes: 330_001, max_bytes: 330_000 }] } });
  });
});
