import { describe, expect, it } from 'vitest';
import type { MetaTag } from '../../parse/page-snapshot.ts';
import { makeContext } from '../../../test/support/check-context.ts';
import { metaDescriptionCheck } from './meta-description.ts';

const meta = (content: string | null, inHead = true): MetaTag => ({ name: 'description', property: null, httpEquiv: null, charset: null, content, inHead });
const run = (...metas: MetaTag[]) => metaDescriptionCheck.run(makeContext({ snapshot: { metas } }));
const GOOD = 'Fresh sourdough, rye and spelt bread baked every morning in our shop.';

describe('meta_description', () => {
  it('passes one description of 50 to 160 characters and reports its text', () => {
    expect(run(meta(`  ${GOOD}  `))).toEqual({ passed: true, value: { description: GOOD, length: GOOD.length, count: 1, outside_head: 0 }, errors: null });
  });

  it('fails when missing', () => {
    expect(run()).toMatchObject({ passed: false, errors: { missing: ['<meta name="description">'] } });
  });

  it('fails several description tags', () => {
    expect(run(meta(GOOD), meta(GOOD))).toMatchObject({ passed: false, value: { count: 2 }, errors: { multiple: [GOOD, GOOD] } });
  });

  it('treats a tag without content (value= instead of content=) as empty, not as a crash', () => {
    expect(run(meta(null))).toMatchObject({ passed: false, errors: { empty: ['<meta name="description">'] } });
  });

  it('fails too short and too long descriptions, counted in code points', () => {
    expect(run(meta('Bread.'))).toMatchObject({ passed: false, errors: { too_short: [{ length: 6, min: 50 }] } });
    expect(run(meta('ü'.repeat(160))).passed).toBe(true);
    expect(run(meta('ü'.repeat(161)))).toMatchObject({ passed: false, errors: { too_long: [{ length: 161, max: 160 }] } });
  });

  it('does not accept a description that is only in the body', () => {
    expect(run(meta(GOOD, false))).toMatchObject({ passed: false, errors: { outside_head: [{ count: 1 }] } });
  });
});
