import { describe, expect, it } from 'vitest';
import type { Heading } from '../../parse/page-snapshot.ts';
import { makeContext } from '../../../test/support/check-context.ts';
import { headingsCheck } from './headings.ts';

const h = (level: Heading['level'], text: string): Heading => ({ level, text, tagStart: 0, tagEnd: 0 });
const run = (...headings: Heading[]) => headingsCheck.run(makeContext({ snapshot: { headings } }));

describe('headings', () => {
  it('passes exactly one non-empty h1 and reports h1 texts and counts per level', () => {
    expect(run(h(1, 'Bakery'), h(2, 'Bread'), h(2, 'Cakes'))).toEqual({
      passed: true,
      value: { h1: ['Bakery'], counts: { h1: 1, h2: 2, h3: 0, h4: 0, h5: 0, h6: 0 }, empty: 0 },
      errors: null,
    });
  });

  it('fails without an h1', () => {
    expect(run(h(2, 'Bread'))).toMatchObject({ passed: false, errors: { missing: ['<h1>'] } });
  });

  it('fails with several h1', () => {
    expect(run(h(1, 'One'), h(1, 'Two'))).toMatchObject({ passed: false, errors: { multiple: ['One', 'Two'] } });
  });

  it('fails on empty headings, saying where they are', () => {
    expect(run(h(1, 'Bakery'), h(2, ''), h(3, 'Rye'))).toMatchObject({ passed: false, value: { empty: 1 }, errors: { empty: [{ level: 'h2', position: 2 }] } });
    expect(run(h(1, ''))).toMatchObject({ passed: false, errors: { empty: [{ level: 'h1', position: 1 }] } });
  });
});
