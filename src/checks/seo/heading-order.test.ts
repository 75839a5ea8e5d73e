import { describe, expect, it } from 'vitest';
import type { Heading } from '../../parse/page-snapshot.ts';
import { makeContext } from '../../../test/support/check-context.ts';
import { headingOrderCheck } from './heading-order.ts';

const run = (...levels: Heading['level'][]) =>
  headingOrderCheck.run(makeContext({ snapshot: { headings: levels.map((level) => ({ level, text: `h${level}`, tagStart: 0, tagEnd: 0 })) } }));

describe('heading_order', () => {
  it('passes one level at a time down, and any jump back up', () => {
    expect(run(1, 2, 3, 4, 2, 3, 1, 2)).toEqual({ passed: true, value: { headings: 8, skips: 0 }, errors: null });
  });

  it('fails when going deeper skips a level', () => {
    expect(run(1, 2, 4)).toMatchObject({ passed: false, value: { skips: 1 }, errors: { skipped_level: [{ from: 'h2', to: 'h4', text: 'h4' }] } });
  });

  it('does not apply without headings', () => {
    expect(run().passed).toBeNull();
  });
});
